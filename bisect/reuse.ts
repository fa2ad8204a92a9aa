// What verdicts measured earlier (--reuse) already say about a release, by the same repeat rule as fresh runs.
import { combineRepeats } from "../pipeline/verdict-rules.ts";
import type { BisectOutcome, CleanRun, ReusedRun, RunSkipReason, StepRun } from "./types.ts";

export interface Prior {
  // One record per reused run, oldest first.
  records: StepRun[];
  // The outcomes of the clean ones among them.
  outcomes: BisectOutcome[];
  // Set when the reused runs already make the release a skip (they disagree, or it is UNSUPPORTED).
  skip?: RunSkipReason;
  // Runs still to measure to reach --repeat; 0 means the release is settled without running it.
  missing: number;
}

// Every matching run counts, even beyond --repeat: dropping some would hide a disagreement they record. They are
// combined by combineRepeats, the one repeat rule (any disagreement is not a verdict); with --finding, runs that
// agree on the verdict but not on the finding disagree too, as fresh repeats would.
export function priorFrom(runs: readonly ReusedRun[], outcomeOf: (run: CleanRun) => BisectOutcome, repeat: number): Prior {
  if (runs.length === 0) return { records: [], outcomes: [], missing: repeat };
  const records: StepRun[] = [];
  const outcomes: BisectOutcome[] = [];
  for (const { runDir, result } of runs) {
    const { verdict } = result;
    if (verdict === "ERROR" || verdict === "UNSUPPORTED") {
      records.push({ outcome: verdict === "ERROR" ? "error" : "unsupported", runDir, ms: 0, reused: true });
      continue;
    }
    const outcome = outcomeOf({ verdict, reason: result.reason, findings: result.findings.map((f) => f.id), runDir, ms: 0 });
    records.push({ outcome, runDir, ms: 0, reused: true });
    outcomes.push(outcome);
  }
  const combined = combineRepeats(runs.map((run) => run.result));
  // An ERROR is never reused (the matcher leaves it out), so a harness skip here is a caller's mistake said plainly.
  if (combined.verdict === "ERROR") return { records, outcomes, skip: { kind: "harness", message: combined.reason }, missing: 0 };
  // A reused run that did not reach its point judged nothing, as a measured one (run-bisect.ts): unjudged before flaky.
  const unjudged = runs.find((_, i) => records[i]?.outcome === "INCONCLUSIVE");
  if (unjudged) return { records, outcomes, skip: { kind: "unjudged", message: `${unjudged.result.reason} (see ${unjudged.runDir})` }, missing: 0 };
  if (combined.flaky || new Set(outcomes).size > 1) return { records, outcomes, skip: { kind: "flaky", outcomes }, missing: 0 };
  if (combined.verdict === "UNSUPPORTED") return { records, outcomes, skip: { kind: "unsupported", message: combined.reason }, missing: 0 };
  return { records, outcomes, missing: Math.max(0, repeat - runs.length) };
}

// What a settled prior decides, for the bisector; undefined while runs are still missing.
export function settledResult(prior: Prior): BisectOutcome | { skip: RunSkipReason } | undefined {
  if (prior.skip !== undefined) return { skip: prior.skip };
  return prior.missing === 0 ? prior.outcomes[0] : undefined;
}
