// One run directory seen as a nightly of one cell: its verdict from run.json, checked against the scenarios' known
// states like a nightly cell, so `ccrepro report RUN_DIR` renders it with the nightly's pages.
import path from "node:path";
import { UserError } from "../core/errors.ts";
import { readRunRecord } from "../harness/run-record.ts";
import { runLayout } from "../harness/run-layout.ts";
import { givenParams } from "../kit/scenario-params.ts";
import { recordedDriver } from "../pipeline/drivers.ts";
import { scenarioByName } from "../pipeline/scenario-registry.ts";
import { harnessErrorResult } from "../pipeline/verdict-rules.ts";
import { assembleSummary } from "./assemble.ts";
import { cellFromRuns } from "./cell-outcome.ts";
import { scenarioLedger } from "./ledger.ts";
import { cellKey, cellLabel, driveOf } from "./matrix.ts";
import type { Summary } from "./summary.ts";

// The verdict recorded in run.json, checked against the scenarios' known states like a nightly cell.
export function summaryOfRun(runDir: string): { summary: Summary; baseDir: string } {
  const dir = path.resolve(runDir);
  let record;
  try {
    record = readRunRecord(runLayout(dir).runJson);
  } catch (error) {
    throw new UserError(`cannot read ${runLayout(dir).runJson}: ${(error as Error).message}`, "BAD_RUN_DIR", { cause: error, hint: "pass a run directory written by ccrepro run, or a nightly directory" });
  }
  const result = record.result ?? harnessErrorResult(`run.json has no verdict: the run did not finish (ccrepro check ${dir} recomputes one)`);
  const version = record.claude.reportedVersion ?? record.claude.requested;
  const params = givenParams(scenarioByName(record.scenario), record.params);
  // A run through the Agent SDK, or with a driver not its scenario's own, is its own cell, keyed like the nightly's.
  const drive = record.sdk ? { driver: "sdk" as const, sdk: record.sdk.version } : driveOf(record.scenario, recordedDriver(record.driver));
  const label = cellLabel(params, drive);
  const planned = { key: cellKey(record.scenario, label, version), scenario: record.scenario, params, paramsLabel: label, version, ...(drive ? { drive } : {}) };
  const cell = cellFromRuns(planned, [{ dir: path.basename(dir), result, wallMs: record.wallMs }], scenarioLedger());
  const summary = assembleSummary({
    kind: "run",
    startedAt: record.startedAt,
    endedAt: record.endedAt ?? record.startedAt,
    config: null,
    versionWords: [],
    releases: [{ version, publishedAt: null }],
    shard: null,
    mergedFrom: [],
    cells: [cell],
    previous: null,
  });
  return { summary, baseDir: path.dirname(dir) };
}

