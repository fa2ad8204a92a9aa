// Runs a bisection: verifies the endpoints, walks the bisector with the injected runner, prefetches ahead, reports.
// Verdicts measured earlier (--reuse) are taken instead of runs, and a run budget (--max-runs) stops it resumably.
import semver from "semver";
import { createBisection, middleOf, stepsFor, type Bisection } from "./bisector.ts";
import { checkChangelog } from "./changelog.ts";
import { BisectError } from "./errors.ts";
import { createDownloads, type PrefetchFn } from "./prefetch.ts";
import { planRuns } from "./plan.ts";
import { resumeCommand, type ResumeArgs } from "./resume.ts";
import { priorFrom, type Prior } from "./reuse.ts";
import type {
  BisectResult,
  CleanRun,
  Endpoint,
  Judged,
  BisectOutcome,
  ProgressEvent,
  Role,
  RunnerReport,
  StepRun,
  RunSkipReason,
  BisectStep,
  ReusedRun,
} from "./types.ts";

export interface RunBisectOptions {
  scenario: string;
  old: string;
  new: string;
  // Published releases strictly between old and new, oldest first.
  candidates: readonly string[];
  // Runs per release; repeats that disagree make the release flaky (skipped, or an error at an endpoint).
  repeat?: number;
  // Only named in the result and the resume command; outcomeOf decides what a run means.
  finding?: string;
  // The rest of the command line the resume command must repeat: parameters, runs directory, other options.
  rerun?: Pick<ResumeArgs, "params" | "runsDir" | "options" | "reuse">;
  // Verdicts already measured, by release: they count as that release's first runs and cost nothing.
  reused?: ReadonlyMap<string, readonly ReusedRun[]>;
  // Runs the bisection may start (reused verdicts are free); when the next run would exceed it, the bisection stops
  // with a BisectError "budget-spent" carrying the narrowed range and the command that resumes it.
  maxRuns?: number;
  outcomeOf: (run: CleanRun) => BisectOutcome;
  runOnce: (version: string, signal: AbortSignal) => Promise<RunnerReport>;
  prefetch?: PrefetchFn;
  // Reads anthropics/claude-code's CHANGELOG.md; a rejection is reported as "not reachable from here".
  fetchChangelog?: () => Promise<string>;
  onProgress?: (event: ProgressEvent) => void;
  now?: () => number;
  // Ctrl-C: the bisection stops before or right after the current run and throws with the resume command.
  signal?: AbortSignal;
}

interface Evaluation {
  runs: StepRun[];
  result: BisectOutcome | { skip: RunSkipReason };
  ms: number;
  downloadWaitMs: number;
}

function validate(opts: RunBisectOptions): number {
  const bad = (message: string) => new BisectError({ kind: "bad-input", message });
  if (semver.valid(opts.old) === null) throw bad(`--old ${opts.old} is not a release version`);
  if (semver.valid(opts.new) === null) throw bad(`--new ${opts.new} is not a release version`);
  if (!semver.lt(opts.old, opts.new)) throw bad(`--old ${opts.old} must be an older release than --new ${opts.new}`);
  const repeat = opts.repeat ?? 1;
  if (!Number.isInteger(repeat) || repeat < 1) throw bad(`--repeat must be a whole number ≥ 1, not ${repeat}`);
  if (opts.maxRuns !== undefined && (!Number.isInteger(opts.maxRuns) || opts.maxRuns < 0)) {
    throw bad(`--max-runs must be a whole number ≥ 0, not ${opts.maxRuns}`);
  }
  let previous = opts.old;
  for (const version of [...opts.candidates, opts.new]) {
    // The release list comes from our own code, so a disorder here is a bug, not a user error.
    if (semver.valid(version) === null || !semver.lt(previous, version)) {
      throw new Error(`candidates must be ascending releases strictly between ${opts.old} and ${opts.new}; got ${version} after ${previous}`);
    }
    previous = version;
  }
  return repeat;
}

