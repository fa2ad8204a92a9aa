// `ccrepro bisect --confidence` on real releases: the calibration finds the known-bad end by itself. On
// print-resume-cache-reuse 2.1.92 (RED) → 2.1.94 (GREEN), the new end shows no signal in its first 4 runs, so the old
// end is calibrated next and shows it at once. --max-runs 5 keeps the test to five real runs (~15 s each on 2 busy
// cores); the whole bisection (14 runs) is measured in docs/rates.md.
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { main } from "../../cli/main.ts";
import { E2E_RUNS_DIR, E2E_TIMEOUT_MS } from "../e2e-run.ts";

const root = path.join(E2E_RUNS_DIR, "..", "bisect-rates", `${Date.now()}-${process.pid}`);

async function ccrepro(argv: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const capture = (into: string[]) => (chunk: string | Uint8Array) => (into.push(String(chunk)), true);
  const stdout = vi.spyOn(process.stdout, "write").mockImplementation(capture(out) as typeof process.stdout.write);
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation(capture(err) as typeof process.stderr.write);
  try {
    return { exitCode: await main(argv), stdout: out.join(""), stderr: err.join("") };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

describe("bisect --confidence on real releases", () => {
  it(
    "calibrates the new end, finds no signal in 4 runs, and finds the bad end at the old one",
    async () => {
      const { exitCode, stdout, stderr } = await ccrepro([
        "bisect", "print-resume-cache-reuse", "--old", "2.1.92", "--new", "2.1.94", "--confidence", "0.9", "--max-runs", "5", "--runs-dir", root,
      ]);
      expect(stderr).toContain("calibrate bad end 2.1.94: signal in 0/4 runs");
      expect(stderr).toMatch(/ {2}2\.1\.92: signal \(/);
      expect(stdout).toContain("--max-runs 5 spent (after 5 runs started, 0 reused)");
      // The budget stop's own code, as for a plain bisection.
      expect(exitCode).toBe(5);
    },
    E2E_TIMEOUT_MS,
  );
});
