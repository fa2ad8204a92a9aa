// The watchdog's release (issue 26): after ccrepro's own reap left nothing, the waiting shell exits without starting
// node to scan again; told otherwise, it reaps the run's marked processes. Fixture programs only (a marked `sleep`).
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { RUN_MARKER_VAR } from "../../harness/isolation.ts";
import { findMarkedProcesses, reapRun } from "../../harness/processes.ts";
import { startWatchdog } from "../../harness/watchdog.ts";
import { argvOf } from "../../core/proc.ts";
import { eventually } from "../eventually.ts";

const runIds: string[] = [];
afterEach(async () => {
  for (const id of runIds.splice(0)) await reapRun({ name: RUN_MARKER_VAR, value: id }, []);
});

function markedSleep(): string {
  const runId = `test-watchdog-${crypto.randomBytes(6).toString("hex")}`;
  runIds.push(runId);
  spawn("sleep", ["60"], { env: { PATH: "/usr/bin:/bin", [RUN_MARKER_VAR]: runId }, detached: true, stdio: "ignore" }).unref();
  return runId;
}

const marked = (runId: string) => findMarkedProcesses(RUN_MARKER_VAR, runId);

// The watchdog's own processes (the waiting shell, or the node it became): they carry the run id in their argv, not
// in their environment.
function watchdogPids(runId: string): number[] {
  return fs.readdirSync("/proc").filter((entry) => /^\d+$/.test(entry) && argvOf(Number(entry)).includes(runId)).map(Number);
}

// Started, and waiting on its pipe.
async function startedWatchdog(runId: string) {
  const watchdog = startWatchdog({ name: RUN_MARKER_VAR, value: runId });
  expect(await eventually(() => watchdogPids(runId).length === 1, 5_000)).toBe(true);
  return watchdog;
}

describe("the watchdog's release", { timeout: 20_000 }, () => {
  it("reaps the run's marked processes when the pipe closes without word that nothing is left", async () => {
    const runId = markedSleep();
    const watchdog = await startedWatchdog(runId);
    expect(marked(runId)).toHaveLength(1);
    watchdog.release(false);
    expect(await eventually(() => marked(runId).length === 0, 8_000)).toBe(true);
  });

  it("exits without a scan when ccrepro's own reap left nothing: a marked process it never saw is left alone", async () => {
    const runId = markedSleep();
    const watchdog = await startedWatchdog(runId);
    watchdog.release(true);
    expect(await eventually(() => watchdogPids(runId).length === 0, 2_000)).toBe(true);
    // With neither the shell nor a node it became left, nothing can reap the marked process any more.
    expect(marked(runId)).toHaveLength(1);
  });

  it("a watchdog killed from outside does not take ccrepro down when the run releases it", async () => {
    const runId = markedSleep();
    const watchdog = await startedWatchdog(runId);
    const thrown: unknown[] = [];
    const keep = (error: unknown) => thrown.push(error);
    process.on("uncaughtException", keep);
    try {
      for (const pid of watchdogPids(runId)) process.kill(pid, "SIGKILL");
      // Release before this process has seen the exit: the write meets a closed pipe (EPIPE), which must not be thrown.
      for (const until = Date.now() + 100; Date.now() < until; );
      watchdog.release(true);
      // An unhandled EPIPE surfaces within a few ticks of the write; nothing announces that it did not.
      await delay(300);
    } finally {
      process.off("uncaughtException", keep);
    }
    expect(thrown).toEqual([]);
  });
});
