// Which recorded runs asked the same question a new run would: same scenario, parameters, driver, the same plan (what
// the run does: replies, steps, limits) and a finished verdict.
import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { CheckResult } from "../core/verdict.ts";
import { readRunRecord, type RunRecord } from "../harness/run-record.ts";
import { runLayout } from "../harness/run-layout.ts";
import type { Scenario } from "../kit/scenario.ts";
import { originOf } from "./scenario-source.ts";
import { paramsAddedSince, parseParams, sameParams } from "../kit/scenario-params.ts";
import { planFingerprint } from "../harness/plan.ts";
import { recordedDriver } from "./drivers.ts";
import { runPlanOf } from "./run-plan.ts";

// Every run directory under `root` (or `root` itself), found by its run.json. A run directory holds no other runs, so
// the walk stops there; symbolic links are not followed, so a link back up the tree cannot loop.
export function findRunDirs(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    if (fs.existsSync(runLayout(dir).runJson)) {
      found.push(dir);
      return;
    }
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      // Unreadable or gone: nothing to reuse there.
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
    }
  };
  walk(path.resolve(root));
  return found;
}

export interface RunQuestion {
  scenario: Scenario;
  // As the new run would get them (parsed or raw: both go through the schema).
  params: Record<string, unknown>;
  // The driver the new run would use, as run.json records it (`driverFor` of the scenario and --driver).
  driver: string;
  // For the sdk driver, the resolved Agent SDK release; runs through another SDK asked a different question.
  sdkVersion?: string;
}

export interface MatchingRun {
  runDir: string;
  // The release as the binary reported it; null when the probe failed (such a run cannot be tied to a release).
  version: string | null;
  // The executable the run used: a caller ties the run to a release only when this is that release's binary.
  sha256: string;
  startedAt: string;
  result: CheckResult;
}

// Why a finished run says nothing reusable: unjudged, ERROR, or cut short (its logs may be partial).
function judgedResult(record: RunRecord): CheckResult | undefined {
  if (!record.recordingComplete || record.result === null || record.result.verdict === "ERROR") return undefined;
  return record.result;
}

function sameScenario(scenario: Scenario, record: RunRecord): boolean {
  if (record.scenario !== scenario.name) return false;
  const origin = originOf(scenario);
  // A file scenario is the same only byte for byte: an edited file may test something else under the same name.
  if (origin.kind === "file") return record.source?.kind === "file" && record.source.sha256 === origin.sha256;
  return record.source === undefined || record.source.kind === "builtin";
}

function sameDriver(question: RunQuestion, record: RunRecord): boolean {
  if (record.driver !== question.driver) return false;
  return question.sdkVersion === undefined || record.sdk?.version === question.sdkVersion;
}

// The fingerprint of the run the question would make; null when its parameters do not parse (nothing matches).
function planOfQuestion(question: RunQuestion): string | null {
  const parsed = parseParams(question.scenario, question.params);
  const driver = recordedDriver(question.driver);
  return parsed.ok && driver ? planFingerprint(runPlanOf(question.scenario, parsed.params, driver)) : null;
}

// The runs under `roots` that answer `question`, oldest first, and how many run directories were looked at; a
// directory whose run.json cannot be read is passed over.
export function matchingRuns(roots: readonly string[], question: RunQuestion): { scanned: number; matches: MatchingRun[] } {
  const plan = planOfQuestion(question);
  const seen = new Set<string>();
  const matches: MatchingRun[] = [];
  for (const runDir of roots.flatMap(findRunDirs)) {
    if (seen.has(runDir)) continue;
    seen.add(runDir);
    let record: RunRecord;
    try {
      record = readRunRecord(runLayout(runDir).runJson);
    } catch {
      continue;
    }
    const result = judgedResult(record);
    if (result === undefined || !sameScenario(question.scenario, record) || !sameDriver(question, record)) continue;
    if (!sameParams(question.scenario, record.params, question.params) || paramsAddedSince(question.scenario, record.params).length > 0) continue;
    if (plan === null || record.planSha256 !== plan) continue;
    matches.push({ runDir, version: record.claude.reportedVersion, sha256: record.claude.sha256, startedAt: record.startedAt, result });
  }
  return { scanned: seen.size, matches: matches.sort((a, b) => a.startedAt.localeCompare(b.startedAt)) };
}
