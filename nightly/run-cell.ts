// The cell runner a nightly uses by default: one ordinary run directory per repeat, on a cached release.
import type { CheckResult } from "../checker/verdict.ts";
import { installRelease, unpinRelease, type CacheOptions, type InstalledRelease } from "../harness/release-cache.ts";
import { runAndCheck } from "../pipeline/run-and-check.ts";
import { findScenario } from "../scenarios/index.ts";
import type { PlannedCell } from "./matrix.ts";

export interface CellTask {
  cell: PlannedCell;
  // 0-based repeat number.
  repeat: number;
  runsDir: string;
  signal: AbortSignal;
}

export interface CellRunOutcome {
  runDir: string | null;
  result: CheckResult;
  wallMs: number | null;
}

// Injectable so the matrix, sharding and merging can be exercised with recorded outcomes instead of claude.
export type CellRunner = (task: CellTask) => Promise<CellRunOutcome>;

// `versions` lists every planned cell's version (repeats times each): once a version's last run is done, its cache
// entry is unpinned, so a long nightly over many releases stays within the cache's size cap.
export function releaseCellRunner(versions: readonly string[], repeats: number, cache: CacheOptions = {}): CellRunner {
  // One install per version, however many cells wait for it.
  const installs = new Map<string, Promise<InstalledRelease>>();
  const runsLeft = new Map<string, number>();
  for (const version of versions) runsLeft.set(version, (runsLeft.get(version) ?? 0) + repeats);
  const done = async (version: string) => {
    const left = (runsLeft.get(version) ?? 1) - 1;
    runsLeft.set(version, left);
    if (left <= 0) await unpinRelease(version, cache);
  };
  return async ({ cell, runsDir, signal }) => {
    const scenario = findScenario(cell.scenario);
    if (!scenario) throw new Error(`the matrix names an unregistered scenario ${cell.scenario}`);
    let install = installs.get(cell.version);
    if (!install) {
      install = installRelease(cell.version, cache);
      installs.set(cell.version, install);
    }
    try {
      const { runDir, record } = await runAndCheck({
        scenario,
        params: scenario.params.parse(cell.params),
        claude: await install,
        requested: cell.version,
        runsDir,
        abort: signal,
      });
      return { runDir, result: record.result, wallMs: record.wallMs };
    } finally {
      await done(cell.version);
    }
  };
}
