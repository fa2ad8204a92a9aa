// What `ccrepro report` renders: a nightly directory's summary.json, or one run directory shown as a one-cell summary.
import { harnessErrorResult } from "../pipeline/verdict-rules.ts";
import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { UserError } from "../core/errors.ts";
import { readRunRecord } from "../harness/run-record.ts";
import { runLayout } from "../harness/run-layout.ts";
import { assembleSummary } from "../nightly/assemble.ts";
import { cellFromRuns } from "../nightly/cell-outcome.ts";
import { scenarioLedger } from "../nightly/ledger.ts";
import { cellKey, cellLabel } from "../nightly/matrix.ts";
import { readSummary, SUMMARY_FILE, type Summary } from "../nightly/summary.ts";
import { scenarioByName } from "../pipeline/scenario-source.ts";
import type { SweepFile } from "../sweep/sweep-file.ts";

export interface ReportInput {
  summary: Summary;
  // Run directories in the summary are relative to this.
  baseDir: string;
  // The sweeps a nightly config asked for, each with its own directory; shown as release strips.
  sweeps?: readonly { file: SweepFile; dir: string }[];
}

// Parameters that differ from the scenario's defaults: the ones a person set, as a nightly config would name them.
export function givenParams(scenarioName: string, params: Record<string, unknown>): Record<string, unknown> {
  const scenario = scenarioByName(scenarioName);
  if (!scenario) return params;
  const defaults = scenario.params.safeParse({});
  if (!defaults.success) return params;
  return Object.fromEntries(Object.entries(params).filter(([key, value]) => !isDeepStrictEqual((defaults.data as Record<string, unknown>)[key], value)));
}

// The verdict recorded in run.json, checked against the scenarios' known states like a nightly cell.
export function summaryOfRun(runDir: string): ReportInput {
  const dir = path.resolve(runDir);
  let record;
  try {
    record = readRunRecord(runLayout(dir).runJson);
  } catch (error) {
    throw new UserError(`cannot read ${runLayout(dir).runJson}: ${(error as Error).message}`, "BAD_RUN_DIR");
  }
  const result = record.result ?? harnessErrorResult(`run.json has no verdict: the run did not finish (ccrepro check ${dir} recomputes one)`);
  const version = record.claude.reportedVersion ?? record.claude.requested;
  const params = givenParams(record.scenario, record.params);
  // A run through the Agent SDK is its own cell, keyed like the nightly's SDK cells.
  const drive = record.sdk ? { driver: "sdk" as const, sdk: record.sdk.version } : undefined;
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

export function loadReportInput(target: string): ReportInput {
  const dir = path.resolve(target);
  if (fs.existsSync(path.join(dir, SUMMARY_FILE))) return { summary: readSummary(dir), baseDir: dir };
  if (fs.existsSync(runLayout(dir).runJson)) return summaryOfRun(dir);
  throw new UserError(`${dir} is neither a nightly directory (no ${SUMMARY_FILE}) nor a run directory (no run.json); pass a directory written by ccrepro run or ccrepro nightly`, "BAD_REPORT_TARGET");
}
