// Finds the verdicts --reuse may take: matching runs under the given directories, tied to a release by its binary.
import type { CheckResult } from "../core/verdict.ts";
import type { Driver, Scenario } from "../kit/scenario.ts";
import { checkRecordedRun } from "../pipeline/check-recorded-run.ts";
import { driverFor, sdkFor } from "../pipeline/drivers.ts";
import { matchingRuns } from "../pipeline/run-match.ts";
import type { ReleaseRunner } from "../pipeline/run-scenario.ts";
import type { ReusedRun } from "./types.ts";

export interface ReuseQuery {
  dirs: readonly string[];
  scenario: Scenario;
  params: Record<string, unknown>;
  drive: { driver?: Driver; sdk?: string };
  // The releases the bisection may run, old endpoint to new.
  versions: readonly string[];
  // The sha256 of the executable a run of `version` would use (installing it if need be); rejecting means it cannot
  // be installed, and then nothing is reused for it (the run reports why).
  binarySha: (version: string) => Promise<string>;
  // How a matching run is judged (default: today's check of its directory, judgedNow). A verdict as it was recorded
  // is its day's check: a check fixed since would bring the wrong verdict back.
  judge?: (runDir: string, recorded: CheckResult) => CheckResult;
}

// A recorded run judged by today's check of the bisection's scenario (the same scenario, file byte for byte, that the
// new runs would use: matchingRuns ties them).
function judgedNow(scenario: Scenario): (runDir: string) => CheckResult {
  return (runDir) => checkRecordedRun(runDir, scenario);
}

export interface ReusedVerdicts {
  byVersion: Map<string, ReusedRun[]>;
  // Run directories looked at, and how many of them ask this bisection's question of a release in its range.
  scanned: number;
  matched: number;
}

export async function findReusedVerdicts(query: ReuseQuery): Promise<ReusedVerdicts> {
  const driver = driverFor(query.scenario, query.drive.driver);
  // Runs through another SDK release answered another question; "latest" is resolved as a run would resolve it.
  const sdkVersion = (await sdkFor(driver, query.drive.sdk))?.version;
  const { scanned, matches } = matchingRuns(query.dirs, { scenario: query.scenario, params: query.params, driver, sdkVersion });
  const judge = query.judge ?? judgedNow(query.scenario);
  const byVersion = new Map<string, ReusedRun[]>();
  let matched = 0;
  for (const version of query.versions) {
    const runs = matches.filter((run) => run.version === version);
    if (runs.length === 0) continue;
    const sha = await query.binarySha(version).catch(() => undefined);
    // A run of another build under the same version number (a re-published or local binary) is not this release.
    const same = runs.filter((run) => run.sha256 === sha);
    // A run today's check cannot judge (ERROR) stands in for nothing.
    const judged = same.map(({ runDir, result }) => ({ runDir, result: judge(runDir, result) })).filter((run) => run.result.verdict !== "ERROR");
    if (judged.length === 0) continue;
    matched += judged.length;
    byVersion.set(version, judged);
  }
  return { byVersion, scanned, matched };
}

// The binary a run of a release would use is the cached release's: installing it (a cache hit, mostly) gives its sha256.
export function releaseBinarySha(runner: Pick<ReleaseRunner, "prefetch">): (version: string) => Promise<string> {
  return async (version) => (await runner.prefetch(version)).sha256;
}

// The line said before a bisection that reuses: what was looked at and what matched.
export function reuseNote(found: ReusedVerdicts, dirs: readonly string[]): string {
  return (
    `--reuse: ${found.scanned} run director${found.scanned === 1 ? "y" : "ies"} under ${dirs.join(", ")}; ` +
    `${found.matched} match this bisection (scenario, parameters, driver, plan, binary) for ${found.byVersion.size} release(s) in range`
  );
}
