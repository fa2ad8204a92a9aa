// The one join: a scenario and a claude binary go in, the harness records the run, the checker judges its
// directory, and the verdict is written into run.json. run, bench, bisect, nightly and sweep all come through here.
import { recordRun } from "../harness/record-run.ts";
import { recordVerdict, type RunRecord } from "../harness/run-record.ts";
import { runLayout } from "../harness/run-layout.ts";
import type { CheckResult } from "../core/verdict.ts";
import { installRelease, unpinRelease, type CacheOptions, type InstalledRelease } from "../releases/release-cache.ts";
import type { ResolvedClaude } from "../releases/resolve.ts";
import type { Scenario } from "../kit/scenario.ts";
import type { Driver } from "../kit/scenario.ts";
import type { CacheAudit } from "../checker/cache-audit.ts";
import { checkRecordedRun, checkRecordedRunAudited } from "./check-recorded-run.ts";
import { originOf } from "./scenario-source.ts";
import { UserError } from "../core/errors.ts";
import { describeDiskFault, isDiskFault } from "../harness/record-faults.ts";
import { harnessErrorResult } from "./verdict-rules.ts";
import { confinedCheck } from "./confined-check.ts";
import { driverFor, sdkFor } from "./drivers.ts";
import { runPlanOf } from "./run-plan.ts";
import { recordUnsupportedRun } from "../harness/record-unsupported.ts";
import { probeBinary, type BinaryProbe } from "../releases/capabilities.ts";
import { describeNeed, missingNeeds, type Need } from "../releases/needs.ts";
import { scenarioNeeds } from "../kit/scenario.ts";
import { defaultParams } from "../kit/scenario-params.ts";

export interface ScenarioRun {
  scenario: Scenario;
  // Already validated against the scenario's parameter schema.
  params: Record<string, unknown>;
  claude: ResolvedClaude;
  // The word the user gave (`latest`, a version, a path), recorded as asked.
  requested: string;
  runsDir: string;
  // Aborts the run (e.g. Ctrl-C): steps stop, cleanup still runs, the verdict is ERROR.
  abort?: AbortSignal;
  onProgress?: (line: string) => void;
  // The driver asked for (--driver); the scenario's default when absent. An unsupported one is a UserError.
  driver?: Driver;
  // The Agent SDK version word for the sdk driver (--sdk); DEFAULT_SDK_VERSION when absent.
  sdk?: string;
  // Record the run's API traffic into this recording file too (`ccrepro run --record-api`).
  recordApi?: string;
}

export interface CheckedRun {
  runDir: string;
  record: RunRecord & { result: CheckResult };
  // The cache audit the result's notes came from, for the text output's folded lines; absent or null when not audited.
  cache?: CacheAudit | null;
}

// The needs the release lacks, from its cached probe (seconds on first use, then instant).
export async function unsupportedNeeds(scenario: Scenario, params: Record<string, unknown>, claude: ResolvedClaude, driver?: Driver): Promise<{ probe: BinaryProbe; missing: Need[] }> {
  const probe = await probeBinary(claude);
  return { probe, missing: missingNeeds(scenarioNeeds(scenario, params, driver), probe) };
}

export function unsupportedMessage(missing: readonly Need[]): string {
  return `needs ${missing.map(describeNeed).join(", ")}, which this release lacks`;
}

export interface ScenarioSupport {
  scenario: string;
  supported: boolean;
  // Empty when supported; else the missing needs and the UNSUPPORTED message a run would give.
  missing: Need[];
  message: string | null;
}

// Which scenarios (with their default parameters) a binary can run, and why not: `ccrepro scenarios --claude V`.
export async function scenarioSupport(scenarios: readonly Scenario[], claude: ResolvedClaude): Promise<{ probe: BinaryProbe; scenarios: ScenarioSupport[] }> {
  const probe = await probeBinary(claude);
  return {
    probe,
    scenarios: scenarios.map((scenario) => {
      const missing = missingNeeds(scenarioNeeds(scenario, defaultParams(scenario)), probe);
      return { scenario: scenario.name, supported: missing.length === 0, missing, message: missing.length > 0 ? unsupportedMessage(missing) : null };
    }),
  };
}

