// `ccrepro bisect`: which release broke (or fixed) a scenario, found by running real releases from npm.
import type { Command } from "commander";
import { changelogLinks } from "../../bisect/changelog.ts";
import { outcomeFor } from "../../bisect/outcome.ts";
import { formatProgress, formatSummary } from "../../bisect/format.ts";
import { runBisect } from "../../bisect/run-bisect.ts";
import type { RunnerReport } from "../../bisect/types.ts";
import { UserError } from "../../core/errors.ts";
import { resolveVersions, versionsBetween } from "../../releases/registry.ts";
import { releaseRunner, type ReleaseRunner } from "../../pipeline/run-scenario.ts";
import type { CliContext } from "../context.ts";
import { parseScenarioParams, withRunOptions } from "../params.ts";
import { wholeNumber } from "../numbers.ts";

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

async function fetchChangelog(): Promise<string> {
  const response = await fetch(changelogLinks("0.0.0").raw, { signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.text();
}

export function registerBisectCommand(program: Command, ctx: CliContext): void {
  withRunOptions(program.command("bisect"))
    .description("find the adjacent pair of releases where a scenario's outcome changes")
    .argument("<scenario>", "scenario name")
    .requiredOption("--old <version>", "an older release (its outcome is the 'old' class)")
    .requiredOption("--new <version>", "a newer release (its outcome is the 'new' class); latest works")
    .option("--repeat <n>", "runs per release; disagreeing repeats mark it flaky", wholeNumber("--repeat", 1, 20), 1)
    .option("--finding <id>", "bisect on the presence of this finding instead of the verdict")
    .option("--json", "print the result as JSON")
    .option("--check-changelog", "check that both releases' changelog entries are reachable")
    .action(async (name: string, options) => {
      const scenario = ctx.scenarioNamed(name);
      const params = parseScenarioParams(scenario, options.param);
      const [old, newer] = await Promise.all([singleVersion(options.old, "--old"), singleVersion(options.new, "--new")]);
      const runner = releaseRunner(options.runsDir);
      const result = await runBisect({
        scenario: scenario.name,
        old,
        new: newer,
        candidates: await versionsBetween(old, newer),
        repeat: options.repeat,
        finding: options.finding,
        rerun: { params: options.param, runsDir: options.runsDir },
        outcomeOf: outcomeFor(options.finding),
        runOnce: bisectRunner(runner, { scenario, params }),
        prefetch: async (version) => {
          const release = await runner.prefetch(version);
          return { bytes: release.downloadedBytes, ms: release.fetchMs };
        },
        // Opt-in: the changelog lives outside the package registry, which is all some machines can reach.
        fetchChangelog: options.checkChangelog ? fetchChangelog : undefined,
        onProgress: (event) => ctx.note(formatProgress(event)),
        signal: ctx.interruptSignal(),
      });
      ctx.print(options.json ? JSON.stringify(result, null, 2) : formatSummary(result));
    });
}
