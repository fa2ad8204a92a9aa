// The whole pipeline for one run: the harness records it, the checker judges the run directory, run.json keeps both.
import { checkRecordedRun } from "../checker/check-run.ts";
import type { CheckResult } from "../checker/verdict.ts";
import { runScenario, type RunOptions } from "../harness/run-scenario.ts";
import { writeRunRecord, type RunRecord } from "../harness/run-record.ts";
import { runLayout } from "../harness/run-layout.ts";

export interface CheckedRun {
  runDir: string;
  record: RunRecord & { result: CheckResult };
}

export async function runAndCheck(options: RunOptions): Promise<CheckedRun> {
  const { runDir, record } = await runScenario(options);
  const result = checkRecordedRun(runDir);
  const judged = { ...record, result, wallMs: Date.now() - Date.parse(record.startedAt), endedAt: new Date().toISOString() };
  writeRunRecord(runLayout(runDir).runJson, judged);
  return { runDir, record: judged };
}
