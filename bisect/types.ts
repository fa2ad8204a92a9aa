// The closed vocabulary of a bisection: outcomes, run results, skips, steps, progress events and the result.
import type { CheckResult, Verdict } from "../core/verdict.ts";

// What one run says about a release: its verdict, or (with --finding ID) whether that finding was seen.
// ERROR is never an outcome: a broken run says nothing about the release, so it becomes a skip; UNSUPPORTED (the
// release lacks what the scenario needs) likewise.
export type BisectOutcome = Exclude<Verdict, "ERROR" | "UNSUPPORTED"> | `has:${string}` | `lacks:${string}`;

// Which side of the change a release is on; the endpoints' outcomes define the two classes.
export type Class = "old" | "new";

// A finished run of one release, as the injected runner reports it.
export interface RunSuccess {
  verdict: Verdict;
  // The verdict's one-line reason (an UNSUPPORTED skip quotes it).
  reason?: string;
  // Ids of every finding the checker reported.
  findings: string[];
  runDir: string;
  ms: number;
}

// The runner never throws for a broken release: it says why the run could not happen.
export interface RunFailure {
  error: "install" | "harness";
  message: string;
  runDir?: string;
  ms?: number;
}

export type RunnerReport = RunSuccess | RunFailure;

// A verdict measured before this bisection (`--reuse`): a judged, complete run of the same scenario, parameters,
// driver and binary, so running the release again would only ask the same question twice.
export interface ReusedRun {
  runDir: string;
  result: CheckResult;
}

// A run whose verdict means something about the release: the only kind an outcome is read from.
export type CleanRun = RunSuccess & { verdict: Exclude<Verdict, "ERROR" | "UNSUPPORTED"> };

// Why a release's runs gave no usable outcome.
export type RunSkipReason =
  | { kind: "install"; message: string }
  | { kind: "harness"; message: string }
  // The release lacks something the scenario needs; the message names it.
  | { kind: "unsupported"; message: string }
  // The run did not reach the point the scenario tests (INCONCLUSIVE): it judged nothing, so it is neither side, as a
  // release git bisect is told to skip. The message is the verdict's reason.
  | { kind: "unjudged"; message: string }
  // Repeats disagreed: the release is neither old nor new until someone looks.
  | { kind: "flaky"; outcomes: BisectOutcome[] };

// Why a release was left out, like `git bisect skip`: its runs failed, or their outcome matches neither
// endpoint (e.g. INCONCLUSIVE between GREEN and RED).
export type SkipReason = RunSkipReason | { kind: "neither"; outcome: BisectOutcome };

export interface Endpoint {
  version: string;
  outcome: BisectOutcome;
}

export type Role = "old endpoint" | "new endpoint" | "candidate";

export interface StepRun {
  outcome: BisectOutcome | "error" | "unsupported";
  runDir?: string;
  ms?: number;
  // Taken from an earlier run directory (--reuse) instead of measured; it cost no run.
  reused?: boolean;
}

export type Judged = { class: Class; outcome: BisectOutcome } | { skip: SkipReason };

export interface BisectStep {
  // 1-based; the two endpoints are steps 1 and 2.
  index: number;
  version: string;
  role: Role;
  runs: StepRun[];
  judged: Judged;
  // Wall time of the runs, not counting the wait for the download.
  ms: number;
  downloadWaitMs: number;
}

export interface SkippedVersion {
  version: string;
  reason: SkipReason;
}

// The adjacent pair once skipped releases are set aside; skippedBetween non-empty means the change is
// somewhere in (lastOld, firstNew] and only skipped releases are left to tell (git's "only skipped commits left").
export interface BisectAnswer {
  lastOld: string;
  firstNew: string;
  skippedBetween: string[];
}

export interface DownloadStats {
  // Distinct releases fetched through prefetch, in the order they were started.
  fetched: string[];
  // Download time that ran while something else was running, so nobody waited for it.
  hiddenMs: number;
  // Time a step sat waiting for its download to finish.
  waitedMs: number;
  // Fetched (or started) but never run: the branch the bisection did not take.
  unused: string[];
  // Of `fetched`, those that were in the cache already: nothing was downloaded for them.
  cached: string[];
}

export interface ChangelogEntry {
  version: string;
  url: string;
  // Whether CHANGELOG.md has a heading for this release; only known when the file was reachable.
  found?: boolean;
}

export interface ChangelogReport {
  status: "reachable" | "unreachable" | "unchecked";
  note: string;
  entries: ChangelogEntry[];
}

export interface BisectResult {
  scenario: string;
  finding?: string;
  repeat: number;
  old: Endpoint;
  new: Endpoint;
  answer: BisectAnswer;
  steps: BisectStep[];
  skipped: SkippedVersion[];
  // steps ≤ bound = ⌈log2(candidates + 1)⌉ + skips + 2 endpoints; runs counts every process started (repeats);
  // reused counts the verdicts taken from earlier run directories instead (no process started for them).
  budget: { candidates: number; steps: number; bound: number; runs: number; reused: number };
  download: DownloadStats;
  changelog: ChangelogReport;
}

// How many runs a bisection can need, said before it starts.
export interface RunPlan {
  // Runs at most if no release is skipped (a skipped release adds up to --repeat runs for its neighbour).
  atMost: number;
  // The same bound without --reuse: repeat × (2 endpoints + ⌈log2(candidates + 1)⌉).
  withoutReuse: number;
  candidates: number;
  repeat: number;
  // Releases in range whose verdict --reuse settles (no run needed), and reused runs in all.
  reusedReleases: number;
  reusedRuns: number;
}

// Where the run budget (--max-runs) ran out: what was learned, and the command that carries on without re-running it.
export interface BisectStop {
  maxRuns: number;
  lastOld: string;
  firstNew: string;
  steps: BisectStep[];
  skipped: SkippedVersion[];
  resume: string;
}

export type ProgressEvent =
  | ({ kind: "plan" } & RunPlan)
  // reused: the step's verdict comes from earlier run directories alone, so nothing is run.
  | { kind: "start"; index: number; estimatedTotal: number; version: string; role: Role; reused: boolean }
  | {
      kind: "step";
      index: number;
      estimatedTotal: number;
      version: string;
      role: Role;
      outcome: BisectOutcome | "skip";
      ms: number;
      // Run directories the step's verdict was taken from (--reuse); empty when every run was measured.
      reusedFrom: string[];
      // Runs started for this step.
      measured: number;
    }
  // fromCache: the release was there already; bytes is then 0 and ms only the cache check.
  | { kind: "download"; version: string; bytes: number; ms: number; fromCache: boolean }
  | { kind: "skip"; version: string; reason: SkipReason };
