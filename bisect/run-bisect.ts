// Runs a bisection: verifies the endpoints, walks the bisector with the injected runner, prefetches ahead, reports.
import semver from "semver";
import { createBisection, middleOf, stepsFor, type Bisection } from "./bisector.ts";
import { checkChangelog } from "./changelog.ts";
import { BisectError } from "./errors.ts";
import { createDownloads, type PrefetchFn } from "./prefetch.ts";
import { resumeCommand, type ResumeArgs } from "./resume.ts";
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
  rerun?: Pick<ResumeArgs, "params" | "runsDir" | "options">;
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

  // Steps taken (the two endpoints count even before they ran) plus what the candidates need if nothing more is skipped.
  const estimatedTotal = (): number =>
    Math.max(steps.length, 2) + (bisection?.estimate() ?? stepsFor(opts.candidates.length));

  const interrupted = (reason: string, cause?: unknown): BisectError => {
    const known = bisection?.known() ?? { lastOld: opts.old, firstNew: opts.new, skipped: [] };
    const resume = resumeCommand({ ...opts.rerun, scenario: opts.scenario, old: known.lastOld, new: known.firstNew, repeat, finding: opts.finding });
    return new BisectError({ kind: "interrupted", reason, ...known, steps: [...steps], resume }, { cause });
  };

  const stopIfAborted = (): void => {
    if (signal.aborted) throw interrupted("interrupted");
  };

  const runOne = async (version: string): Promise<RunnerReport> => {
    stopIfAborted();
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

  // Runs `version` up to `repeat` times while the releases that may come next download.
  const evaluate = async (version: string, role: Role, ahead: (string | undefined)[]): Promise<Evaluation> => {
    emit({ kind: "start", index: steps.length + 1, estimatedTotal: estimatedTotal(), version, role });
    const downloadWaitMs = await downloads.ready(version);
    stopIfAborted();
    downloads.ahead(ahead);
    const started = now();
    const records: StepRun[] = [];
    const outcomes: BisectOutcome[] = [];
    let skip: RunSkipReason | undefined;
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
    emit({ kind: "step", index: steps.length, estimatedTotal: estimatedTotal(), version, role, outcome, ms });
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
