// `ccrepro bench-seed` on a real release: the report-shaped harness (scripts/seed-shape/) and ccrepro reach the same
// verdict on the bug, and the bench prints its ratios. Timing goals are the bench's to print, not this test's to check.
import { execa } from "execa";
import { beforeAll, describe, expect, it } from "vitest";
import { installRelease } from "../../releases/release-cache.ts";
import { E2E_RUNS_DIR, E2E_TIMEOUT_MS } from "../e2e-run.ts";

const CLI = new URL("../../bin/ccrepro.mjs", import.meta.url).pathname;
// The header flips on 2.1.281 (RED), a verdict the harness can only give by seeing the flip.
const VERSION = "2.1.281";

describe("ccrepro bench-seed", { timeout: E2E_TIMEOUT_MS }, () => {
  beforeAll(() => installRelease(VERSION));

  it("runs the report's harness shape and ccrepro in turn on the same bug, with the same verdict, and prints both ratios", async () => {
    // A 12 s hold still outlasts the subagent's resume (it wakes some 10 s in).
    const result = await execa("node", [CLI, "bench-seed", "--claude", VERSION, "--pairs", "1", "--hold", "12", "--max-cpu-ratio", "100", "--runs-dir", E2E_RUNS_DIR], { reject: false });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^2\.1\.281 pair 1: seed [\d.]+ s wall, [\d.]+ s CPU, RED {2}\| {2}ccrepro [\d.]+ s wall, [\d.]+ s CPU, RED$/m);
    expect(result.stdout).toMatch(/^2\.1\.281: median wall ccrepro [\d.]+ s \/ seed [\d.]+ s = [\d.]+×; median CPU [\d.]+ s \/ [\d.]+ s = [\d.]+× \(goal ≤ 100\); same verdict in 1 of 1 pairs$/m);
  });
});
