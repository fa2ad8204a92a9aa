// The cell runner a nightly uses by default: one ordinary run directory per repeat, on a cached release.
import type { CheckResult } from "../checker/verdict.ts";
import { installRelease, type CacheOptions, type InstalledRelease } from "../harness/release-cache.ts";
import { runScenario } from "../harness/run-scenario.ts";
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

export function releaseCellRunner(cache: CacheOptions = {}): CellRunner {
  // One install per version, however many cells wait for it.
  const installs = new Map<string, Promise<InstalledRelease>>();
  return async ({ cell, runsDir, signal }) => {
    const scenario = findScenario(cell.scenario);
    if (!scenario) throw new Error(`the matrix names an unregistered scenario ${cell.scenario}`);
    let install = installs.get(cell.version);
    if (!install) {
      install = installRelease(cell.version, cache);
      installs.set(cell.version, install);
    }
    const { runDir, record } = await runScenario({
      scenario,
      params: scenario.params.parse(cell.params),
      claude: await install,
      requested: cell.version,
      runsDir,
      abort: signal,
    });
    return { runDir, result: record.result!, wallMs: record.wallMs };
  };
}
