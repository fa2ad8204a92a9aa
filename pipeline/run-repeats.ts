// `ccrepro run --repeat N`: one scenario on one binary N times, each run judged, the verdicts combined into a rate.
// With stopEarly the repeats end as soon as they disagree, since the cell is flaky whatever follows.
import type { CheckResult } from "../core/verdict.ts";
import { stabilityOf } from "./rates.ts";
import { runAndCheck, type CheckedRun, type ScenarioRun } from "./run-scenario.ts";
import { combineRepeats, type CombinedRepeats } from "./verdict-rules.ts";

export interface RepeatedRun extends ScenarioRun {
  repeat: number;
  stopEarly?: boolean;
  // Each finished run, in order (`index` from 0), as it finishes.
  onRun?: (run: CheckedRun, index: number) => void;
}

export interface RepeatedOutcome {
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

export async function runRepeats(options: RepeatedRun): Promise<RepeatedOutcome> {
  const { repeat, stopEarly = false, onRun, recordApi, ...run } = options;
  const results: CheckResult[] = [];
  let stoppedEarly = false;
  for (let i = 0; i < repeat && !options.abort?.aborted; i += 1) {
    if (stopEarly && stabilityOf(results.map((r) => r.verdict), repeat) !== "open") {
      stoppedEarly = true;
      break;
    }
    const recording = recordingFor(recordApi, repeat, i);
    const checked = await runAndCheck({ ...run, ...(recording ? { recordApi: recording } : {}) });
    results.push(checked.record.result);
    onRun?.(checked, i);
  }
  return { results, combined: combineRepeats(results), stoppedEarly };
}
