// A disk that fills (issue 27, item 5), on a real release (2.1.332, cached): the runs directory is a small tmpfs this
// test mounts (root only; skipped elsewhere). Mid-run, the run is an ERROR (exit 3) naming what filled and where,
// its processes are reaped and run.json stays marked incomplete; a disk full before the run is a one-line UserError.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ccreproCli, E2E_TIMEOUT_MS } from "../e2e-run.ts";
import { UserError } from "../../core/errors.ts";
import { VERDICT_EXIT } from "../../core/exit-codes.ts";
import { RUN_MARKER_VAR } from "../../harness/isolation.ts";
import { findMarkedProcesses } from "../../harness/processes.ts";
import { runAndCheck } from "../../pipeline/run-scenario.ts";
import { loadScenario } from "../../pipeline/scenario-source.ts";
import { resolveClaude } from "../../releases/resolve.ts";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-full-disk-"));
const disk = path.join(folder, "disk");
fs.mkdirSync(disk);
const mounted = process.getuid?.() === 0 && spawnSync("mount", ["-t", "tmpfs", "-o", "size=400k", "tmpfs", disk]).status === 0;
// Smaller: full by the time the mock logs the first request's body, so the write that fails is the mock's.
const smallDisk = path.join(folder, "small-disk");
fs.mkdirSync(smallDisk);
const smallMounted = mounted && spawnSync("mount", ["-t", "tmpfs", "-o", "size=150k", "tmpfs", smallDisk]).status === 0;
afterAll(() => {
  if (mounted) execFileSync("umount", [disk]);
  if (smallMounted) execFileSync("umount", [smallDisk]);
  fs.rmSync(folder, { recursive: true, force: true });
});

// One `claude -p` turn: its debug log, config and transcripts are more than 400 KiB.
const SCENARIO = `import { conversation, defineScenario, print, session, text } from "ccrepro";
import { reached } from "ccrepro/checkers";
const s1 = session("s1");
export default defineScenario({
  name: "full-disk",
  summary: "one print turn, recorded onto a disk too small for it",
  source: "issue 27",
  findings: [],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: "FULL_DISK", replies: [text("hi")], then: text("hi") } }),
  steps: () => [print(s1, "FULL_DISK say hi")],
  check: () => ({ reached: reached(), findings: [], notes: [] }),
});
`;
fs.writeFileSync(path.join(folder, "full-disk.ts"), SCENARIO);

describe.skipIf(!mounted)("a full disk", () => {
  it("mid-run is an ERROR naming what filled, with the processes reaped and run.json incomplete", async () => {
    const scenario = await loadScenario(path.join(folder, "full-disk.ts"));
    const claude = await resolveClaude("2.1.332");
    const run = await runAndCheck({ scenario, params: {}, claude, requested: "2.1.332", runsDir: path.join(disk, "runs") });
    expect(run.record.result.verdict).toBe("ERROR");
    expect(VERDICT_EXIT.ERROR).toBe(3);
    expect(run.record.result.reason).toMatch(/^could not record the run: the disk is full \(ENOSPC\) writing .*; the file system of .* has \d+ KiB of 400 KiB free/);
    expect(findMarkedProcesses(RUN_MARKER_VAR, run.record.id)).toEqual([]);
    const onDisk = JSON.parse(fs.readFileSync(path.join(run.runDir, "run.json"), "utf8")) as { recordingComplete: boolean };
    expect(onDisk.recordingComplete).toBe(false);
  }, E2E_TIMEOUT_MS);

  it("before the run is a message, not a stack", async () => {
    // The first test left the disk full.
    const scenario = await loadScenario(path.join(folder, "full-disk.ts"));
    const claude = await resolveClaude("2.1.332");
    const run = runAndCheck({ scenario, params: {}, claude, requested: "2.1.332", runsDir: path.join(disk, "more-runs") });
    await expect(run).rejects.toThrow(UserError);
    await expect(run).rejects.toThrow(/could not record the run: the disk is full \(ENOSPC\)/);
  }, E2E_TIMEOUT_MS);
});

// Issue 41, item 6: the mock's failed write of a request body was a stack trace per request on stderr, and the run
// waited for its print step's limit (120 s) while claude retried the 500s.
describe.skipIf(!smallMounted)("a disk that fills while the mock logs a request", () => {
  it("ends the run at once as that ERROR, with one line of output per fact and no stack", async () => {
    const started = Date.now();
    const run = await ccreproCli(["run", "./full-disk.ts", "--claude", "2.1.332", "--runs-dir", path.join(smallDisk, "runs")], folder);
    expect(run.exitCode, run.stdout + run.stderr).toBe(3);
    expect(run.stdout).toMatch(/^ERROR: could not record the run: the disk is full \(ENOSPC\)/);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stderr).not.toMatch(/errno|syscall/);
    expect(run.stderr.trim().split("\n").length).toBeLessThanOrEqual(3);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, E2E_TIMEOUT_MS);
});
