// `ccrepro run --repeat N`: one scenario on one binary N times, each run judged, the verdicts combined into a rate.
// With stopEarly the repeats end as soon as they disagree, since the cell is flaky whatever follows.
import type { CheckResult } from "../core/verdict.ts";
import { stabilityOf } from "./rates.ts";
import { runsAtOnce } from "./run-concurrency.ts";
import { runAndCheck, type CheckedRun, type ScenarioRun } from "./run-scenario.ts";
import { combineRepeats, type CombinedRepeats } from "./verdict-rules.ts";

export interface RepeatedRun extends ScenarioRun {
  repeat: number;
  // Runs at once (`--jobs`), within what the scenario and the machine allow (run-concurrency.ts). Default 1.
  jobs?: number;
  stopEarly?: boolean;
  // Each finished run, in the order they finish, with its `index` from 0 in the order they were started.
  onRun?: (run: CheckedRun, index: number) => void;
  // Injected by tests; the real one is runAndCheck.
  runOne?: (run: ScenarioRun) => Promise<CheckedRun>;
}

export interface RepeatedOutcome {
  // In the order the runs were started.
  results: CheckResult[];
  combined: CombinedRepeats;
  // Fewer runs than asked, because they disagreed early (not because of an abort).
  stoppedEarly: boolean;
}

// A recording per run: with repeats, `bug.json` becomes bug-1.json, bug-2.json, ….
function recordingFor(file: string | undefined, repeat: number, index: number): string | undefined {
  if (file === undefined || repeat === 1) return file;
  return file.replace(/(\.json)?$/, `-${index + 1}.json`);
}

// `jobs` workers take the next run until `repeat` were started. With stopEarly none is started once the runs that
// finished are settled as flaky; those already going finish and count, since their run directories are written. A
// run that throws stops the others from starting more, and is thrown once the ones going have finished (the first
// such error; a second, from a run beside it, is the same failure of the harness seen twice).
export async function runRepeats(options: RepeatedRun): Promise<RepeatedOutcome> {
  const { repeat, stopEarly = false, onRun, recordApi, runOne = runAndCheck, ...run } = options;
  const jobs = runsAtOnce(options.scenario, options.jobs ?? 1, "--jobs");
  // By start index; a run still going leaves a hole, which filter skips.
  const results: CheckResult[] = [];
  let started = 0;
  let stoppedEarly = false;
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (started < repeat && failure === null && !options.abort?.aborted) {
      if (stopEarly && stabilityOf(results.filter(Boolean).map((r) => r.verdict), repeat) !== "open") {
        stoppedEarly = true;
        return;
      }
      const index = started++;
      const recording = recordingFor(recordApi, repeat, index);
      const progress = run.onProgress;
      try {
        const checked = await runOne({
          ...run,
          ...(recording ? { recordApi: recording } : {}),
          ...(progress && jobs > 1 ? { onProgress: (line: string) => progress(`run ${index + 1}/${repeat}: ${line}`) } : {}),
        });
        results[index] = checked.record.result;
        onRun?.(checked, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, repeat)) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
  // Every run started has finished here, so the results have no gap.
  return { results, combined: combineRepeats(results), stoppedEarly };
}
