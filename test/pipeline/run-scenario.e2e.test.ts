// End to end with real releases from npm: a tool call, a SIGKILL while a background task runs, a resume — all
// judged from the run directory, plus what /proc shows while and after it runs.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERDICT_EXIT } from "../../core/exit-codes.ts";
import { FAKE_API_KEY, RUN_MARKER_VAR } from "../../harness/isolation.ts";
import { loadRecordings, type Recordings } from "../../harness/recordings.ts";
import { resolveClaude, type ResolvedClaude } from "../../releases/resolve.ts";
import { runAndCheck, type CheckedRun } from "../../pipeline/run-scenario.ts";
import scenario from "../../scenarios/resume-orphaned-background-task.ts";

const CLI = fileURLToPath(new URL("../../bin/ccrepro.mjs", import.meta.url));
const roots: string[] = [];
const callerEnv = { ...process.env };

function tempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ccrepro-e2e-${label}-`));
  roots.push(dir);
  return dir;
}

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in callerEnv)) delete process.env[name];
  Object.assign(process.env, callerEnv);
  for (const dir of roots) fs.rmSync(dir, { recursive: true, force: true });
});

interface SeenProcess {
  pid: number;
  runId: string;
  argv: string[];
  environ: string[];
}

// Independent of harness/processes.ts: every process whose cwd is under `dir`, with its run marker (if any).
function processesUnder(dir: string): SeenProcess[] {
  return fs.readdirSync("/proc").flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      if (!fs.readlinkSync(`/proc/${name}/cwd`).startsWith(dir)) return [];
      const argv = fs.readFileSync(`/proc/${name}/cmdline`).toString("utf8").split("\0").slice(0, -1);
      const environ = fs.readFileSync(`/proc/${name}/environ`).toString("latin1").split("\0").slice(0, -1);
      // A process caught while exiting (or a zombie) shows neither; it was seen in full earlier, if at all.
      if (argv.length === 0 || environ.length === 0) return [];
      const marker = environ.find((entry) => entry.startsWith(`${RUN_MARKER_VAR}=`));
      return [{ pid: Number(name), runId: marker?.slice(RUN_MARKER_VAR.length + 1) ?? "", argv, environ }];
    } catch {
      return []; // gone meanwhile
    }
  });
}

function markedWith(runId: string): number[] {
  const entry = `${RUN_MARKER_VAR}=${runId}`;
  return fs.readdirSync("/proc").flatMap((name) => {
    try {
      return /^\d+$/.test(name) && fs.readFileSync(`/proc/${name}/environ`).toString("latin1").split("\0").includes(entry) ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

const alive = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
};

const isBackgroundSleep = (p: SeenProcess) => p.argv.join(" ") === "sleep 120";

// Polls /proc while a run goes on, keeping every distinct sighting of a process working in the runs directory
// (a forked shell that then execs `sleep` is seen twice under one pid).
function watchProcesses(dir: string) {
  const seen = new Map<string, SeenProcess>();
  const tick = () => {
    for (const p of processesUnder(dir)) seen.set(`${p.pid} ${p.argv.join(" ")}`, p);
  };
  const timer = setInterval(tick, 50);
  return {
    seen,
    stop() {
      clearInterval(timer);
      tick();
      return [...seen.values()];
    },
  };
}

// Every file under dir (regular files' bytes, symlinks' targets), binary-safe.
function filesContaining(dir: string, needles: string[]): string[] {
  const hits: string[] = [];
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const bytes = entry.isSymbolicLink() ? Buffer.from(fs.readlinkSync(file)) : entry.isFile() ? fs.readFileSync(file) : null;
    if (bytes && needles.some((needle) => bytes.includes(Buffer.from(needle)))) hits.push(path.relative(dir, file));
  }
  return hits;
}

interface ContentBlock {
  type: string;
  id?: string;
  tool_use_id?: string;
  name?: string;
  text?: string;
}
interface Message {
  role: string;
  content: string | ContentBlock[];
}

const messagesOf = (rec: Recordings, seq: number): Message[] => (JSON.parse(rec.body(seq).toString("utf8")) as { messages: Message[] }).messages;
const blocks = (message: Message): ContentBlock[] => (typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content);
const textOf = (messages: Message[]) => messages.flatMap(blocks).map((b) => b.text ?? "").join("\n");

describe.each([
  { version: "2.1.332", era: "native" },
  { version: "2.1.112", era: "js" },
])("resume-orphaned-background-task on $version ($era)", ({ version, era }) => {
  const runsDir = tempDir(`runs-${version}`);
  const sentinel = `sentinel-${crypto.randomBytes(8).toString("hex")}`;
  const sentinelName = `CCREPRO_SENTINEL_${crypto.randomBytes(4).toString("hex").toUpperCase()}`;
  const sentinelValue = `leak-${crypto.randomBytes(8).toString("hex")}`;
  let claude: ResolvedClaude;
  let run: CheckedRun;
  let rec: Recordings;
  let seen: SeenProcess[];
  let markedAfter: number[];
  let wallMs: number;

  beforeAll(async () => {
    const installStart = performance.now();
    claude = await resolveClaude(version);
    const installMs = Math.round(performance.now() - installStart);
    // The caller's environment carries secrets; none may reach the binary or the run directory.
    process.env.ANTHROPIC_API_KEY = sentinel;
    process.env[sentinelName] = sentinelValue;
    const watch = watchProcesses(runsDir);
    const started = performance.now();
    try {
      run = await runAndCheck({ scenario, params: scenario.params.parse({}), claude, requested: version, runsDir });
    } finally {
      seen = watch.stop();
    }
    wallMs = Math.round(performance.now() - started);
    markedAfter = markedWith(run.record.id);
    rec = loadRecordings(run.runDir);
    console.log(
      `e2e ${version}: install ${installMs} ms (fromCache ${"fromCache" in claude && claude.fromCache}), runScenario ${wallMs} ms, ` +
        `run.json wallMs ${run.record.wallMs} floorMs ${run.record.floorMs}, verdict ${run.record.result?.verdict}`,
    );
  }, 300_000);

  it("runs the release of the era asked for, through every step, to a verdict about the binary", () => {
    expect(claude.era).toBe(era);
    expect(run.record.claude.reportedVersion).toBe(version);
    expect(run.record.harnessError).toBeNull();
    expect(run.record.steps.map((s) => s.outcome)).toEqual(Array(7).fill("ok"));
    expect(["GREEN", "RED"]).toContain(run.record.result?.verdict);
    // The release's --help lists the optional flags, so both sessions got them, and the debug log shows they took.
    for (const session of rec.sessions) {
      expect(session.process?.argv).toEqual(expect.arrayContaining(["--input-format", "stream-json", "--setting-sources", "--debug-file"]));
      expect(fs.statSync(path.join(run.runDir, "sessions", session.label, "debug.log")).size).toBeGreaterThan(0);
    }
  });

  it("recorded the main stream: a Bash tool_use, then its tool_result, and a resumed request carrying the earlier messages", () => {
    const main = rec.requests.filter((r) => r.method === "POST" && r.path === "/v1/messages" && r.stream === "main");
    expect(main.length).toBeGreaterThanOrEqual(3);
    const s2 = run.record.sessions.find((s) => s.label === "s2")!;
    const s2Start = rec.sessions.find((s) => s.label === "s2")!.process!.startedAt;
    const before = main.filter((r) => r.receivedAt < s2Start);
    const after = main.filter((r) => r.receivedAt >= s2Start);
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(s2.pid).not.toBeNull();

    // Session 1's last request: the prompt, the assistant's tool_use, then the user's tool_result for that id.
    const s1Messages = messagesOf(rec, before.at(-1)!.seq);
    const useAt = s1Messages.findIndex((m) => m.role === "assistant" && blocks(m).some((b) => b.type === "tool_use" && b.name === "Bash"));
    expect(useAt).toBeGreaterThan(-1);
    const toolUseId = blocks(s1Messages[useAt]!).find((b) => b.type === "tool_use")!.id!;
    const resultAt = s1Messages.findIndex((m) => m.role === "user" && blocks(m).some((b) => b.type === "tool_result" && b.tool_use_id === toolUseId));
    expect(resultAt).toBeGreaterThan(useAt);
    expect(textOf(s1Messages.slice(0, useAt))).toContain("CCREPRO_ORPHAN_7Q");

    // The resumed session's first request starts with session 1's conversation and ends with the new prompt.
    const resumed = messagesOf(rec, after[0]!.seq);
    expect(resumed.length).toBeGreaterThan(s1Messages.length);
    expect(resumed.slice(0, s1Messages.length).map((m) => m.role)).toEqual(s1Messages.map((m) => m.role));
    expect(blocks(resumed[useAt]!).find((b) => b.type === "tool_use")?.id).toBe(toolUseId);
    expect(blocks(resumed[resultAt]!).some((b) => b.tool_use_id === toolUseId)).toBe(true);
    expect(textOf(resumed.slice(0, useAt))).toContain("CCREPRO_ORPHAN_7Q");
    expect(textOf(resumed.slice(-1))).toContain("SECOND_MSG");
  });

  it("carried the session id across the resume, in stdout and in every request's session header", () => {
    const [s1, s2] = ["s1", "s2"].map((label) => run.record.sessions.find((s) => s.label === label)!);
    expect(s1!.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(s2!.sessionId).toBe(s1!.sessionId);
    expect(s1!.signal).toBe("SIGKILL");
    const s2Start = rec.sessions.find((s) => s.label === "s2")!.process!.startedAt;
    const headers = rec.requests.filter((r) => r.path === "/v1/messages").map((r) => ({ s2: r.receivedAt >= s2Start, id: r.headers["x-claude-code-session-id"] }));
    // Both releases send the header; should one stop, this says so rather than pass vacuously.
    expect(headers.filter((h) => h.id !== undefined)).toHaveLength(headers.length);
    expect(new Set(headers.map((h) => h.id))).toEqual(new Set([s1!.sessionId]));
    expect(headers.some((h) => h.s2) && headers.some((h) => !h.s2)).toBe(true);
  });

  it("left no process behind: none in run.json, none carrying the run marker, the background sleep 120 included", () => {
    expect(run.record.processes.survivors).toEqual([]);
    expect(markedAfter).toEqual([]);
    const ours = seen.filter((p) => p.runId === run.record.id);
    const sleeps = ours.filter(isBackgroundSleep);
    // The orphan existed (so the reaper had something to do), carried the marker, and is gone now.
    expect(sleeps).toHaveLength(1);
    expect(ours.filter((p) => alive(p.pid) && markedWith(run.record.id).includes(p.pid))).toEqual([]);
    expect(seen.filter((p) => p.runId !== run.record.id)).toEqual([]);
  });

  it("left no per-process socket of its sessions under /tmp", () => {
    const sockets = run.record.sessions.map((s) => `/tmp/cc-socks-${process.getuid?.() ?? 0}/${s.pid}.sock`);
    expect(sockets.filter((socket) => fs.existsSync(socket))).toEqual([]);
  });

  it("made no outbound attempt", () => {
    expect(run.record.outbound.attempts).toBe(0);
    expect(fs.readFileSync(path.join(run.runDir, "outbound.jsonl"), "utf8")).toBe("");
  });

  it("let no caller secret through: not to any process, not into any file of the run directory, not into any header", () => {
    const needles = [sentinel, sentinelName, sentinelValue];
    expect(seen.length).toBeGreaterThan(2);
    for (const p of seen) {
      expect(p.environ.filter((entry) => needles.some((n) => entry.includes(n)))).toEqual([]);
      if (p.argv[0]?.includes("claude") || p.argv[1]?.endsWith("cli.js")) expect(p.environ).toContain(`ANTHROPIC_API_KEY=${FAKE_API_KEY}`);
    }
    expect(filesContaining(run.runDir, needles)).toEqual([]);
    for (const request of rec.requests) expect(JSON.stringify(request.headers)).not.toMatch(new RegExp(needles.join("|")));
    // The search itself works: the run directory does hold the fake key's tail that seedConfig approved.
    expect(filesContaining(run.runDir, [FAKE_API_KEY.slice(-20)])).toContain(path.join("iso", "config", ".claude.json"));
  });

  it("gives the same verdict from `ccrepro check` on a copy of the run directory elsewhere", async () => {
    const copy = path.join(tempDir(`copy-${version}`), "moved-run");
    await execa("cp", ["-r", run.runDir, copy]);
    // With the original out of the way, the copy is all the checker can read.
    const aside = `${run.runDir}.aside`;
    fs.renameSync(run.runDir, aside);
    try {
      const checked = await execa(process.execPath, [CLI, "check", "--json", copy], { reject: false });
      expect(JSON.parse(checked.stdout)).toEqual(run.record.result);
      expect(checked.exitCode).toBe(VERDICT_EXIT[run.record.result.verdict]);
    } finally {
      fs.renameSync(aside, run.runDir);
    }
  }, 60_000);
});

describe("an aborted run (2.1.332)", () => {
  let claude: ResolvedClaude;

  beforeAll(async () => {
    claude = await resolveClaude("2.1.332");
  }, 300_000);

  it("stops mid-run once the background task is running, reaps everything, and ends in ERROR with the harness error", async () => {
    const runsDir = tempDir("abort");
    const abort = new AbortController();
    const watch = watchProcesses(runsDir);
    const aborter = setInterval(() => {
      if ([...watch.seen.values()].some(isBackgroundSleep)) abort.abort();
    }, 50);
    let run: CheckedRun;
    try {
      run = await runAndCheck({ scenario, params: scenario.params.parse({}), claude, requested: "2.1.332", runsDir, abort: abort.signal });
    } finally {
      clearInterval(aborter);
    }
    const seen = watch.stop();
    expect(abort.signal.aborted).toBe(true);
    expect(run.record.harnessError).toBe("the run was interrupted");
    expect(run.record.result?.verdict).toBe("ERROR");
    // It stopped before the resume: no session 2.
    expect(run.record.sessions.map((s) => s.label)).toEqual(["s1"]);
    expect(run.record.processes.survivors).toEqual([]);
    expect(markedWith(run.record.id)).toEqual([]);
    expect(seen.filter(isBackgroundSleep).map((p) => alive(p.pid))).toEqual([false]);
  }, 120_000);

  it("aborted before it starts, runs no step and no process, and ends in ERROR", async () => {
    const runsDir = tempDir("pre-abort");
    const run = await runAndCheck({ scenario, params: scenario.params.parse({}), claude, requested: "2.1.332", runsDir, abort: AbortSignal.abort() });
    expect(run.record.harnessError).toBe("the run was interrupted");
    expect(run.record.result?.verdict).toBe("ERROR");
    expect(run.record.steps).toEqual([]);
    expect(run.record.sessions).toEqual([]);
    expect(markedWith(run.record.id)).toEqual([]);
  }, 60_000);
});
