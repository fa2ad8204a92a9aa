// `ccrepro bisect` on real releases lands on an adjacent pair whose run directories `ccrepro check` confirms.
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { E2E_RUNS_DIR } from "../e2e-run.ts";

const CLI = new URL("../../bin/ccrepro.mjs", import.meta.url).pathname;

describe("ccrepro bisect", () => {
  it("finds where 2.1.281's header flip was fixed, within the run bound", { timeout: 900_000 }, async () => {
    const bisect = await execa(
      "node",
      [CLI, "bisect", "subagent-resume-notification-header", "--old", "2.1.281", "--new", "2.1.286", "--runs-dir", E2E_RUNS_DIR, "--json"],
      { reject: false },
    );
    expect(bisect.exitCode, bisect.stderr).toBe(0);
    const result = JSON.parse(bisect.stdout);
    // Measured with ccrepro: 2.1.283 still flips the header, 2.1.284 keeps it.
    expect(result.answer).toMatchObject({ lastOld: "2.1.283", firstNew: "2.1.284" });
    // 4 candidates: at most ⌈log2(5)⌉ = 3 runs, plus skips, plus the two endpoints.
    expect(result.steps.length).toBeLessThanOrEqual(3 + result.skipped.length + 2);
    expect(bisect.stderr).toMatch(/step 1\/≈\d+: 2\.1\.281 \(old endpoint\) → RED/);

    const runDirOf = (version: string) => result.steps.find((s: { version: string }) => s.version === version).runs[0].runDir;
    const check = (runDir: string) => execa("node", [CLI, "check", runDir, "--json"], { reject: false });
    const [old, fixed] = await Promise.all([check(runDirOf(result.answer.lastOld)), check(runDirOf(result.answer.firstNew))]);
    expect(JSON.parse(old.stdout).verdict).toBe("RED");
    expect(JSON.parse(fixed.stdout).verdict).toBe("GREEN");
  });
});
