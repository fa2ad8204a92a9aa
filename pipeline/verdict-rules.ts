// The rules every caller applies to verdicts alike: what a harness failure is, and what repeats add up to.
import type { CheckResult, Reached, RunEvidence, Verdict } from "../core/verdict.ts";
import { checkApiConformance, disputedApiNotes } from "../checker/api-conformance.ts";
import type { RequestEntry } from "../mock-api/log-entry.ts";
import type { RunRecord } from "../harness/run-record.ts";
import { rateLabel, repeatRates, type RepeatRates } from "./rates.ts";

// What a recorded run says about its own verdict: a step that timed out without leave (a wait, a cut `-p` turn, a UI
// that exited early) and the steps it left unrun; timeouts the scenario allowed, as notes; the API's rejections (and,
// as notes, what breaks only a disputed rule).
export function runEvidence(record: Pick<RunRecord, "steps" | "stepsSkipped">, requests: readonly RequestEntry[]): RunEvidence {
  const step = (s: RunRecord["steps"][number]) => `step ${s.index + 1} (${s.label})`;
  const cut = record.steps.find((s) => s.outcome === "timeout" && !s.mayTimeOut);
  const skipped = record.stepsSkipped.length > 0 ? `; ${record.stepsSkipped.length} step(s) never ran: ${record.stepsSkipped.join(", ")}` : "";
  const reached: Reached = cut
    ? { ok: false, reason: `${step(cut)} timed out: ${cut.detail ?? "no detail"}${skipped}` }
    : record.stepsSkipped.length > 0
      ? { ok: false, reason: `the run stopped short of its plan${skipped}` }
      : { ok: true };
  const allowed = record.steps.filter((s) => s.outcome === "timeout" && s.mayTimeOut).map((s) => `${step(s)} timed out, as the scenario allows: ${s.detail ?? "no detail"}`);
  return { reached, findings: checkApiConformance(requests), notes: [...allowed, ...disputedApiNotes(requests)] };
}

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
  // Per verdict and per finding, how many runs showed it, with Wilson intervals (pipeline/rates.ts).
  rates: RepeatRates;
  // "RED 8/10" for a flaky cell, the verdict for a stable one.
  label: string;
}

// Any ERROR makes the whole ERROR; repeats that disagree are not a verdict, so they are INCONCLUSIVE, never one
// picked among them. The cell's verdict vocabulary stays closed (a flaky cell is INCONCLUSIVE with flaky set); its
// label says the rate ("RED 8/10"), which is how reports show it.
export function combineRepeats(results: readonly CheckResult[]): CombinedRepeats {
  const rates = repeatRates(results);
  const failed = results.find((r) => r.verdict === "ERROR");
  if (failed) return { verdict: "ERROR", reason: failed.reason, flaky: false, rates, label: "ERROR" };
  const verdicts = results.map((r) => r.verdict);
  const distinct = [...new Set(verdicts)];
  if (distinct.length === 1) return { verdict: distinct[0]!, reason: results[0]!.reason, flaky: false, rates, label: distinct[0]! };
  if (distinct.length === 0) return { verdict: "ERROR", reason: "no run finished", flaky: false, rates, label: "ERROR" };
  const label = rateLabel(rates);
  return { verdict: "INCONCLUSIVE", reason: `repeats disagree: ${verdicts.join(", ")}`, flaky: true, rates, label };
}

// The line `run --repeat` and `bench` print over the repeats: every run's verdict in order, and what they add up to.
export function repeatsLine(results: readonly CheckResult[], combined: CombinedRepeats): string {
  return `repeats: ${results.map((r) => r.verdict).join(", ")} → ${combined.flaky ? `flaky, ${combined.label}` : combined.verdict}`;
}
