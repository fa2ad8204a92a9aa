// What `ccrepro report` renders: a nightly directory's summary.json, or one run directory shown as a one-cell summary.
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.ts";
import { runLayout } from "../harness/run-layout.ts";
import { summaryOfRun } from "../nightly/run-summary.ts";
import { readSummary, SUMMARY_FILE, type Summary } from "../nightly/summary.ts";
import type { SweepFile } from "../sweep/sweep-file.ts";

export interface ReportInput {
  summary: Summary;
  // Run directories in the summary are relative to this.
  baseDir: string;
  // The sweeps a nightly config asked for, each with its own directory; shown as release strips.
  sweeps?: readonly { file: SweepFile; dir: string }[];
}

export function loadReportInput(target: string): ReportInput {
  const dir = path.resolve(target);
  if (fs.existsSync(path.join(dir, SUMMARY_FILE))) return { summary: readSummary(dir), baseDir: dir };
  if (fs.existsSync(runLayout(dir).runJson)) return summaryOfRun(dir);
  throw new UserError(`${dir} is neither a nightly directory (no ${SUMMARY_FILE}) nor a run directory (no run.json); pass a directory written by ccrepro run or ccrepro nightly`, "BAD_REPORT_TARGET");
}