export async function runAndCheck(run: ScenarioRun): Promise<CheckedRun> {
  const { scenario, params } = run;
  const driver = driverFor(scenario, run.driver);
  const { probe, missing } = await unsupportedNeeds(scenario, params, run.claude, driver);
  // A binary that reports no version is left to the harness, which says so as an ERROR.
  if (missing.length > 0 && probe.reportedVersion !== null) {
    const started = performance.now();
    const { runDir } = recordUnsupportedRun({
      plan: { scenario: scenario.name, params, source: originOf(scenario) },
      driver,
      claude: run.claude,
      probe,
      requested: run.requested,
      runsDir: run.runsDir,
      missing,
      message: unsupportedMessage(missing),
    });
    const result = checkRecordedRun(runDir, scenario);
    const record = recordVerdict(runLayout(runDir).runJson, result, performance.now() - started);
    return { runDir, record: { ...record, result } };
  }
  const sdk = await sdkFor(driver, run.sdk);
  const plan = runPlanOf(scenario, params, driver);
  let recorded;
  try {
    recorded = await recordRun({
    plan,
    claude: run.claude,
    requested: run.requested,
    runsDir: run.runsDir,
    abort: run.abort,
    onProgress: run.onProgress,
    sdk,
    driverLabel: driver,
    recordApi: run.recordApi,
  });
  } catch (error) {
    // A disk that is full before the run starts: nothing ran, nothing to reap; a message, not a stack.
    if (isDiskFault(error)) throw new UserError(describeDiskFault(error, run.runsDir), "CANNOT_RECORD");
    throw error;
  }
  const { runDir } = recorded;
  const started = performance.now();
  const origin = originOf(scenario);
  // A file scenario's check runs as `ccrepro check` runs it: confined, in a child with a time limit, so a check that
  // loops is an ERROR naming the file, and what a check may do here is what it may do on a maintainer's machine.
  const { result, cache } = origin.kind === "file" ? (await confinedCheck(runDir, origin.path, origin.path, { abort: run.abort })).audited : checkRecordedRunAudited(runDir, scenario);
  if (recorded.unwritten !== undefined) {
    // run.json could not take the end of the recording: the verdict is that harness error, and run.json stays incomplete.
    const failed = harnessErrorResult(`${recorded.unwritten}; run.json is left marked incomplete`);
    return { runDir, record: { ...recorded.record, result: failed }, cache: null };
  }
  let record;
  try {
    record = recordVerdict(runLayout(runDir).runJson, result, performance.now() - started);
  } catch (error) {
    if (!isDiskFault(error)) throw error;
    const failed = harnessErrorResult(`${describeDiskFault(error, runDir)}; the verdict could not be written to run.json`);
    return { runDir, record: { ...recorded.record, result: failed }, cache: null };
  }
  return { runDir, record: { ...record, result }, cache };
}

// A release that could not be installed is an outcome too, for callers that run many releases (bisect, nightly,
// sweep): it says nothing about the scenario, and the others go on.
export type ReleaseRun = ({ installed: true } & CheckedRun) | { installed: false; message: string };

export interface ReleaseRunner {
  run(subject: Pick<ScenarioRun, "scenario" | "params" | "driver" | "sdk">, version: string, abort?: AbortSignal): Promise<ReleaseRun>;
  // Installs without running, to warm the cache ahead of the runs.
  prefetch(version: string): Promise<InstalledRelease>;
  // What the release lacks of the scenario's needs today (its cached probe), so a verdict recorded under older needs is
  // not taken as this release's answer; absent in stand-ins, which know no needs.
  missingNeeds?(subject: Pick<ScenarioRun, "scenario" | "params" | "driver">, version: string): Promise<Need[]>;
}

// Runs one scenario on releases by version. Each release is installed once however many runs wait for it, and is
// unpinned once its announced runs are done, so a long matrix stays within the cache's size cap. Without
// `runsPerVersion`, every run unpins its release afterwards.
export function releaseRunner(
  runsDir: string,
  options: { cache?: CacheOptions; runsPerVersion?: ReadonlyMap<string, number>; onProgress?: (line: string) => void } = {},
): ReleaseRunner {
  const installs = new Map<string, Promise<InstalledRelease>>();
  const runsLeft = new Map(options.runsPerVersion ?? []);
  const install = (version: string) => {
    let pending = installs.get(version);
    if (!pending) {
      pending = installRelease(version, options.cache);
      // A failed install may be retried by a later run.
      pending.catch(() => installs.delete(version));
      installs.set(version, pending);
    }
    return pending;
  };
  const done = async (version: string) => {
    const left = (runsLeft.get(version) ?? 1) - 1;
    runsLeft.set(version, left);
    if (left <= 0) {
      installs.delete(version);
      await unpinRelease(version, options.cache);
    }
  };
  return {
    async run(subject, version, abort) {
      let claude: InstalledRelease;
      try {
        claude = await install(version);
      } catch (error) {
        await done(version);
        return { installed: false, message: (error as Error).message };
      }
      try {
        const checked = await runAndCheck({ ...subject, claude, requested: version, runsDir, abort, onProgress: options.onProgress });
        return { installed: true, ...checked };
      } finally {
        await done(version);
      }
    },
    async prefetch(version) {
      const release = await installRelease(version, options.cache);
      // A prefetch only warms the cache; the run that needs the release pins it again.
      await unpinRelease(version, options.cache);
      return release;
    },
    async missingNeeds(subject, version) {
      const release = await this.prefetch(version);
      const driver = driverFor(subject.scenario, subject.driver);
      return (await unsupportedNeeds(subject.scenario, subject.params, release, driver)).missing;
    },
  };
}