export async function runBisect(opts: RunBisectOptions): Promise<BisectResult> {
  const repeat = validate(opts);
  const now = opts.now ?? (() => performance.now());
  const emit = opts.onProgress ?? (() => {});
  const signal = opts.signal ?? new AbortController().signal;
  const downloads = createDownloads(opts.prefetch, now, emit);
  const steps: BisectStep[] = [];
  let runs = 0;
  let bisection: Bisection | undefined;
  const priors = new Map<string, Prior>();
  for (const version of [opts.old, ...opts.candidates, opts.new]) {
    priors.set(version, priorFrom(opts.reused?.get(version) ?? [], opts.outcomeOf, repeat));
  }
  const priorOf = (version: string): Prior => priors.get(version)!;
  // A release reused verdicts settle is never downloaded: nothing will run it.
  const toRun = (versions: (string | undefined)[]): (string | undefined)[] =>
    versions.filter((v) => v === undefined || priorOf(v).missing > 0);

  // Steps taken (the two endpoints count even before they ran) plus what the candidates need if nothing more is skipped.
  const estimatedTotal = (): number =>
    Math.max(steps.length, 2) + (bisection?.estimate() ?? stepsFor(opts.candidates.length));

  // What was learned so far and the command that carries on from there (reusing this bisection's runs).
  const resumable = () => {
    const known = bisection?.known() ?? { lastOld: opts.old, firstNew: opts.new, skipped: [] };
    const resume = resumeCommand({ ...opts.rerun, scenario: opts.scenario, old: known.lastOld, new: known.firstNew, repeat, finding: opts.finding });
    return { ...known, steps: [...steps], resume };
  };

  const interrupted = (reason: string, cause?: unknown): BisectError =>
    new BisectError({ kind: "interrupted", reason, ...resumable() }, { cause });

  const stopIfAborted = (): void => {
    if (signal.aborted) throw interrupted("interrupted");
  };

  // Checked before a run, never after one: a bisection that needs exactly the budget finishes.
  const stopIfBudgetSpent = (): void => {
    if (opts.maxRuns !== undefined && runs >= opts.maxRuns) throw new BisectError({ kind: "budget-spent", maxRuns: opts.maxRuns, ...resumable() });
  };

  const runOne = async (version: string): Promise<RunnerReport> => {
    stopIfAborted();
    stopIfBudgetSpent();
    runs++;
    let run: RunnerReport;
    try {
      run = await opts.runOnce(version, signal);
    } catch (error) {
      if (signal.aborted) throw interrupted("interrupted", error);
      const why = error instanceof Error ? error.message : String(error);
      throw interrupted(`the runner failed on ${version}: ${why}`, error);
    }
    // A run cut short by Ctrl-C says nothing about the release, whatever it returned.
    stopIfAborted();
    return run;
  };

  // Takes what reused verdicts say about `version`, then runs it until `repeat` runs agree, while the releases that
  // may come next download.
  const evaluate = async (version: string, role: Role, ahead: (string | undefined)[]): Promise<Evaluation> => {
    const prior = priorOf(version);
    const settled = prior.missing === 0;
    // Before the step is announced or its release fetched: the stop names no release it did not run.
    if (!settled) stopIfBudgetSpent();
    emit({ kind: "start", index: steps.length + 1, estimatedTotal: estimatedTotal(), version, role, reused: settled });
    const downloadWaitMs = settled ? 0 : await downloads.ready(version);
    stopIfAborted();
    downloads.ahead(toRun(ahead));
    const started = now();
    const records: StepRun[] = [...prior.records];
    const outcomes: BisectOutcome[] = [...prior.outcomes];
    let skip: RunSkipReason | undefined = prior.skip;
    while (skip === undefined && records.length < repeat) {
      const run = await runOne(version);
      if ("error" in run) {
        records.push({ outcome: "error", runDir: run.runDir, ms: run.ms });
        skip = { kind: run.error, message: run.message };
      } else if (run.verdict === "ERROR") {
        records.push({ outcome: "error", runDir: run.runDir, ms: run.ms });
        skip = { kind: "harness", message: `the run ended in ERROR (see ${run.runDir})` };
      } else if (run.verdict === "UNSUPPORTED") {
        records.push({ outcome: "unsupported", runDir: run.runDir, ms: run.ms });
        skip = { kind: "unsupported", message: run.reason ?? `see ${run.runDir}` };
      } else {
        const outcome = opts.outcomeOf({ ...run, verdict: run.verdict });
        records.push({ outcome, runDir: run.runDir, ms: run.ms });
        // A run that did not reach its point judged nothing: never a side, an end included (issue 42, item 2).
        if (outcome === "INCONCLUSIVE") {
          skip = { kind: "unjudged", message: `${run.reason ?? "the run did not reach its point"} (see ${run.runDir})` };
          continue;
        }
        outcomes.push(outcome);
        // The first disagreement settles it: more repeats cannot make a flaky release trustworthy.
        if (outcome !== outcomes[0]) skip = { kind: "flaky", outcomes };
      }
    }
    const result = skip === undefined ? outcomes[0]! : { skip };
    return { runs: records, result, ms: now() - started, downloadWaitMs };
  };

  const recordStep = (version: string, role: Role, evaluation: Evaluation, judged: Judged): void => {
    const { runs: records, ms, downloadWaitMs } = evaluation;
    steps.push({ index: steps.length + 1, version, role, runs: records, judged, ms, downloadWaitMs });
    const outcome = "class" in judged ? judged.outcome : "skip";
    const reusedFrom = records.flatMap((run) => (run.reused && run.runDir !== undefined ? [run.runDir] : []));
    const measured = records.filter((run) => !run.reused).length;
    emit({ kind: "step", index: steps.length, estimatedTotal: estimatedTotal(), version, role, outcome, ms, reusedFrom, measured });
    if ("skip" in judged) emit({ kind: "skip", version, reason: judged.skip });
  };

  const verifyEndpoint = async (which: "old" | "new", ahead: (string | undefined)[]): Promise<Endpoint> => {
    const version = opts[which];
    const evaluation = await evaluate(version, `${which} endpoint`, ahead);
    const { result } = evaluation;
    if (typeof result !== "string") {
      throw new BisectError({ kind: "endpoint-broken", endpoint: which, version, reason: result.skip });
    }
    recordStep(version, `${which} endpoint`, evaluation, { class: which, outcome: result });
    return { version, outcome: result };
  };

  // Ctrl-C during a download wait must not sit out the download.
  signal.addEventListener("abort", downloads.cancelAll);
  try {
    emit({ kind: "plan", ...planRuns({ old: opts.old, new: opts.new, candidates: opts.candidates, repeat, priorOf }) });
    const firstMiddle = middleOf(opts.candidates);
    const oldEnd = await verifyEndpoint("old", [opts.new, firstMiddle]);
    const newEnd = await verifyEndpoint("new", [firstMiddle]);
    if (oldEnd.outcome === newEnd.outcome) throw new BisectError({ kind: "same-outcome", old: oldEnd, new: newEnd });
    bisection = createBisection(opts.candidates, { old: oldEnd, new: newEnd });

    let next = bisection.next();
    while ("version" in next) {
      const { version } = next;
      const { ifOld, ifNew } = bisection.lookahead(version);
      const evaluation = await evaluate(version, "candidate", [ifOld, ifNew]);
      recordStep(version, "candidate", evaluation, bisection.record(version, evaluation.result));
      next = bisection.next();
    }
    const answer = next.done;
    const { skipped } = bisection.known();
    const changelog = await checkChangelog([...answer.skippedBetween, answer.firstNew], opts.fetchChangelog);
    return {
      scenario: opts.scenario,
      finding: opts.finding,
      repeat,
      old: oldEnd,
      new: newEnd,
      answer,
      steps,
      skipped,
      budget: {
        candidates: opts.candidates.length,
        steps: steps.length,
        bound: stepsFor(opts.candidates.length) + skipped.length + 2,
        runs,
        reused: steps.reduce((sum, step) => sum + step.runs.filter((run) => run.reused).length, 0),
      },
      download: downloads.stats(),
      changelog,
    };
  } finally {
    // Nothing downloads on behalf of a bisection that has ended, however it ended.
    signal.removeEventListener("abort", downloads.cancelAll);
    downloads.cancelAll();
  }
}
