// Recomputes a run's verdict from its directory alone: run.json names the scenario and parameters, the logs do the rest.
import fs from "node:fs";
import { loadRecordings } from "../harness/recordings.ts";
import { readRunRecord } from "../harness/run-record.ts";
import { runLayout } from "../harness/run-layout.ts";
import { findScenario } from "../scenarios/index.ts";
import type { CheckResult } from "../core/verdict.ts";
import { explainFailure } from "./diagnose-run.ts";
import { harnessErrorResult, unsupportedResult } from "./verdict-rules.ts";

export function checkRecordedRun(runDir: string): CheckResult {
  const layout = runLayout(runDir);
  if (!fs.existsSync(layout.runJson)) return harnessErrorResult(`${runDir} has no run.json: not a run directory`);
  let record;
  try {
    record = readRunRecord(layout.runJson);
  } catch (error) {
    return harnessErrorResult(`run.json is damaged: ${(error as Error).message}`);
  }
  if (record.unsupported) return unsupportedResult(record.unsupported.message);
  if (record.harnessError) return harnessErrorResult(explainFailure(record.harnessError, runDir, record));
  if (!record.recordingComplete) return harnessErrorResult("the recording was cut short (ccrepro stopped before the run ended); its logs may be partial");
  const failedStep = record.steps.find((step) => step.outcome === "error");
  if (failedStep) return harnessErrorResult(explainFailure(`step ${failedStep.index + 1} (${failedStep.label}) failed: ${failedStep.detail ?? "no detail"}`, runDir, record));
  const scenario = findScenario(record.scenario);
  if (!scenario) return harnessErrorResult(`run.json names an unknown scenario "${record.scenario}"`);
  const params = scenario.params.safeParse(record.params);
  if (!params.success) return harnessErrorResult(`run.json's parameters no longer fit scenario ${scenario.name}: ${params.error.message}`);
  try {
    return scenario.check(loadRecordings(runDir), params.data);
  } catch (error) {
    // A damaged log (a missing body, a cut line) is the usual cause; the message names it, a stack would bury it.
    return harnessErrorResult(`the checker could not read this run: ${(error as Error).message}`);
  }
}
