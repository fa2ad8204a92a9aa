// Runs a file scenario's check in a child process: confined by Node's permission model (it reads only the run
// directory, the scenario's folder and ccrepro itself; no writes, no child processes, no workers) and cut off from the
// network, unless the user trusts the file; and ended when it passes its time limit. A run directory from elsewhere
// is data: the scenario inside it is code, and never runs in the ccrepro process.
import { fork, spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkResultSchema } from "../core/verdict.ts";
import { readRunRecord } from "../harness/run-record.ts";
import { runLayout } from "../harness/run-layout.ts";
import { finishVerdict } from "./check-recorded-run.ts";
import { harnessErrorResult } from "./verdict-rules.ts";
import type { AuditedResult } from "./cache-notes.ts";
import type { CheckJob, CheckReply } from "./check-child.ts";
import { CCREPRO_ROOT } from "../core/package-root.ts";

// A check reads a few files and compares them: seconds at most. CCREPRO_CHECK_TIMEOUT_MS overrides it (tests).
export const CHECK_TIMEOUT_MS = 60_000;

// How the check ran, for the output: "confined" with what it could read and how the network was cut, or "trusted".
export type Confinement =
  | { kind: "confined"; readable: string[]; network: "namespace" | "patched" }
  | { kind: "trusted" };

export interface ConfinedCheck {
  audited: AuditedResult;
  // The name the file defines (null when it could not be loaded).
  name: string | null;
  confinement: Confinement;
}

export interface ConfinedCheckOptions {
  // Run the file with the user's rights (still in a child, still time-limited).
  trust?: boolean;
  timeoutMs?: number;
  // Ctrl-C, SIGTERM: the child is ended at once and the check is an ERROR saying so.
  abort?: AbortSignal;
}

const CHILD = fileURLToPath(new URL("./check-child.mjs", import.meta.url));

// ccrepro's own folders: the package, and the node_modules its dependencies load from — its own in a checkout (a
// symlink in worktrees, so both the link and its target), the one an installer hoisted them into otherwise.
function ccreproFolders(): string[] {
  const folders = [CCREPRO_ROOT, fs.realpathSync(CCREPRO_ROOT)];
  const typescript = createRequire(import.meta.url).resolve("typescript/package.json");
  folders.push(path.dirname(path.dirname(fs.realpathSync(typescript))));
  return [...new Set(folders)];
}

// Whether a wrapper command works on this machine, asked once per command line: `<words…> true` exits 0.
const wrapperWorks = new Map<string, boolean>();
function works(words: readonly string[]): boolean {
  const key = words.join(" ");
  let answer = wrapperWorks.get(key);
  if (answer === undefined) {
    answer = spawnSync(words[0]!, [...words.slice(1), "true"], { stdio: "ignore", timeout: 5_000 }).status === 0;
    wrapperWorks.set(key, answer);
  }
  return answer;
}

// A network namespace of its own (`unshare -n`, or `-rn` for a user without root) leaves the child no interface but a
// loopback with nothing on it; where neither works, the child patches node's socket modules instead.
function unshareArgs(): string[] | null {
  const words = ["unshare", process.getuid?.() === 0 ? "-n" : "-rn"];
  return works(words) ? words : null;
}

// `setpriv --pdeathsig KILL` (util-linux, beside unshare) makes the kernel SIGKILL the child when ccrepro dies, however
// it dies: a check spinning in a loop never reaches its event loop, so no handler of its own could end it (issue 41).
// Where setpriv is missing, the child ends itself when its IPC channel closes, which a spinning check never notices.
function parentDeathArgs(): string[] {
  const words = ["setpriv", "--pdeathsig", "KILL"];
  return works(words) ? words : [];
}

function timeoutOf(options: ConfinedCheckOptions): number {
  const fromEnv = Number(process.env.CCREPRO_CHECK_TIMEOUT_MS);
  return options.timeoutMs ?? (Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : CHECK_TIMEOUT_MS);
}

