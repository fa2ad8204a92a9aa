// Test helpers for process handling: a stand-in for a ccrepro mid-run (test/fixtures/processes/fake-ccrepro.ts, never
// claude), the confined check's child of a real ccrepro, and a real run's processes found by its marker.
import fs from "node:fs";
import path from "node:path";
import { execa, type ResultPromise } from "execa";
import { setTimeout as delay } from "node:timers/promises";
import { statFields } from "../core/proc.ts";
import { RUN_MARKER_VAR } from "../harness/isolation.ts";
import { findMarkedProcesses } from "../harness/processes.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const FAKE = path.join(ROOT, "test", "fixtures", "processes", "fake-ccrepro.ts");

// Starts the stand-in with run id `runId` and returns once its process trees are up. `inNamespace`: under
// `unshare --pid --fork --mount-proc --kill-child`, as a container's ccrepro runs.
export async function startFakeCcrepro(runId: string, options: { watchdog?: boolean; inNamespace?: boolean } = {}): Promise<{ fake: ResultPromise; pids: number[] }> {
  const words = ["--import", "tsx", FAKE, runId, ...(options.watchdog === false ? ["no-watchdog"] : [])];
  const [command, args] = options.inNamespace ? ["unshare", ["--pid", "--fork", "--mount-proc", "--kill-child", process.execPath, ...words]] : [process.execPath, words];
  const fake = execa(command, args, { cwd: ROOT, reject: false, buffer: false });
  const pids = await new Promise<number[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the fake ccrepro never printed ready")), 30_000);
    fake.stdout?.on("data", (chunk: Buffer) => {
      const line = chunk.toString().split("\n").find((l) => l.startsWith("ready "));
      if (line) {
        clearTimeout(timer);
        resolve(line.split(" ").slice(1).map(Number));
      }
    });
  });
  return { fake, pids };
}

// The confined check's child of the ccrepro with pid `ccreproPid` (pipeline/check-child.mjs), or null.
export function checkChildOf(ccreproPid: number): number | null {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (Number(statFields(Number(entry))?.[1]) === ccreproPid && fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("check-child.mjs")) return Number(entry);
    } catch {
      // gone
    }
  }
  return null;
}

// Running: there, and not a zombie waiting for its new parent to reap it.
export function running(pid: number): boolean {
  const fields = statFields(pid);
  return fields !== null && fields[0] !== "Z";
}

// The id of the first run recorded under `runsDir`, once its run.json is there.
export function runIdIn(runsDir: string): string | null {
  const runJson = fs.existsSync(runsDir) ? fs.readdirSync(runsDir).map((d) => path.join(runsDir, d, "run.json")).find((f) => fs.existsSync(f)) : undefined;
  return runJson ? (JSON.parse(fs.readFileSync(runJson, "utf8")) as { id: string }).id : null;
}

// Waits until the run recorded under `runsDir` has a process running `command` (its argv[0]; seen from the host,
// which sees every namespace's processes), and returns the run's id: the event a test acts on, not a fixed sleep.
export async function runningCommand(runsDir: string, command: string, withinMs = 120_000): Promise<string> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    const id = runIdIn(runsDir);
    const up = id !== null && findMarkedProcesses(RUN_MARKER_VAR, id).some((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith(`${command}\0`);
      } catch {
        return false;
      }
    });
    if (up) return id;
    await delay(100);
  }
  throw new Error(`the run in ${runsDir} never ran ${command} within ${withinMs} ms`);
}
