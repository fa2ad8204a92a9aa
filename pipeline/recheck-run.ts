// `ccrepro check`: re-judges a recorded run with its own scenario (a file's copy, checked against run.json's hash) or
// with an edited scenario file, and says which; never writes run.json, which keeps the verdict the run was recorded with.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { UserError } from "../core/errors.ts";
import type { CheckResult } from "../core/verdict.ts";
import { readRunRecord, type RunRecord } from "../harness/run-record.ts";
import { runLayout } from "../harness/run-layout.ts";
import type { CacheAudit } from "../checker/cache-audit.ts";
import { checkRecordedRunAudited } from "./check-recorded-run.ts";
import { loadScenario, looksLikePath, originOf, scenarioOfRun, sourceSha256 } from "./scenario-source.ts";

export const recheckOptionsSchema = z.strictObject({
  // An edited scenario file to judge the run with instead of the run's own scenario: a path.
  scenarioFile: z.string().min(1).optional(),
});
export type RecheckOptions = z.input<typeof recheckOptionsSchema>;

// Which check judged the run. "run-copy": the run directory's copy of the file scenario it was recorded with, with the
// copy's hash now and the one run.json recorded; "file": a scenario file given with --scenario; "builtin": by name.
export type JudgedWith =
  | { kind: "builtin"; name: string }
  | { kind: "run-copy"; path: string; sha256: string; recordedSha256: string }
  | { kind: "file"; path: string; sha256: string; recordedSha256: string; runCopy: string };

export interface Recheck {
  result: CheckResult;
  cache: CacheAudit | null;
  // Null when run.json is missing or damaged (the result then says so).
  judgedWith: JudgedWith | null;
  // What run.json holds, untouched: the verdict the run was recorded with (null: never judged).
  recordedVerdict: CheckResult["verdict"] | null;
  // Reasons not to take the verdict for the recorded scenario's, e.g. a copy edited since the run.
  warnings: string[];
}

function recordOf(runDir: string): RunRecord | null {
  try {
    return readRunRecord(runLayout(runDir).runJson);
  } catch {
    // checkRecordedRun says what is wrong with run.json.
    return null;
  }
}

export async function recheckRun(runDir: string, options: RecheckOptions = {}): Promise<Recheck> {
  const { scenarioFile } = recheckOptionsSchema.parse(options);
  const record = recordOf(runDir);
  if (scenarioFile !== undefined) return recheckWithFile(runDir, record, scenarioFile);
  const recordedVerdict = record?.result?.verdict ?? null;
  const judged = checkRecordedRunAudited(runDir, await scenarioOfRun(runDir));
  if (!record) return { ...judged, judgedWith: null, recordedVerdict, warnings: [] };
  if (record.source?.kind !== "file") return { ...judged, judgedWith: { kind: "builtin", name: record.scenario }, recordedVerdict, warnings: [] };
  const copy = path.join(runDir, record.source.copy);
  // scenarioOfRun read the same file; it refuses a copy it cannot read, so this read succeeds.
  const sha256 = sourceSha256(fs.readFileSync(copy, "utf8"));
  const recordedSha256 = record.source.sha256;
  const warnings =
    sha256 === recordedSha256
      ? []
      : [
          `the run directory's copy of the scenario, ${copy}, was changed since the run: its sha256 is ${sha256}, run.json records ${recordedSha256} for ` +
            `the file that ran (${record.source.path}); this verdict is of the changed scenario, not of the one the run was recorded with`,
        ];
  return { ...judged, judgedWith: { kind: "run-copy", path: copy, sha256, recordedSha256 }, recordedVerdict, warnings };
}

async function recheckWithFile(runDir: string, record: RunRecord | null, file: string): Promise<Recheck> {
  if (!looksLikePath(file)) {
    throw new UserError(`--scenario takes a scenario file's path, got "${file}"; pass it as a path, e.g. ./${file}.ts`, "BAD_ARGUMENT");
  }
  if (!record) {
    // Nothing to match the file against; the result is the ERROR that names what is wrong with the directory.
    return { ...checkRecordedRunAudited(runDir), judgedWith: null, recordedVerdict: null, warnings: [] };
  }
  if (record.source?.kind !== "file") {
    throw new UserError(
      `--scenario re-judges a run of a scenario file, and ${runDir} was recorded with the built-in scenario "${record.scenario}", which a file cannot stand in for; ` +
        `to iterate on its check, copy it (ccrepro new my-${record.scenario} --from ${record.scenario}), run the copy once, and check that run with --scenario`,
      "SCENARIO_MISMATCH",
    );
  }
  const scenario = await loadScenario(file);
  if (scenario.name !== record.scenario) {
    throw new UserError(
      `scenario file ${file} defines "${scenario.name}", but ${runDir} was recorded with "${record.scenario}"; pass the file that defines "${record.scenario}" ` +
        `(the run's own copy is ${path.join(runDir, record.source.copy)}), or check a run of "${scenario.name}"`,
      "SCENARIO_MISMATCH",
    );
  }
  const origin = originOf(scenario);
  const sha256 = origin.kind === "file" ? origin.sha256 : "";
  const judged = checkRecordedRunAudited(runDir, scenario, file);
  return {
    ...judged,
    judgedWith: { kind: "file", path: path.resolve(file), sha256, recordedSha256: record.source.sha256, runCopy: path.join(runDir, record.source.copy) },
    recordedVerdict: record.result?.verdict ?? null,
    warnings: [],
  };
}
