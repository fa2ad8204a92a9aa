// `ccrepro bisect`: which release broke (or fixed) a scenario, found by running real releases from npm.
import { Option, type Command } from "commander";
import { changelogLinks } from "../../bisect/changelog.ts";
import { outcomeFor } from "../../bisect/outcome.ts";
import { formatProgress, formatSummary } from "../../bisect/format.ts";
import { runBisect } from "../../bisect/run-bisect.ts";
import type { RunnerReport } from "../../bisect/types.ts";
import { UserError } from "../../core/errors.ts";
import { installSdk } from "../../releases/sdk-install.ts";
import { resolveVersions, versionsBetween } from "../../releases/registry.ts";
import { releaseRunner, type ReleaseRunner } from "../../pipeline/run-scenario.ts";
import type { CliContext } from "../context.ts";
import { driverOptions, parseScenarioParams, withRunOptions } from "../params.ts";
import { bisectAxis } from "../../pipeline/bisect-axis.ts";
import { wholeNumber } from "../numbers.ts";
import { createProgress, downloadLine } from "../progress.ts";

async function singleVersion(word: string, flag: string): Promise<string> {
  const versions = await resolveVersions(word);
  if (versions.length !== 1) {
    throw new UserError(`${flag} ${word} names ${versions.length} releases; give exactly one (a version or latest)`, "BAD_ARGUMENT");
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

// One run of the pinned claude release through one SDK release, reported like bisectRunner's.
function sdkBisectRunner(runner: ReleaseRunner, subject: Parameters<ReleaseRunner["run"]>[0], claude: string) {
  const once = (sdk: string) => bisectRunner(runner, { ...subject, sdk });
  return (sdk: string, signal: AbortSignal): Promise<RunnerReport> => once(sdk)(claude, signal);
}

// The options a resumed bisection must repeat besides parameters and runs directory.
function rerunOptions(options: { axis: string; claude?: string; driver?: string; sdk?: string }): [string, string][] {
  const words: [string, string][] = [];
  if (options.axis !== "claude") words.push(["--axis", options.axis]);
  if (options.claude !== undefined) words.push(["--claude", options.claude]);
  if (options.driver !== undefined) words.push(["--driver", options.driver]);
  if (options.sdk !== undefined) words.push(["--sdk", options.sdk]);
  return words;
}

async function fetchChangelog(): Promise<string> {
  const response = await fetch(changelogLinks("0.0.0").raw, { signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.text();
}

export function registerBisectCommand(program: Command, ctx: CliContext): void {
  withRunOptions(program.command("bisect"))
    .description("find the adjacent pair of releases where a scenario's outcome changes")
    .argument("<scenario>", "a scenario name or a scenario file's path")
    .requiredOption("--old <version>", "an older release (its outcome is the 'old' class)")
    .requiredOption("--new <version>", "a newer release (its outcome is the 'new' class); latest works")
    .addOption(new Option("--axis <axis>", "what --old/--new are releases of: claude, or the Agent SDK with --claude pinned").choices(["claude", "sdk"]).default("claude"))
    .option("--claude <version>", "with --axis sdk: the one claude release every run uses")
    .option("--repeat <n>", "runs per release; disagreeing repeats mark it flaky", wholeNumber("--repeat", 1, 20), 1)
    .option("--finding <id>", "bisect on the presence of this finding instead of the verdict")
    .option("--json", "print the result as JSON")
    .option("--check-changelog", "check that both releases' changelog entries are reachable")
    .action(async (name: string, options) => {
      const scenario = await ctx.scenarioNamed(name);
      const params = parseScenarioParams(scenario, options.param);
      const drive = driverOptions(options);
      const runner = releaseRunner(options.runsDir);
      const rerun = { params: options.param, runsDir: options.runsDir, options: rerunOptions(options) };
      if (options.axis === "sdk") {
        // The CLI pinned, the SDK bisected: each run is the pinned release driven through one SDK release.
        if (options.claude === undefined) throw new UserError("--axis sdk needs --claude VERSION, the release every run uses", "BAD_ARGUMENT");
        if (drive.sdk !== undefined) throw new UserError("--axis sdk takes the SDK releases from --old/--new; drop --sdk", "BAD_ARGUMENT");
        if (drive.driver === "headless") throw new UserError("--axis sdk runs the sdk driver; drop --driver headless", "BAD_ARGUMENT");
        const claude = await singleVersion(options.claude, "--claude");
        const axis = await bisectAxis(options.old, options.new);
        const result = await runBisect({
          scenario: scenario.name,
          ...axis,
          repeat: options.repeat,
          finding: options.finding,
          rerun,
          outcomeOf: outcomeFor(options.finding),
          runOnce: sdkBisectRunner(runner, { scenario, params, driver: "sdk" }, claude),
          prefetch: async (version) => {
            const started = performance.now();
            const installed = await installSdk(version);
            return { bytes: installed.installedBytes, ms: performance.now() - started };
          },
          onProgress: (event) => ctx.note(formatProgress(event)),
          signal: ctx.interruptSignal(),
        });
        ctx.print(options.json ? JSON.stringify({ axis: "sdk", claude, ...result }, null, 2) : `claude ${claude} pinned; Agent SDK releases bisected\n${formatSummary(result)}`);
        return;
      }
      if (options.claude !== undefined) throw new UserError("--claude pins the CLI for --axis sdk; on the claude axis the releases come from --old/--new", "BAD_ARGUMENT");
      const [old, newer] = await Promise.all([singleVersion(options.old, "--old"), singleVersion(options.new, "--new")]);
      // Steps on a bar (a terminal) or one line each; the total is bisect's own estimate, so it can grow.
      const progress = createProgress(`bisect ${scenario.name}`);
      let planned = false;
      const result = await runBisect({
        // The word as given, so the resume command it prints names a scenario file by its path.
        scenario: name,
        old,
        new: newer,
        candidates: await versionsBetween(old, newer),
        repeat: options.repeat,
        finding: options.finding,
        rerun,
        outcomeOf: outcomeFor(options.finding),
        runOnce: bisectRunner(runner, { scenario, params, ...drive }),
        prefetch: async (version) => {
          const release = await runner.prefetch(version);
          return { bytes: release.downloadedBytes, ms: release.fetchMs };
        },
        // Opt-in: the changelog lives outside the package registry, which is all some machines can reach.
        fetchChangelog: options.checkChangelog ? fetchChangelog : undefined,
        onProgress: (event) => {
          if (event.kind === "start" && !planned) {
            planned = true;
            progress.start(event.estimatedTotal);
          }
          if (event.kind === "download") progress.event(downloadLine(event.version, event.bytes, event.ms));
          else progress.event(formatProgress(event), event.kind === "step" ? 1 : 0);
        },
        signal: ctx.interruptSignal(),
      }).finally(() => progress.stop());
      ctx.print(options.json ? JSON.stringify(result, null, 2) : formatSummary(result));
    });
}
