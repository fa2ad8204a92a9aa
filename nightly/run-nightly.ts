// Runs a nightly: plans the matrix, runs its cells (repeats included) up to the concurrency, and assembles the summary.
import path from "node:path";
import { harnessErrorResult } from "../pipeline/verdict-rules.ts";
import pLimit from "p-limit";
import { UserError } from "../core/errors.ts";
import { releaseIndex, type ReleaseIndex } from "../releases/registry.ts";
import { assembleSummary, type PreviousNightly } from "./assemble.ts";
import { stabilityOf } from "../pipeline/rates.ts";
import { runsAlone } from "../pipeline/run-concurrency.ts";
import { scenarioByName } from "../pipeline/scenario-registry.ts";
import { cellFromRuns, totalsOf } from "./cell-outcome.ts";
import { ratesDiffer } from "./compare.ts";
import type { NightlyConfig } from "./config.ts";
import { buildLedger } from "./ledger.ts";
import { planMatrix, type PlannedCell } from "./matrix.ts";
import { releaseCellRunner, type CellRunner, type CellRun } from "./run-cell.ts";
import { sliceForShard } from "./shard.ts";
import { RUNS_DIR, type Cell, type RunSummary, type Shard, type Summary, type Totals } from "./summary.ts";

export interface NightlyPlanned {
  cells: number;
  runs: number;
  versions: string[];
  concurrency: number;
}

export interface CellFinished {
  cell: Cell;
  done: number;
  total: number;
  // Over the cells finished so far.
  totals: Totals;
  // From the cell's first repeat starting to its last one ending.
  ms: number;
}

export interface NightlyOptions {
  config: NightlyConfig;
  outDir: string;
  previous: PreviousNightly | null;
  shard?: Shard | null;
  // The release list; read from the registry when absent.
  index?: ReleaseIndex;
  runCell?: CellRunner;
  // Ctrl-C: running cells end as ERROR, cells not started are recorded as not run.
  signal?: AbortSignal;
  onPlanned?: (planned: NightlyPlanned) => void;
  onCell?: (finished: CellFinished) => void;
}

function harnessError(reason: string): CellRun {
  return { runDir: null, result: harnessErrorResult(reason), wallMs: null };
}

export async function runNightly(options: NightlyOptions): Promise<Summary> {
  const { config } = options;
  const startedAt = new Date();
  const outDir = path.resolve(options.outDir);
  const runsDir = path.join(outDir, RUNS_DIR);
  const plan = planMatrix(config, options.index ?? (await releaseIndex()), options.previous?.summary.startedAt ?? null);
  const shard = options.shard ?? null;
  const planned = sliceForShard(plan.cells, shard);
  const ledger = buildLedger(config);
  const runCell = options.runCell ?? releaseCellRunner(planned.map((cell) => cell.version), config.repeats);
  const signal = options.signal ?? new AbortController().signal;
  options.onPlanned?.({ cells: planned.length, runs: planned.length * config.repeats, versions: plan.releases.map((r) => r.version), concurrency: config.concurrency });

  const limit = pLimit(config.concurrency);
  // A scenario that runs alone (kit `runsAlone`: a run beside it tips its race) has its cells run after all the
  // others, one run at a time, so nothing runs beside them.
  const aloneLimit = pLimit(1);
  const alone = (cell: PlannedCell) => runsAlone(scenarioByName(cell.scenario));
  const finished: Cell[] = [];
  const runOnce = (cell: PlannedCell, repeat: number) =>
    (alone(cell) ? aloneLimit : limit)(async () => {
      const started = Date.now();
      let outcome: CellRun;
      try {
        outcome = signal.aborted ? harnessError("not run: the nightly was interrupted") : await runCell({ cell, repeat, runsDir, signal });
      } catch (error) {
        // A cell that throws is that cell's ERROR; the other cells still run.
        outcome = harnessError(error instanceof UserError ? error.message : `the cell runner failed: ${(error as Error).stack ?? String(error)}`);
      }
      const ended = Date.now();
      const run: RunSummary = {
        dir: outcome.runDir === null ? null : path.relative(outDir, outcome.runDir),
        result: outcome.result,
        wallMs: outcome.wallMs ?? ended - started,
      };
      return { run, started, ended };
    });

  const before = new Map((options.previous?.summary.cells ?? []).map((cell) => [cell.key, cell]));
  // Whether a cell's runs so far say something other than the ledger or the previous nightly: then it is run again
  // before it is reported, so one flip of a race is not an alarm.
  const differs = (cell: Cell): boolean => {
    if (cell.status === "error") return false;
    if (cell.status === "unexpected") return true;
    if (cell.expectation.flaky === true && !cell.flaky) return true;
    const old = before.get(cell.key);
    return old !== undefined && (old.verdict !== cell.verdict || old.flaky !== cell.flaky || ratesDiffer(old, cell));
  };

  const runCellThrough = async (plannedCell: PlannedCell): Promise<Cell> => {
    const repeats = await Promise.all(Array.from({ length: config.repeats }, (_, repeat) => runOnce(plannedCell, repeat)));
    let cell = cellFromRuns(plannedCell, repeats.map((r) => r.run), ledger, before);
    // Confirmation: one run at a time up to confirmRuns in all, stopping as soon as the rate rule is settled (a
    // disagreement settles flaky at once, as V8's flake bisect stops at its k-th failure; "unchanged" or "changed"
    // needs every run). ERROR ends it: a broken harness says nothing about the rate.
    const first = repeats.length;
    while (differs(cell) && repeats.length < (config.confirmRuns ?? 0) && !signal.aborted) {
      if (stabilityOf(repeats.map((r) => r.run.result.verdict), config.confirmRuns) !== "open") break;
      repeats.push(await runOnce(plannedCell, repeats.length));
      cell = cellFromRuns(plannedCell, repeats.map((r) => r.run), ledger, before);
      if (cell.verdict === "ERROR") break;
    }
    if (repeats.length > first) cell = { ...cell, confirmRuns: repeats.length - first };
    finished.push(cell);
    const ms = Math.max(...repeats.map((r) => r.ended)) - Math.min(...repeats.map((r) => r.started));
    options.onCell?.({ cell, done: finished.length, total: planned.length, totals: totalsOf(finished), ms });
    return cell;
  };
  const cells: Cell[] = new Array(planned.length);
  const runInto = (indices: number[]) => Promise.all(indices.map(async (i) => void (cells[i] = await runCellThrough(planned[i]!))));
  const indices = planned.map((_, i) => i);
  await runInto(indices.filter((i) => !alone(planned[i]!)));
  await runInto(indices.filter((i) => alone(planned[i]!)));

  return assembleSummary({
    kind: "nightly",
    startedAt: startedAt.toISOString(),
    endedAt: new Date().toISOString(),
    config,
    versionWords: plan.versionWords,
    releases: plan.releases,
    shard,
    mergedFrom: [],
    cells,
    previous: options.previous,
  });
}
