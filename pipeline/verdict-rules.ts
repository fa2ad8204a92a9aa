// The rules every caller applies to verdicts alike: what a harness failure is, and what repeats add up to.
import type { CheckResult, Verdict } from "../core/verdict.ts";

// A run the harness could not carry out (or a cell that never ran): ERROR, with no findings.
export function harnessErrorResult(reason: string): CheckResult {
  return { verdict: "ERROR", reason, findings: [], notes: [] };
}

// A release that lacks what the scenario needs: decided before any run, with the missing need named.
export function unsupportedResult(reason: string): CheckResult {
  return { verdict: "UNSUPPORTED", reason, findings: [], notes: [] };
}

export interface CombinedRepeats {
  verdict: Verdict;
  reason: string;
  // Repeats gave different verdicts (none of them ERROR).
  flaky: boolean;
}

// Any ERROR makes the whole ERROR; repeats that disagree are not a verdict, so they are INCONCLUSIVE, never one
// picked among them.
export function combineRepeats(results: readonly CheckResult[]): CombinedRepeats {
  const failed = results.find((r) => r.verdict === "ERROR");
  if (failed) return { verdict: "ERROR", reason: failed.reason, flaky: false };
  const verdicts = results.map((r) => r.verdict);
  const distinct = [...new Set(verdicts)];
  if (distinct.length === 1) return { verdict: distinct[0]!, reason: results[0]!.reason, flaky: false };
  if (distinct.length === 0) return { verdict: "ERROR", reason: "no run finished", flaky: false };
  return { verdict: "INCONCLUSIVE", reason: `repeats disagree: ${verdicts.join(", ")}`, flaky: true };
}
