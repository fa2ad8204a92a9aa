// The cell runner a nightly uses by default: one ordinary run directory per repeat, on a cached release.
import { UserError } from "../core/errors.ts";
import type { CheckResult } from "../core/verdict.ts";
import { releaseRunner, type ReleaseRunner } from "../pipeline/run-scenario.ts";
import { harnessErrorResult } from "../pipeline/verdict-rules.ts";
import type { CacheOptions } from "../releases/release-cache.ts";
import { scenarioByName } from "../pipeline/scenario-registry.ts";
import type { PlannedCell } from "./matrix.ts";
import { paramsOf } from "../kit/scenario-params.ts";

export interface CellTask {
  cell: PlannedCell;
  // 0-based repeat number.
  repeat: number;
  runsDir: string;
  signal: AbortSignal;
}

export interface CellRun {
  runDir: string | null;
  result: CheckResult;
  wallMs: number | null;
}

// Injectable so the matrix, sharding and merging can be exercised with recorded outcomes instead of claude.
export type CellRunner = (task: CellTask) => Promise<CellRun>;

// `versions` lists every planned cell's version (repeats times each): once a version's last run is done, its cache
// entry is unpinned, so a long nightly over many releases stays within the cache's size cap.
export function releaseCellRunner(versions: readonly string[], repeats: number, cache: CacheOptions = {}): CellRunner {
  const runsPerVersion = new Map<string, number>();
  for (const version of versions) runsPerVersion.set(version, (runsPerVersion.get(version) ?? 0) + repeats);
  const runners = new Map<string, ReleaseRunner>();
  return async ({ cell, runsDir, signal }) => {
    const scenario = scenarioByName(cell.scenario);
    if (!scenario) throw new UserError(`the nightly matrix names scenario ${cell.scenario}, which is not loaded`, "BAD_CONFIG", { hint: "name a built-in scenario (ccrepro scenarios lists them) or a scenario file's path relative to the config" });
    let runner = runners.get(runsDir);
    if (!runner) {
      runner = releaseRunner(runsDir, { cache, runsPerVersion });
      runners.set(runsDir, runner);
    }
    const run = await runner.run({ scenario, params: paramsOf(scenario, cell.params, `scenario ${scenario.name} in the nightly matrix`), ...cell.drive }, cell.version, signal);
    if (!run.installed) return { runDir: null, result: harnessErrorResult(`could not install ${cell.version}: ${run.message}`), wallMs: null };
    return { runDir: run.runDir, result: run.record.result, wallMs: run.record.wallMs };
  };
}
