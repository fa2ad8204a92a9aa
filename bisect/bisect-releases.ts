// A bisection over real releases: claude's from npm (or the Agent SDK's, claude pinned), runs through the pipeline,
// verdicts reused from earlier run directories, downloads ahead of the runs. The CLI parses, calls one of these, prints.
import { UserError } from "../core/errors.ts";
import type { Driver, Scenario } from "../kit/scenario.ts";
import { bisectAxis } from "../pipeline/bisect-axis.ts";
import { releaseRunner, type ReleaseRunner } from "../pipeline/run-scenario.ts";
import { resolveVersions, versionsBetween } from "../releases/registry.ts";
import { installSdk } from "../releases/sdk-install.ts";
import { changelogLinks } from "./changelog.ts";
import { outcomeFor } from "./outcome.ts";
import { findReusedVerdicts, releaseBinarySha, reuseNote } from "./reuse-dirs.ts";
import { runBisect } from "./run-bisect.ts";
import type { BisectResult, ProgressEvent, ReusedRun, RunnerReport } from "./types.ts";

export interface ReleaseBisect {
  scenario: Scenario;
  // The scenario word as given, so the resume command names a scenario file by its path.
  scenarioWord: string;
  params: Record<string, unknown>;
  // The parameters as typed (`--param k=v`), for the resume command.
  rawParams: Record<string, string>;
  drive: { driver?: Driver; sdk?: string };
  old: string;
  new: string;
  repeat: number;
  finding?: string;
  runsDir: string;
  // Directories searched (recursively) for run directories whose verdicts may stand in for runs.
  reuse: readonly string[];
  maxRuns?: number;
  checkChangelog: boolean;
  // Options the resume command repeats as given (axis, --claude, --driver, --sdk).
  options: readonly (readonly [string, string])[];
  onProgress: (event: ProgressEvent) => void;
  // A line about what --reuse found, before the bisection starts.
  onNote: (line: string) => void;
  signal: AbortSignal;
}

// The one release a bisection's end (--old, --new) names.
export async function singleVersion(word: string, flag: string): Promise<string> {
  const versions = await resolveVersions(word);
  if (versions.length !== 1) {
    throw new UserError(`${flag} ${word} names ${versions.length} releases; give exactly one (a version or latest)`, versions.length === 0 ? "NO_MATCHING_VERSIONS" : "AMBIGUOUS_VERSION");
  }
  return versions[0]!;
}

// One run of one release, reported as data: an install failure or a harness error is a skip, never a throw.
function bisectRunner(runner: ReleaseRunner, subject: Parameters<ReleaseRunner["run"]>[0]) {
  return async (version: string, signal: AbortSignal): Promise<RunnerReport> => {
    const started = performance.now();
    const run = await runner.run(subject, version, signal);
    if (!run.installed) return { error: "install", message: run.message };
    const { runDir, record } = run;
    const ms = performance.now() - started;
    if (record.result.verdict === "ERROR") return { error: "harness", message: record.result.reason, runDir, ms };
    return { verdict: record.result.verdict, reason: record.result.reason, findings: record.result.findings.map((f) => f.id), runDir, ms };
  };
}

async function fetchChangelog(): Promise<string> {
  const response = await fetch(changelogLinks("0.0.0").raw, { signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.text();
}

// Bisects claude releases between two versions (words such as latest resolved to one release each).
export async function bisectClaudeReleases(input: ReleaseBisect): Promise<BisectResult> {
  const [old, newer] = await Promise.all([singleVersion(input.old, "--old"), singleVersion(input.new, "--new")]);
  const candidates = await versionsBetween(old, newer);
  const runner = releaseRunner(input.runsDir);
  let reused: Map<string, ReusedRun[]> | undefined;
  if (input.reuse.length > 0) {
    const found = await findReusedVerdicts({
      dirs: input.reuse,
      scenario: input.scenario,
      params: input.params,
      drive: input.drive,
      versions: [old, ...candidates, newer],
      binarySha: releaseBinarySha(runner),
    });
    input.onNote(reuseNote(found, input.reuse));
    reused = found.byVersion;
  }
  return runBisect({
    scenario: input.scenarioWord,
    old,
    new: newer,
    candidates,
    repeat: input.repeat,
    finding: input.finding,
    rerun: { params: input.rawParams, runsDir: input.runsDir, options: input.options, reuse: input.reuse },
    reused,
    maxRuns: input.maxRuns,
    outcomeOf: outcomeFor(input.finding),
    runOnce: bisectRunner(runner, { scenario: input.scenario, params: input.params, ...input.drive }),
    prefetch: async (version) => {
      const release = await runner.prefetch(version);
      return { bytes: release.downloadedBytes, ms: release.fetchMs, fromCache: release.fromCache };
    },
    // Opt-in: the changelog lives outside the package registry, which is all some machines can reach.
    fetchChangelog: input.checkChangelog ? fetchChangelog : undefined,
    onProgress: input.onProgress,
    signal: input.signal,
  });
}

// Bisects Agent SDK releases with one claude release pinned: each run is that release driven through one SDK release.
export async function bisectSdkReleases(input: ReleaseBisect & { claude: string }): Promise<BisectResult & { claude: string }> {
  if (input.reuse.length > 0) {
    // Reused runs are tied to a release by its claude binary; on this axis the SDK release varies instead.
    throw new UserError("--reuse works on the claude axis only; drop it with --axis sdk", "CONFLICTING_OPTIONS");
  }
  const claude = await singleVersion(input.claude, "--claude");
  const axis = await bisectAxis(input.old, input.new);
  const runner = releaseRunner(input.runsDir);
  const once = (sdk: string) => bisectRunner(runner, { scenario: input.scenario, params: input.params, driver: "sdk", sdk });
  const result = await runBisect({
    scenario: input.scenario.name,
    ...axis,
    repeat: input.repeat,
    finding: input.finding,
    rerun: { params: input.rawParams, runsDir: input.runsDir, options: input.options },
    maxRuns: input.maxRuns,
    outcomeOf: outcomeFor(input.finding),
    runOnce: (sdk, signal) => once(sdk)(claude, signal),
    prefetch: async (version) => {
      const started = performance.now();
      const installed = await installSdk(version);
      return { bytes: installed.installedBytes, ms: performance.now() - started, fromCache: installed.fromCache };
    },
    onProgress: input.onProgress,
    signal: input.signal,
  });
  return { ...result, claude };
}
