// `ccrepro bisect --confidence` on real releases, end to end over a small range: print-resume-cache-reuse 2.1.91
// (RED) → 2.1.97 (GREEN), with 2.1.92, 2.1.94 and 2.1.96 between. The calibration finds no signal at the new end in
// 4 runs and finds the known-bad end at the old one, each step answers SAME or DIFFERENT, and the pair is confirmed
// by measuring both sides again: 15 runs in 1 min 3 s, confidence 93.3 % (2026-12-02, the per-side count; 22 runs
// and 90.0 % before it), where a fixed --repeat 10 bisection would start 40.
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
    "calibrates, bisects 2.1.91 → 2.1.97 to the pair 2.1.92 | 2.1.94, confirms it, and prints the confidence and the runs spent",
    async () => {
      const { exitCode, stdout, stderr } = await ccrepro(["bisect", "print-resume-cache-reuse", "--old", "2.1.91", "--new", "2.1.97", "--confidence", "0.9", "--runs-dir", root]);
      expect(stderr).toContain("calibrate bad end 2.1.97: signal in 0/4 runs");
      expect(stderr).toContain("calibrate bad end 2.1.91: signal in 4/4 runs");
      expect(stderr).toMatch(/candidate 2\.1\.94: signal in 0\/\d+ runs → DIFFERENT from the old end/);
      expect(stderr).toMatch(/candidate 2\.1\.92: signal in (\d+)\/\1 runs → SAME as the old end/);
      expect(stdout).toContain("print-resume-cache-reuse: RED disappears");
      expect(stdout).toContain("last like the old end: 2.1.92\nfirst like the new end: 2.1.94\n");
      expect(stdout).toContain("confirmed: the sides inside the range measured again and held");
      // A frequent signal's disappearance: the calibration's p-value is taken from the 10 % first and each release's
      // two tests share the rest (docs/rates.md), so the printed confidence is at least the 90 % asked for.
      const confidence = Number(/confidence: ([\d.]+)%/.exec(stdout)?.[1]);
      expect(confidence).toBeGreaterThanOrEqual(90);
      expect(confidence).toBeLessThan(100);
      const [, spent, fixed] = /runs: (\d+) started, 0 reused \(a fixed --repeat 10 bisection would start (\d+)\)/.exec(stdout) ?? [];
      expect(Number(spent)).toBeLessThan(Number(fixed));
      expect(exitCode).toBe(0);
    },
    E2E_TIMEOUT_MS * 2,
  );
});
