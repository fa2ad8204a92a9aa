// `bisect --confidence P` over claude releases: the calibrating bisector (flaky-bisector.ts) with real runs. A run's
// signal is the finding (--finding ID) or a RED verdict; a run that says nothing about it (INCONCLUSIVE, ERROR,
// UNSUPPORTED, an install failure) counts as a run and not as evidence.
import { releaseRunner } from "../pipeline/run-scenario.ts";
import { versionsBetween } from "../releases/registry.ts";
import { flakyBisect, type FlakyBisectResult, type FlakyStep } from "./flaky-bisector.ts";
import type { Driver, Scenario } from "../kit/scenario.ts";

export interface RateBisect {
  scenario: Scenario;
  params: Record<string, unknown>;
  drive: { driver?: Driver; sdk?: string };
  // Resolved release versions.
  old: string;
  new: string;
  finding?: string;
  confidence: number;
  runsDir: string;
  maxRuns?: number;
  onStep: (step: FlakyStep) => void;
  onRun: (version: string, seen: boolean | null, runDir: string | null) => void;
  signal: AbortSignal;
}

export interface RateBisectResult extends FlakyBisectResult {
  scenario: string;
  signal: string;
  // What the same bisection with a fixed --repeat 10 would start at least: 10 × (2 ends + ⌈log2(candidates + 1)⌉).
  fixedRepeat10Runs: number;
}

export async function bisectClaudeRates(input: RateBisect): Promise<RateBisectResult> {
  const candidates = await versionsBetween(input.old, input.new);
  const versions = [input.old, ...candidates, input.new];
  const runner = releaseRunner(input.runsDir);
  const signal = input.finding === undefined ? "RED" : input.finding;
  const result = await flakyBisect({
    versions,
    confidence: input.confidence,
    maxRuns: input.maxRuns,
    onStep: input.onStep,
    sample: async (version) => {
      if (input.signal.aborted) throw new Error("interrupted");
      const run = await runner.run({ scenario: input.scenario, params: input.params, ...input.drive }, version, input.signal);
      if (!run.installed) {
        input.onRun(version, null, null);
        return null;
      }
      const { verdict, findings } = run.record.result;
      let seen: boolean | null;
      if (input.finding !== undefined) seen = findings.some((f) => f.id === input.finding) ? true : verdict === "GREEN" || verdict === "RED" ? false : null;
      else seen = verdict === "RED" ? true : verdict === "GREEN" ? false : null;
      input.onRun(version, seen, run.runDir);
      return seen;
    },
  });
  return { ...result, scenario: input.scenario.name, signal, fixedRepeat10Runs: 10 * (2 + Math.ceil(Math.log2(candidates.length + 1))) };
}

const pct = (t: { hits: number; of: number }) => `${t.hits}/${t.of}`;

export function formatRateStep(step: FlakyStep): string {
  const answer = step.answer === null ? "" : ` → ${step.answer}${step.answer === "SAME" ? " as the old end" : step.answer === "DIFFERENT" ? " from the old end" : " (skipped)"}`;
  return `${step.role} ${step.version}: signal in ${pct(step.tally)} runs${step.tally.runs > step.tally.of ? ` (${step.tally.runs - step.tally.of} said nothing)` : ""}${answer}`;
}

export function formatRateSummary(r: RateBisectResult): string {
  const what = r.kind === "appearance" ? "appears" : r.kind === "disappearance" ? "disappears" : "changes rate";
  return [
    `${r.scenario}: ${r.signal} ${what} (${r.kind}: ${pct(r.oldRate)} on the old end, ${pct(r.newRate)} on the new end)`,
    `last like the old end: ${r.lastOld}`,
    `first like the new end: ${r.firstNew}`,
    ...(r.unknownBetween.length > 0 ? [`left UNKNOWN between them: ${r.unknownBetween.join(", ")}`] : []),
    `confirmed: ${!r.confirmed ? "NO — a side measured again disagreed; treat the pair as a lead" : r.steps.some((s) => s.role === "confirm") ? "the sides inside the range measured again and held" : "the pair is the two ends, each calibrated"}`,
    `confidence: ${(r.confidence * 100).toFixed(1)}% (union bound over the decisions and the calibration; the calibrated rates taken as true)`,
    `runs: ${r.runs} (a fixed --repeat 10 bisection would start ${r.fixedRepeat10Runs})`,
  ].join("\n");
}
