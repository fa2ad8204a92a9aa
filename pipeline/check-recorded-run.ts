// Recomputes a run's verdict from its directory alone: run.json names the scenario and parameters, the logs do the rest.
import fs from "node:fs";
import { loadRecordings, type Recordings } from "../harness/recordings.ts";
import { readRunRecord, type RunRecord } from "../harness/run-record.ts";
import { runLayout } from "../harness/run-layout.ts";
import { judgeRun, type CheckResult } from "../core/verdict.ts";
import type { Scenario } from "../kit/scenario.ts";
import { explainFailure } from "./diagnose-run.ts";
import { harnessErrorResult, runEvidence, unsupportedResult } from "./verdict-rules.ts";
import { withCacheAudit, type AuditedResult } from "./cache-notes.ts";
import { paramsOf } from "../kit/scenario-params.ts";

const unaudited = (result: CheckResult): AuditedResult => ({ result, cache: null });

// The scenario the run was recorded with, or how to find it by the name run.json gives (a file scenario: see
// scenarioOfRun()). A lookup is passed in, so a run that has its scenario never loads every built-in.
export type ScenarioOfRecord = Scenario | ((name: string) => Scenario | undefined) | undefined;

export function checkRecordedRun(runDir: string, scenario: ScenarioOfRecord): CheckResult {
  return checkRecordedRunAudited(runDir, scenario).result;
}

// The same, with the cache audit its notes came from (null when the run was not judged or not audited). `checkFile`:
// the file a throwing check is blamed on, when it is not the one the run recorded (an edited file given to check).
// The verdict a run gets before any scenario's check is asked (no run.json, a harness error, a cut recording, a failed
// step, UNSUPPORTED), with the record when there is none: the check of a file scenario runs only past this point.
export function judgedBeforeCheck(runDir: string): { early: AuditedResult } | { record: RunRecord } {
  const layout = runLayout(runDir);
  if (!fs.existsSync(layout.runJson)) return { early: unaudited(harnessErrorResult(`${runDir} has no run.json: not a run directory`)) };
  let record;
  try {
    record = readRunRecord(layout.runJson);
  } catch (error) {
    return { early: unaudited(harnessErrorResult(`run.json is damaged: ${(error as Error).message}`)) };
  }
  if (record.unsupported) return { early: unaudited(unsupportedResult(record.unsupported.message)) };
  if (record.harnessError) return { early: unaudited(harnessErrorResult(explainFailure(record.harnessError, runDir, record))) };
  if (!record.recordingComplete) return { early: unaudited(harnessErrorResult("the recording was cut short (ccrepro stopped before the run ended); its logs may be partial")) };
  const failedStep = record.steps.find((step) => step.outcome === "error");
  if (failedStep) return { early: unaudited(harnessErrorResult(explainFailure(`step ${failedStep.index + 1} (${failedStep.label}) failed: ${failedStep.detail ?? "no detail"}`, runDir, record))) };
  return { record };
}

export function checkRecordedRunAudited(runDir: string, given: ScenarioOfRecord, checkFile?: string): AuditedResult {
  return checkRecordedRunWith(runDir, given, checkFile, "whole");
}

// The scenario's check alone, as a confined child gives it: the parent applies the run's own evidence itself
// (finishVerdict), so code in the child cannot decide whether its run's timeouts count.
export function scenarioCheckOfRun(runDir: string, given: ScenarioOfRecord, checkFile?: string): CheckResult {
  return checkRecordedRunWith(runDir, given, checkFile, "check-only").result;
}

// The verdict of a run whose scenario's check gave `check`: the run's own evidence (its timeouts, the API's rejections)
// through judgeRun, then what caching cost, as notes. The one place both are applied.
export function finishVerdict(runDir: string, record: RunRecord, check: CheckResult, rec: Recordings = loadRecordings(runDir)): AuditedResult {
  return withCacheAudit(judgeRun(check, runEvidence(record, rec.requests)), rec);
}

function checkRecordedRunWith(runDir: string, given: ScenarioOfRecord, checkFile: string | undefined, how: "whole" | "check-only"): AuditedResult {
  const before = judgedBeforeCheck(runDir);
  if ("early" in before) return before.early;
  const { record } = before;
  const scenario = typeof given === "function" ? given(record.scenario) : given;
  if (!scenario && record.source?.kind === "file") {
    return unaudited(harnessErrorResult(`scenario ${record.scenario} came from the file ${record.source.path}, which is not loaded; \`ccrepro check\` judges it with the copy in ${record.source.copy}`));
  }
  if (!scenario) return unaudited(harnessErrorResult(`run.json names an unknown scenario "${record.scenario}"`));
  const file = checkFile ?? (record.source?.kind === "file" ? record.source.path : null);
  let params: Record<string, unknown>;
  try {
    params = paramsOf(scenario, record.params, `scenario ${scenario.name} in run.json`);
  } catch (error) {
    return unaudited(harnessErrorResult(`run.json's parameters no longer fit: ${(error as Error).message}; run the scenario again with this ccrepro, or judge the run with the scenario it was recorded with (--scenario FILE)`));
  }
  try {
    const rec = loadRecordings(runDir);
    const check = scenario.check(rec, params);
    return how === "whole" ? finishVerdict(runDir, record, check, rec) : unaudited(check);
  } catch (error) {
    // A user's check that throws is a bug in that file: name it, so the fix is obvious.
    if (file !== null) {
      return unaudited(harnessErrorResult(`the check of scenario file ${file} threw: ${(error as Error).message}; fix its check() and run \`ccrepro check\` on this run directory again`));
    }
    // A damaged log (a missing body, a cut line) is the usual cause; the message names it, a stack would bury it.
    return unaudited(harnessErrorResult(`the checker could not read this run: ${(error as Error).message}`));
  }
}
