// Verdicts as rates: N repeats of one cell become counts per verdict and per finding, each with a confidence interval,
// and one stated rule calls the cell stable or flaky.
//
// The interval is Wilson's score interval (Wilson 1927), not Clopper-Pearson's exact one: at the run counts ccrepro
// can afford (5–30) Clopper-Pearson is conservative (its coverage is above the nominal level, so its intervals are
// wider than the data warrant) and needs an inverse beta function; Wald's p ± z·√(p(1−p)/n) collapses to a point at 0
// or N of N, which is exactly the case a race hides in. Wilson's is closed-form, stays inside [0, 1], and is not empty
// at 0/N (10 GREEN of 10 still leaves the red rate's upper bound at 0.28 with 95 %).
//
// The stable/flaky rule is Chromium Findit's flake analyzer's (infra/appengine/findit, "flake analysis"): a pass rate
// below 0.02 or above 0.98 is stable, anything between is flaky. With fewer than 50 runs that means: stable only when
// every run agrees. Its error is the chance a flaky cell looks unanimous, (1 − q)^N for a minority outcome of true
// rate q: `stableByChance` computes it (q = 0.1, N = 10: 35 %; N = 20: 12 %; Findit's own q = 0.02, N = 100: 13 %).
// The rule never calls a unanimous cell flaky, so its other error is zero.
import type { CheckResult, Verdict } from "../core/verdict.ts";

// Findit's thresholds: an outcome seen in at least this share of runs (or at most 1 − it) is stable.
export const STABLE_SHARE = 0.98;

// z for a two-sided 95 % interval.
export const Z95 = 1.959963984540054;

export interface Interval {
  low: number;
  high: number;
}

// Wilson's score interval for k successes in n trials at normal quantile z; [0, 1] for n = 0 (nothing is known).
export function wilson(k: number, n: number, z: number = Z95): Interval {
  if (n === 0) return { low: 0, high: 1 };
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // Rounded so 0/N and N/N give exactly 0 and 1 at their closed ends.
  const clamp = (x: number) => Math.min(1, Math.max(0, Math.round(x * 1e12) / 1e12));
  return { low: k === 0 ? 0 : clamp(centre - half), high: k === n ? 1 : clamp(centre + half) };
}

// The chance that a cell whose minority outcome has true rate q shows N unanimous runs: the rule's false "stable".
/** @internal exported for its unit tests */
export function stableByChance(q: number, n: number): number {
  return (1 - q) ** n;
}

export interface Rate {
  // A verdict, a finding id, or a bisect outcome.
  what: string;
  count: number;
  of: number;
  interval: Interval;
}

function rate(what: string, count: number, of: number): Rate {
  return { what, count, of, interval: wilson(count, of) };
}

export type Stability = "stable" | "flaky" | "open";

// Findit's rule over outcome labels: stable when one outcome holds ≥ 0.98 of the runs, flaky otherwise. `planned`
// runs in all: "open" while the runs still to come could go either way, so a caller may stop early once it is not
// (as V8's flake bisect stops at its k-th failure): a flaky cell is settled at its first disagreement (for N < 50),
// a stable one only by its last run.
export function stabilityOf(outcomes: readonly string[], planned: number = outcomes.length): Stability {
  const n = outcomes.length;
  if (n === 0) return planned === 0 ? "flaky" : "open";
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(o, (counts.get(o) ?? 0) + 1);
  const top = Math.max(...counts.values());
  const total = Math.max(planned, n);
  const left = total - n;
  // Even if every remaining run joined the largest outcome, would it reach the stable share?
  const canBeStable = (top + left) / total >= STABLE_SHARE;
  // Or, if every remaining run went elsewhere, would it still hold it?
  const mustBeStable = top / total >= STABLE_SHARE;
  if (mustBeStable) return "stable";
  if (!canBeStable) return "flaky";
  return left === 0 ? "flaky" : "open";
}

export interface RepeatRates {
  runs: number;
  stability: Exclude<Stability, "open">;
  // Per verdict seen, most frequent first.
  verdicts: Rate[];
  // Per finding id seen in any run (red or not), most frequent first.
  findings: Rate[];
  // The verdict a flaky cell is reported with: its most frequent decisive one (RED before GREEN on a tie).
  leading: Verdict;
}

const byCount = (a: Rate, b: Rate) => b.count - a.count || a.what.localeCompare(b.what);

// The rates of N repeats. ERROR runs count as runs (the verdict rule still makes any ERROR the cell's verdict).
export function repeatRates(results: readonly Pick<CheckResult, "verdict" | "findings">[]): RepeatRates {
  const n = results.length;
  const tally = (labels: string[]) => {
    const counts = new Map<string, number>();
    for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
    return [...counts.entries()].map(([what, count]) => rate(what, count, n)).sort(byCount);
  };
  const verdicts = tally(results.map((r) => r.verdict));
  const findings = tally(results.flatMap((r) => [...new Set(r.findings.map((f) => f.id))]));
  const count = (v: Verdict) => verdicts.find((r) => r.what === v)?.count ?? 0;
  const decisive = (["RED", "GREEN"] as const).filter((v) => count(v) > 0).sort((a, b) => count(b) - count(a));
  const leading = (decisive[0] ?? verdicts[0]?.what ?? "ERROR") as Verdict;
  return { runs: n, stability: stabilityOf(results.map((r) => r.verdict)) === "stable" ? "stable" : "flaky", verdicts, findings, leading };
}

// "RED 8/10", the way a flaky cell is shown; a stable one is its verdict alone.
export function rateLabel(rates: Pick<RepeatRates, "stability" | "verdicts" | "leading" | "runs">): string {
  const lead = rates.verdicts.find((r) => r.what === rates.leading);
  if (rates.stability === "stable" || rates.runs <= 1) return rates.leading;
  return `${rates.leading} ${lead?.count ?? 0}/${rates.runs}`;
}

function percent(x: number): string {
  return `${Math.round(x * 100)}%`;
}

// One line per verdict and per finding: "RED 8/10 (95% CI 49%–94%)".
export function formatRates(rates: RepeatRates): string[] {
  const line = (r: Rate) => `${r.what} ${r.count}/${r.of} (95% CI ${percent(r.interval.low)}–${percent(r.interval.high)})`;
  const head = `${rates.runs} runs, ${rates.stability}${rates.stability === "flaky" ? ` (outcomes disagree: reported as ${rateLabel(rates)})` : ""}`;
  return [head, ...rates.verdicts.map((r) => `  verdict ${line(r)}`), ...rates.findings.map((r) => `  finding ${line(r)}`)];
}
