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

async function goneWithin(runId: string, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await delay(100)) if (findMarkedProcesses(RUN_MARKER_VAR, runId).length === 0) return true;
  return false;
}

// The watchdog's own processes (the waiting shell, or the node it became): they carry the run id in their argv, not
// in their environment.
function watchdogPids(runId: string): number[] {
  return fs.readdirSync("/proc").flatMap((entry) => {
    try {
      return /^\d+$/.test(entry) && fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").includes(runId) ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

async function watchdogGoneWithin(runId: string, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await delay(50)) if (watchdogPids(runId).length === 0) return true;
  return false;
}

describe("the watchdog's release", { timeout: 20_000 }, () => {
  it("reaps the run's marked processes when the pipe closes without word that nothing is left", async () => {
    const runId = markedSleep();
    const watchdog = startWatchdog({ name: RUN_MARKER_VAR, value: runId });
    await delay(300);
    expect(findMarkedProcesses(RUN_MARKER_VAR, runId)).toHaveLength(1);
    watchdog.release(false);
    expect(await goneWithin(runId, 8_000)).toBe(true);
  });

  it("exits without a scan when ccrepro's own reap left nothing: a marked process it never saw is left alone", async () => {
    const runId = markedSleep();
    const watchdog = startWatchdog({ name: RUN_MARKER_VAR, value: runId });
    await delay(300);
    expect(watchdogPids(runId)).toHaveLength(1);
    watchdog.release(true);
    expect(await watchdogGoneWithin(runId, 2_000)).toBe(true);
    // Long enough for a reap started by the release to have found it (the other case takes well under a second).
    expect(await goneWithin(runId, 2_500)).toBe(false);
  });

  it("a watchdog killed from outside does not take ccrepro down when the run releases it", async () => {
    const runId = markedSleep();
    const watchdog = startWatchdog({ name: RUN_MARKER_VAR, value: runId });
    await delay(300);
    for (const pid of watchdogPids(runId)) process.kill(pid, "SIGKILL");
    // Release before this process has seen the exit: the write meets a closed pipe (EPIPE), which must not be thrown.
    for (const until = Date.now() + 100; Date.now() < until; );
    watchdog.release(true);
    await delay(300);
    expect(watchdogPids(runId)).toEqual([]);
  });
});