// `file`: the scenario file to judge with; `shown`: the name errors blame (the run's copy or the user's file).
export function confinedCheck(runDir: string, file: string, shown: string, options: ConfinedCheckOptions = {}): Promise<ConfinedCheck> {
  const timeoutMs = timeoutOf(options);
  // What the permission model is given is what the output prints, each folder once.
  const readable = [...new Set([path.resolve(runDir), path.dirname(path.resolve(file)), ...ccreproFolders()])];
  const namespace = options.trust ? null : unshareArgs();
  const confinement: Confinement = options.trust ? { kind: "trusted" } : { kind: "confined", readable, network: namespace ? "namespace" : "patched" };
  const permission = options.trust
    ? []
    : ["--experimental-permission", "--allow-worker", ...readable.map((folder) => `--allow-fs-read=${folder}`), "--disable-warning=ExperimentalWarning"];
  const job: CheckJob = { runDir: path.resolve(runDir), file: path.resolve(file), shown, blockNetwork: !options.trust && !namespace };
  // fork() cannot wrap its command, so a wrapper (unshare, setpriv) is the execPath and node its first argument;
  // each wrapper execs the next in the same process, so the child is still ccrepro's own child.
  const wrappers = [...(namespace ?? []), ...parentDeathArgs()];
  const [execPath, ...wrapperArgs] = wrappers.length > 0 ? [...wrappers, process.execPath] : [process.execPath];
  const child = fork(CHILD, [], { execPath, execArgv: [...wrapperArgs, ...permission], stdio: ["ignore", "ignore", "pipe", "ipc"], env: childEnv(), cwd: CCREPRO_ROOT });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    if (stderr.length < 4_000) stderr += chunk.toString();
  });
  const error = (reason: string): ConfinedCheck => ({ audited: { result: harnessErrorResult(reason), cache: null }, name: null, confinement });
  return new Promise((resolve) => {
    let settled = false;
    const onAbort = () => settle(error(`the check of scenario file ${shown} was interrupted, and its process ended; run \`ccrepro check\` on this run directory to judge it again`));
    // The verdict is given only once the child is gone: a SIGKILL is delivered asynchronously, and ccrepro must not
    // exit (or move on) while a process it started still runs.
    const settle = (value: ConfinedCheck) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.abort?.removeEventListener("abort", onAbort);
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return resolve(value);
      child.once("exit", () => resolve(value));
      child.kill("SIGKILL");
    };
    const timer = setTimeout(() => {
      settle(error(`the check of scenario file ${shown} did not return within ${Math.round(timeoutMs / 1000)} s and was ended; a check that loops or waits forever is a bug in that file: fix its check() and run \`ccrepro check\` on this run directory again`));
    }, timeoutMs);
    if (options.abort?.aborted) return onAbort();
    options.abort?.addEventListener("abort", onAbort, { once: true });
    child.on("message", (reply: CheckReply) => settle(fromChild(reply, runDir, shown, confinement)));
    child.on("error", (cause) => settle(error(`the check of scenario file ${shown} could not be started: ${cause.message}`)));
    child.on("exit", (code, signal) => {
      const why = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const said = stderr.trim().split("\n").slice(-3).join(" | ");
      settle(error(`the check of scenario file ${shown} ${why} before it gave a verdict${said ? `: ${said}` : ""}`));
    });
    child.send(job);
  });
}

// The child needs no secret of the user's: it gets PATH and the locale, nothing else of the environment.
function childEnv(): NodeJS.ProcessEnv {
  const keep = ["PATH", "LANG", "LC_ALL", "TZ"];
  return Object.fromEntries(keep.filter((key) => process.env[key] !== undefined).map((key) => [key, process.env[key]]));
}

// What the child says is data from code that may be hostile: the result is validated, and the run's own evidence (its
// timeouts, the API's rejections) and the cache audit are applied here, never trusted from the child.
function fromChild(reply: CheckReply, runDir: string, shown: string, confinement: Confinement): ConfinedCheck {
  const message = typeof reply === "object" && reply !== null && !reply.ok && typeof reply.message === "string" ? reply.message : null;
  if (message !== null) return { audited: { result: harnessErrorResult(message), cache: null }, name: null, confinement };
  const result = checkResultSchema.safeParse(reply.ok ? reply.check : undefined);
  const name = reply.ok && typeof reply.name === "string" ? reply.name : null;
  if (!result.success) {
    return { audited: { result: harnessErrorResult(`the check of scenario file ${shown} answered with something that is not a result: ${result.error.message}`), cache: null }, name, confinement };
  }
  if (result.data.verdict === "ERROR") return { audited: { result: result.data, cache: null }, name, confinement };
  try {
    return { audited: finishVerdict(runDir, readRunRecord(runLayout(runDir).runJson), result.data), name, confinement };
  } catch (error) {
    // The child read the same directory and judged it; failing to read it here again is the harness's failure.
    return {
      audited: { result: harnessErrorResult(`the run directory could not be read again to finish the verdict: ${(error as Error).message}; check that ${runDir} is whole (run.json, mock/) and run \`ccrepro check\` on it again`), cache: null },
      name,
      confinement,
    };
  }
}
