// `bisect --confidence P` over claude releases: the calibrating bisector (flaky-bisector.ts) with real runs. A run's
// signal is the finding (--finding ID) or a RED verdict; a run that says nothing about it (INCONCLUSIVE, ERROR,
// UNSUPPORTED, an install failure) counts as a run and not as evidence. Runs under --reuse that ask the same question
// (reuse-dirs.ts: scenario, parameters, driver, binary) are free runs; resuming a stopped bisection with its runs
// directory reused takes them again (oldest first, the order they were taken), so it starts none of them twice and
// retraces the steps they settled.
import { judgedVerdict, type CheckResult } from "../core/verdict.ts";
import { releaseRunner } from "../pipeline/run-scenario.ts";
import { versionsBetween } from "../releases/registry.ts";
import { flakyBisect, FlakyBisectError, type FlakyBisectResult, type FlakyStep } from "./flaky-bisector.ts";
import { resumeCommand, type ResumeArgs } from "./resume.ts";
import { findReusedVerdicts, releaseBinarySha, reuseNote, type ReuseQuery } from "./reuse-dirs.ts";
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
  // Directories searched (recursively) for run directories whose verdicts count as free runs.
  reuse: readonly string[];
  maxRuns?: number;
  // The command line a resume repeats (the scenario as typed, raw parameters, other options such as --driver).
  rerun: Pick<ResumeArgs, "scenario" | "params" | "options">;
  onStep: (step: FlakyStep) => void;
  // A line about what --reuse found, before the bisection starts.
  onNote: (line: string) => void;
  onRun: (version: string, seen: boolean | null, runDir: string | null) => void;
  signal: AbortSignal;
}

export interface RateBisectResult extends FlakyBisectResult {
  scenario: string;
  signal: string;
  // What the same bisection with a fixed --repeat 10 would start at least: 10 × (2 ends + ⌈log2(candidates + 1)⌉).
  fixedRepeat10Runs: number;
}

// What one run says about the signal: the finding (or RED) seen, not seen, or nothing (a verdict that judged nothing).
export function signalIn(result: Pick<CheckResult, "verdict" | "findings">, finding: string | undefined): boolean | null {
  const { verdict, findings } = result;
  // A run that judged nothing says nothing, even with the finding among its informational ones (issue 42).
  if (!judgedVerdict(verdict)) return null;
  if (finding !== undefined) return findings.some((f) => f.id === finding);
  return verdict === "RED";
}

// The free runs --reuse gives a rate bisection: what each matching run (plain reuse's matching, reuse-dirs.ts) said
// about the signal, by release, oldest first.
export async function reusedSignals(query: ReuseQuery, finding: string | undefined): Promise<{ signals: Map<string, (boolean | null)[]>; matched: number; note: string }> {
  const found = await findReusedVerdicts(query);
  const signals = new Map([...found.byVersion].map(([version, runs]) => [version, runs.map((run) => signalIn(run.result, finding))]));
  return { signals, matched: found.matched, note: reuseNote(found, query.dirs) };
}

export class RateBisectStop extends FlakyBisectError {
  // For a --max-runs stop: the command that carries on, reusing this bisection's runs.
  constructor(source: FlakyBisectError, readonly resume: string | undefined) {
    super(source.failure);
  }
}

export async function bisectClaudeRates(input: RateBisect): Promise<RateBisectResult> {
  const candidates = await versionsBetween(input.old, input.new);
  const versions = [input.old, ...candidates, input.new];
  const runner = releaseRunner(input.runsDir);
  const signal = input.finding === undefined ? "RED" : input.finding;
  let reused: Map<string, (boolean | null)[]> | undefined;
  if (input.reuse.length > 0) {
    const query = { dirs: input.reuse, scenario: input.scenario, params: input.params, drive: input.drive, versions, binarySha: releaseBinarySha(runner) };
    const found = await reusedSignals(query, input.finding);
    input.onNote(found.note);
    reused = found.signals;
  }
  try {
    const result = await flakyBisect({
      versions,
      confidence: input.confidence,
      maxRuns: input.maxRuns,
      reused,
      onStep: input.onStep,
      sample: async (version) => {
        if (input.signal.aborted) throw new Error("interrupted");
        const run = await runner.run({ scenario: input.scenario, params: input.params, ...input.drive }, version, input.signal);
        if (!run.installed) {
          input.onRun(version, null, null);
          return null;
        }
        const seen = signalIn(run.record.result, input.finding);
        input.onRun(version, seen, run.runDir);
        return seen;
      },
    });
    return { ...result, scenario: input.scenario.name, signal, fixedRepeat10Runs: 10 * (2 + Math.ceil(Math.log2(candidates.length + 1))) };
  } catch (error) {
    if (!(error instanceof FlakyBisectError)) throw error;
    const resume =
      error.failure.kind !== "budget-spent"
        ? undefined
        : resumeCommand({
            ...input.rerun,
            old: input.old,
            new: input.new,
            repeat: 1,
            finding: input.finding,
            runsDir: input.runsDir,
            reuse: input.reuse,
            options: [["--confidence", String(input.confidence)], ...(input.rerun.options ?? [])],
          });
    throw new RateBisectStop(error, resume);
  }
}

const pct = (t: { hits: number; of: number }) => `${t.hits}/${t.of}`;

export function formatRateStep(step: FlakyStep): string {
  const answer = step.answer === null ? "" : ` → ${step.answer}${step.answer === "SAME" ? " as the old end" : step.answer === "DIFFERENT" ? " from the old end" : " (skipped)"}`;
  const notes = [
    ...(step.tally.runs > step.tally.of ? [`${step.tally.runs - step.tally.of} said nothing`] : []),
    ...(step.tally.reused > 0 ? [`${step.tally.reused} reused`] : []),
  ];
  return `${step.role} ${step.version}: signal in ${pct(step.tally)} runs${notes.length > 0 ? ` (${notes.join(", ")})` : ""}${answer}`;
}

export function formatRateSummary(r: RateBisectResult): string {
  const what = r.kind === "appearance" ? "appears" : r.kind === "disappearance" ? "disappears" : "changes rate";
  return [
    `${r.scenario}: ${r.signal} ${what} (${r.kind}: ${pct(r.oldRate)} on the old end, ${pct(r.newRate)} on the new end)`,
    `last like the old end: ${r.lastOld}`,
    `first like the new end: ${r.firstNew}`,
    ...(r.unknownBetween.length > 0 ? [`left UNKNOWN between them: ${r.unknownBetween.join(", ")}`] : []),
    `confirmed: ${!r.confirmed ? "NO — a side measured again stayed UNKNOWN at the cap; treat the pair as a lead" : r.steps.some((s) => s.role === "confirm") ? "the sides inside the range measured again and held" : "the pair is the two ends, each calibrated"}`,
    `confidence: ${(r.confidence * 100).toFixed(1)}% (a bound over the tests and the calibration; the calibrated rates taken as true)`,
    `runs: ${r.runs} started, ${r.reused} reused (a fixed --repeat 10 bisection would start ${r.fixedRepeat10Runs})`,
  ].join("\n");
}
