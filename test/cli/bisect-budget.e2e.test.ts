// `ccrepro bisect --reuse` and `--max-runs` on real releases: a bisection over its own runs runs nothing, and a
// budget stop prints a range and a command that finishes the bisection without re-running what was measured.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { main } from "../../cli/main.ts";
import { findRunDirs } from "../../pipeline/run-match.ts";
import { E2E_RUNS_DIR } from "../e2e-run.ts";
// print-resume-cache-reuse: 2.1.90–2.1.92 RED, 2.1.94 GREEN (2.1.93 was never published); each run takes seconds.
const RANGE = ["print-resume-cache-reuse", "--old", "2.1.90", "--new", "2.1.94"];
const root = path.join(E2E_RUNS_DIR, "..", "bisect-budget", `${Date.now()}-${process.pid}`);

interface Step {
  version: string;
  runs: { outcome: string; runDir?: string; reused?: boolean }[];
}

// The command line in this process, its output captured. Not a child `node bin/ccrepro.mjs`: a print step's unused
// timeout timer in the harness (step-executor's within()) keeps a finished ccrepro process alive for up to 90 s,
// three times over here; in-process the test waits for the bisection, not for that timer. The claude runs are real.
// Each invocation's wall time goes to the log.
async function ccrepro(label: string, argv: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const capture = (into: string[]) => (chunk: string | Uint8Array) => (into.push(String(chunk)), true);
  const stdout = vi.spyOn(process.stdout, "write").mockImplementation(capture(out) as typeof process.stdout.write);
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation(capture(err) as typeof process.stderr.write);
  const started = performance.now();
  try {
    const exitCode = await main(argv);
    return { exitCode, stdout: out.join(""), stderr: err.join("") };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
    console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

const bisect = (label: string, ...args: string[]) => ccrepro(label, ["bisect", ...RANGE, ...args]);
const runDirs = (dir: string) => (fs.existsSync(dir) ? findRunDirs(dir) : []);

describe("ccrepro bisect on a budget", () => {
  it("--reuse spends no run on a release it has a verdict for; --max-runs 1 stops with a resume command that finishes", { timeout: 600_000 }, async () => {
    const a = path.join(root, "first");
    const first = await bisect("measured", "--runs-dir", a, "--json");
    expect(first.exitCode, first.stderr).toBe(0);
    const measured = JSON.parse(first.stdout);
    expect(measured.answer).toMatchObject({ lastOld: "2.1.92", firstNew: "2.1.94" });
    expect(first.stderr).toContain("expecting at most 4 runs (2 endpoints + ⌈log2(2+1)⌉ = 2 of 2 candidates");
    expect(measured.budget).toMatchObject({ runs: 4, reused: 0 });
    expect(runDirs(a)).toHaveLength(4);
    const dirOf = (version: string): string => measured.steps.find((s: Step) => s.version === version).runs[0].runDir;

    // Again over the same range, reusing the first bisection's runs directory (and writing into it).
    const second = await bisect("reused", "--runs-dir", a, "--reuse", a, "--json");
    expect(second.exitCode, second.stderr).toBe(0);
    const reused = JSON.parse(second.stdout);
    expect(reused.answer).toEqual(measured.answer);
    expect(reused.budget).toMatchObject({ runs: 0, reused: 4 });
    for (const step of reused.steps as Step[]) {
      expect(step.runs).toEqual([{ outcome: step.version === "2.1.94" ? "GREEN" : "RED", runDir: dirOf(step.version), ms: 0, reused: true }]);
      expect(second.stderr).toContain(`${step.version}${step.version === "2.1.90" ? " (old endpoint)" : step.version === "2.1.94" ? " (new endpoint)" : ""} → ${step.runs[0]!.outcome} (0.0 s, reused ${dirOf(step.version)})`);
    }
    expect(second.stderr).toContain("expecting at most 0 runs: --reuse settles 4 of 4 releases");
    expect(second.stderr).not.toContain("running ");
    expect(runDirs(a)).toHaveLength(4);

    // Only the endpoints known: one run (2.1.91, old) narrows the range, then the budget stops it (exit 5).
    const c = path.join(root, "budget");
    const stopped = await bisect("--max-runs 1", "--runs-dir", c, "--reuse", dirOf("2.1.90"), "--reuse", dirOf("2.1.94"), "--max-runs", "1");
    expect(stopped.exitCode, stopped.stderr).toBe(5);
    expect(stopped.stderr).toContain("expecting at most 2 runs: --reuse settles 2 of 4 releases");
    expect(stopped.stdout).toContain("bisect stopped: --max-runs 1 spent before the answer");
    expect(stopped.stdout).toContain("range still to search: 2.1.91 (last old) … 2.1.94 (first new so far)");
    expect(runDirs(c)).toHaveLength(1);
    const resume = stopped.stdout.trim().split("\n").at(-1)!.trim();
    expect(resume).toBe(
      `ccrepro bisect print-resume-cache-reuse --old 2.1.91 --new 2.1.94 --runs-dir ${c} --reuse ${dirOf("2.1.90")} --reuse ${dirOf("2.1.94")} --reuse ${c}`,
    );

    // The printed command, as a person would paste it: it runs only 2.1.92 and gives the same first new release.
    // The printed command word for word (nothing in it needs a shell's quoting here).
    expect(resume).not.toMatch(/['"\\]/);
    const resumed = await ccrepro("resumed", [...resume.split(" ").slice(1), "--json"]);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const finished = JSON.parse(resumed.stdout);
    expect(finished.answer).toEqual(measured.answer);
    expect(finished.budget).toMatchObject({ runs: 1, reused: 2 });
    expect(finished.steps.map((s: Step) => [s.version, s.runs.map((r) => r.reused ?? false)])).toEqual([
      ["2.1.91", [true]],
      ["2.1.94", [true]],
      ["2.1.92", [false]],
    ]);
    expect(runDirs(c)).toHaveLength(2);
  });
});
