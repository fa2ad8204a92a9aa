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
import { checkRecordedRunAudited, judgedBeforeCheck } from "./check-recorded-run.ts";
import { scenarioByName } from "./scenario-registry.ts";
import { confinedCheck, type Confinement } from "./confined-check.ts";
import { looksLikePath, sourceSha256 } from "./scenario-source.ts";
import { sha256Hex } from "../core/hash.ts";

export const recheckOptionsSchema = z.strictObject({
  // An edited scenario file to judge the run with instead of the run's own scenario: a path.
  scenarioFile: z.string().min(1).optional(),
  // Run a file scenario's check with the user's rights instead of confined (--trust); it is still time-limited.
  trust: z.boolean().optional(),
});
// Ctrl-C or SIGTERM while a file scenario's check runs: its child is ended and the verdict is ERROR.
export type RecheckOptions = z.input<typeof recheckOptionsSchema> & { abort?: AbortSignal };

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
  // How a file scenario's check ran (null: a built-in, judged by this ccrepro's own copy, or no check ran).
  confinement: Confinement | null;
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
  const { abort, ...asked } = options;
  const { scenarioFile, trust } = recheckOptionsSchema.parse(asked);
  const record = recordOf(runDir);
  if (scenarioFile !== undefined) return recheckWithFile(runDir, record, scenarioFile, { trust: trust ?? false, abort });
  const recordedVerdict = record?.result?.verdict ?? null;
  // A built-in is judged by this ccrepro's own scenario of that name: nothing in the run directory is run.
  if (!record || record.source?.kind !== "file") {
    const judged = checkRecordedRunAudited(runDir, scenarioByName);
    return { ...judged, judgedWith: record ? { kind: "builtin", name: record.scenario } : null, recordedVerdict, warnings: [], confinement: null };
  }
  const copy = path.join(runDir, record.source.copy);
  const sha256 = readSha256(copy);
  const recordedSha256 = record.source.sha256;
  const judgedWith: JudgedWith = { kind: "run-copy", path: copy, sha256: sha256 ?? "", recordedSha256 };
  const warnings =
    sha256 === null || sha256 === recordedSha256
      ? []
      : [
          `the run directory's copy of the scenario, ${copy}, was changed since the run: its sha256 is ${sha256}, run.json records ${recordedSha256} for ` +
            `the file that ran (${record.source.path}); this verdict is of the changed scenario, not of the one the run was recorded with`,
        ];
  for (const data of record.source.data ?? []) {
    const now = fileSha256(path.join(runDir, data.copy));
    if (now === data.sha256) continue;
    warnings.push(
      now === null
        ? `the run directory's copy of a file the scenario read, ${path.join(runDir, data.copy)}, is missing; the check loads it, and will fail naming it`
        : `the run directory's copy of a file the scenario read, ${path.join(runDir, data.copy)}, was changed since the run: its sha256 is ${now}, run.json records ${data.sha256}; this verdict is of the changed file`,
    );
  }
  const before = judgedBeforeCheck(runDir);
  if ("early" in before) return { ...before.early, judgedWith, recordedVerdict, warnings, confinement: null };
  const checked = await confinedCheck(runDir, copy, copy, { trust, abort });
  return { ...checked.audited, judgedWith, recordedVerdict, warnings, confinement: checked.confinement };
}

// A data file's bytes, hashed as the loader hashed them when the run started.
function fileSha256(file: string): string | null {
  try {
    return sha256Hex(fs.readFileSync(file));
  } catch {
    return null;
  }
}

function readSha256(file: string): string | null {
  try {
    return sourceSha256(fs.readFileSync(file, "utf8"));
  } catch {
    // The check names the unreadable copy.
    return null;
  }
}

async function recheckWithFile(runDir: string, record: RunRecord | null, file: string, how: { trust: boolean; abort?: AbortSignal }): Promise<Recheck> {
  if (!looksLikePath(file)) {
    throw new UserError(`--scenario takes a scenario file's path, got "${file}"; pass it as a path, e.g. ./${file}.ts`, "BAD_ARGUMENT");
  }
  if (!record) {
    // Nothing to match the file against; the result is the ERROR that names what is wrong with the directory.
    return { ...checkRecordedRunAudited(runDir, scenarioByName), judgedWith: null, recordedVerdict: null, warnings: [], confinement: null };
  }
  if (record.source?.kind !== "file") {
    throw new UserError(
      `--scenario re-judges a run of a scenario file, and ${runDir} was recorded with the built-in scenario "${record.scenario}", which a file cannot stand in for; ` +
        `to iterate on its check, copy it (ccrepro new my-${record.scenario} --from ${record.scenario}), run the copy once, and check that run with --scenario`,
      "SCENARIO_MISMATCH",
    );
  }
  const judgedWith: JudgedWith = {
    kind: "file",
    path: path.resolve(file),
    sha256: readSha256(file) ?? "",
    recordedSha256: record.source.sha256,
    runCopy: path.join(runDir, record.source.copy),
  };
  const before = judgedBeforeCheck(runDir);
  if ("early" in before) return { ...before.early, judgedWith, recordedVerdict: record.result?.verdict ?? null, warnings: [], confinement: null };
  // The file is loaded and judged in the confined child too: this process never imports a scenario file for a check.
  const checked = await confinedCheck(runDir, file, file, how);
  if (checked.name !== null && checked.name !== record.scenario) {
    throw new UserError(
      `scenario file ${file} defines "${checked.name}", but ${runDir} was recorded with "${record.scenario}"; pass the file that defines "${record.scenario}" ` +
        `(the run's own copy is ${path.join(runDir, record.source.copy)}), or check a run of "${checked.name}"`,
      "SCENARIO_MISMATCH",
    );
  }
  return { ...checked.audited, judgedWith, recordedVerdict: record.result?.verdict ?? null, warnings: [], confinement: checked.confinement };
}
