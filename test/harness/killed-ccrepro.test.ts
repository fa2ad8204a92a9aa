// A killed ccrepro leaves nothing running (issue 27, item 4), with fixture programs (never claude): after a SIGKILL of
// the process that started a run, its watchdog ends the run's marked processes within seconds, with no help from the
// killed process; without a watchdog, `ccrepro doctor` (as the next run does) finds them by their dead owner and says so.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { execa, type ResultPromise } from "execa";
import { startFakeCcrepro } from "../fake-ccrepro.ts";
import { afterAll, describe, expect, it } from "vitest";
import { RUN_MARKER_VAR } from "../../harness/isolation.ts";
import { findMarkedProcesses, reapRun } from "../../harness/processes.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const usedRunIds: string[] = [];
afterAll(async () => {
  for (const id of usedRunIds) await reapRun({ name: RUN_MARKER_VAR, value: id }, []);
});

async function startFake(mode?: "no-watchdog", inNamespace = false): Promise<{ runId: string; fake: ResultPromise; pids: number[] }> {
  const runId = `test-killed-${crypto.randomBytes(6).toString("hex")}`;
  usedRunIds.push(runId);
  return { runId, ...(await startFakeCcrepro(runId, { watchdog: mode !== "no-watchdog", inNamespace })) };
}

async function goneWithin(runId: string, ms: number): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (findMarkedProcesses(RUN_MARKER_VAR, runId).length === 0) return Date.now() - started;
    await delay(100);
  }
  return null;
}

describe("a ccrepro killed with SIGKILL mid-run", { timeout: 60_000 }, () => {
  it("leaves nothing of the run running a few seconds later: the watchdog reaps it", async () => {
    const { runId, fake, pids } = await startFake();
    expect(findMarkedProcesses(RUN_MARKER_VAR, runId).sort()).toEqual(expect.arrayContaining(pids));
    // Give the watchdog time to be up, as it is long before a run's first claude starts.
    await delay(1_500);
    fake.kill("SIGKILL");
    await fake;
    const took = await goneWithin(runId, 8_000);
    expect(took, `still alive: ${findMarkedProcesses(RUN_MARKER_VAR, runId).join(", ")}`).not.toBeNull();
    expect(took).toBeLessThan(5_000);
  });

  it("without a watchdog, `ccrepro doctor` reaps what the dead run left, and says so", async () => {
    const { runId, fake, pids } = await startFake("no-watchdog");
    fake.kill("SIGKILL");
    await fake;
    await delay(500);
    expect(findMarkedProcesses(RUN_MARKER_VAR, runId).length).toBe(pids.length);
    const doctor = await execa("node", [path.join(ROOT, "bin", "ccrepro.mjs"), "doctor"], { reject: false, timeout: 30_000 });
    expect(doctor.exitCode, doctor.stderr).toBe(0);
    expect(doctor.stdout).toMatch(new RegExp(`reaped ${pids.length} process\\(es\\) \\(.*\\) left running by run ${runId}, whose ccrepro \\(pid ${fake.pid}\\) is gone`));
    expect(findMarkedProcesses(RUN_MARKER_VAR, runId)).toEqual([]);
  });

  it("a live run's processes are left alone", async () => {
    const { runId, fake } = await startFake("no-watchdog");
    try {
      const doctor = await execa("node", [path.join(ROOT, "bin", "ccrepro.mjs"), "doctor", "--json"], { reject: false, timeout: 30_000 });
      expect((JSON.parse(doctor.stdout) as { reaped: { runId: string }[] }).reaped.map((r) => r.runId)).not.toContain(runId);
      expect(findMarkedProcesses(RUN_MARKER_VAR, runId).length).toBeGreaterThan(0);
    } finally {
      fake.kill("SIGKILL");
      await fake;
    }
  });

  it("`doctor --dry-run` names what it would reap and ends nothing", async () => {
    const { runId, fake, pids } = await startFake("no-watchdog");
    fake.kill("SIGKILL");
    await fake;
    await delay(500);
    const dry = await execa("node", [path.join(ROOT, "bin", "ccrepro.mjs"), "doctor", "--dry-run"], { reject: false, timeout: 30_000 });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(new RegExp(`would reap ${pids.length} process\\(es\\) \\(.*\\) of run ${runId}: its ccrepro \\(pid ${fake.pid}\\) is gone`));
    expect(findMarkedProcesses(RUN_MARKER_VAR, runId).length).toBe(pids.length);
    await execa("node", [path.join(ROOT, "bin", "ccrepro.mjs"), "doctor"], { reject: false, timeout: 30_000 });
    expect(findMarkedProcesses(RUN_MARKER_VAR, runId)).toEqual([]);
  });
});

// Issue 41: a ccrepro in another pid namespace writes its own pid as that namespace counts it; from here that pid is
// another process or none. Its live run must not look orphaned.
const canUnshare = spawnSync("unshare", ["--pid", "--fork", "--mount-proc", "true"], { stdio: "ignore", timeout: 10_000 }).status === 0;
describe.skipIf(!canUnshare)("a live run in another pid namespace", { timeout: 60_000 }, () => {
  it("is left alone by `ccrepro doctor`, which says why", async () => {
    const { runId, fake, pids } = await startFake("no-watchdog", true);
    try {
      const dry = await execa("node", [path.join(ROOT, "bin", "ccrepro.mjs"), "doctor", "--dry-run", "--json"], { reject: false, timeout: 30_000 });
      const seen = JSON.parse(dry.stdout) as { wouldReap: { runId: string }[]; leftAlone: { runId: string; why: string }[] };
      expect(seen.wouldReap.map((r) => r.runId)).not.toContain(runId);
      expect(seen.leftAlone.find((r) => r.runId === runId)?.why).toMatch(/another pid namespace/);
      const doctor = await execa("node", [path.join(ROOT, "bin", "ccrepro.mjs"), "doctor", "--json"], { reject: false, timeout: 30_000 });
      expect((JSON.parse(doctor.stdout) as { reaped: { runId: string }[] }).reaped.map((r) => r.runId)).not.toContain(runId);
      expect(findMarkedProcesses(RUN_MARKER_VAR, runId).length).toBe(pids.length);
    } finally {
      fake.kill("SIGKILL");
      await fake;
    }
  });
});
