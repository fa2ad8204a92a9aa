// How many runs a bisection needs at most, known before it starts: the bisector's worst path, reused verdicts free.
import { createBisection, stepsFor } from "./bisector.ts";
import { settledResult, type Prior } from "./reuse.ts";
import type { BisectOutcome, RunPlan, RunSkipReason } from "./types.ts";

export interface PlanInput {
  old: string;
  new: string;
  candidates: readonly string[];
  repeat: number;
  // What --reuse already says about a release (absent: nothing).
  priorOf: (version: string) => Prior | undefined;
}

type Result = BisectOutcome | { skip: RunSkipReason };

// The bound assumes no release is skipped for a run that has yet to happen (a skip moves to a neighbour, which is
// what the bisection's own bound adds); skips that reused verdicts already decide are followed exactly. The walk
// replays the real bisector down each branch, so the plan cannot pick another middle than the bisection will.
export function planRuns(input: PlanInput): RunPlan {
  const { old, candidates, repeat } = input;
  const newer = input.new;
  const prior = (version: string): Prior => input.priorOf(version) ?? { records: [], outcomes: [], missing: repeat };
  const settled = (version: string): Result | undefined => settledResult(prior(version));
  const cost = (version: string): number => prior(version).missing;

  // An endpoint whose outcome is not known yet may turn out to be any outcome a reused candidate has, or another.
  const known = [...new Set(candidates.flatMap((v) => { const r = settled(v); return typeof r === "string" ? [r] : []; }))];
  const possible = (version: string, unseen: BisectOutcome): BisectOutcome[] | null => {
    const r = settled(version);
    if (r === undefined) return [...known, unseen];
    // A broken endpoint ends the bisection before any candidate runs.
    return typeof r === "string" ? [r] : null;
  };

  const worst = (endpoints: { old: BisectOutcome; new: BisectOutcome }, path: [string, Result][]): number => {
    const bisection = createBisection(candidates, { old: { version: old, outcome: endpoints.old }, new: { version: newer, outcome: endpoints.new } });
    for (const [version, result] of path) bisection.record(version, result);
    const next = bisection.next();
    if ("done" in next) return 0;
    const { version } = next;
    const decided = settled(version);
    if (decided !== undefined) return worst(endpoints, [...path, [version, decided]]);
    const either = (outcome: BisectOutcome) => worst(endpoints, [...path, [version, outcome]]);
    return cost(version) + Math.max(either(endpoints.old), either(endpoints.new));
  };

  const oldOutcomes = possible(old, "lacks:\u0000unseen old outcome");
  const newOutcomes = possible(newer, "lacks:\u0000unseen new outcome");
  let atMost = cost(old);
  if (oldOutcomes !== null) {
    atMost += cost(newer);
    let between = 0;
    // Endpoints that agree stop the bisection after them, so those pairs add nothing.
    for (const o of oldOutcomes) for (const n of newOutcomes ?? []) if (o !== n) between = Math.max(between, worst({ old: o, new: n }, []));
    atMost += between;
  }
  const range = [old, ...candidates, newer];
  return {
    atMost,
    withoutReuse: repeat * (2 + stepsFor(candidates.length)),
    candidates: candidates.length,
    repeat,
    reusedReleases: range.filter((v) => settled(v) !== undefined).length,
    reusedRuns: range.reduce((sum, v) => sum + prior(v).records.length, 0),
  };
}
