// `ccrepro bisect`: which release broke (or fixed) a scenario, found by running real releases from npm.
import { Option, type Command } from "commander";
import { bisectClaudeReleases, bisectSdkReleases, singleVersion, type ReleaseBisect } from "../../bisect/bisect-releases.ts";
import { bisectClaudeRates, formatRateStep, formatRateSummary, RateBisectStop } from "../../bisect/bisect-rates.ts";
import { BisectError } from "../../bisect/errors.ts";
import { formatProgress, formatStop, formatSummary } from "../../bisect/format.ts";
import type { ProgressEvent } from "../../bisect/types.ts";
import { UserError } from "../../core/errors.ts";
import { EXIT_BISECT_BUDGET_SPENT, EXIT_BISECT_NO_CHANGE, FLAKY_EXIT } from "../../core/exit-codes.ts";
import type { CliContext } from "../context.ts";
import { driverOptions, parseScenarioParams, withRunOptions } from "../params.ts";
import { wholeNumber } from "../numbers.ts";
import { createProgress, downloadLine } from "../progress.ts";


// The options a resumed bisection must repeat besides parameters, runs directory and reused directories. --max-runs is
// left out: the printed command carries the bisection to its answer; add it again to keep spending in portions.
function rerunOptions(options: { axis: string; claude?: string; driver?: string; sdk?: string }): [string, string][] {
  const words: [string, string][] = [];
  if (options.axis !== "claude") words.push(["--axis", options.axis]);
  if (options.claude !== undefined) words.push(["--claude", options.claude]);
  if (options.driver !== undefined) words.push(["--driver", options.driver]);
  if (options.sdk !== undefined) words.push(["--sdk", options.sdk]);
  return words;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

// How a rate bisection that gave no answer exits: a kind added later must say its code here (the switch is exhaustive).
function rateStopExit(kind: RateBisectStop["failure"]["kind"]): number {
  switch (kind) {
    case "budget-spent":
      return EXIT_BISECT_BUDGET_SPENT;
    // No signal, or the same rate, at both ends: no change to find in this range, which is not a harness failure.
    case "no-signal":
    case "same-rate":
      return EXIT_BISECT_NO_CHANGE;
  }
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
    .option("--reuse <dir>", "take verdicts from matching run directories under DIR instead of running them again (repeatable)", collect, [])
    .option("--confidence <p>", "bisect a rate: calibrate at the bad end, as many runs per release as this confidence takes (e.g. 0.95); for races", (v: string) => {
      const p = Number(v);
      if (!(p > 0 && p < 1)) throw new UserError(`--confidence takes a number between 0 and 1, not ${v}`, "BAD_ARGUMENT");
      return p;
    })
    .option("--max-runs <n>", "stop once N runs were started (reused verdicts are free); prints the range left and the command that resumes", wholeNumber("--max-runs", 0, 10_000))
    .action(async (name: string, options) => {
      const scenario = await ctx.scenarioNamed(name);
      const input: ReleaseBisect = {
        scenario,
        scenarioWord: name,
        params: parseScenarioParams(scenario, options.param),
        rawParams: options.param,
        drive: driverOptions(options),
        old: options.old,
        new: options.new,
        repeat: options.repeat,
        finding: options.finding,
        runsDir: options.runsDir,
        reuse: options.reuse,
        maxRuns: options.maxRuns,
        checkChangelog: options.checkChangelog === true,
        options: rerunOptions(options),
        onProgress: (event) => ctx.note(formatProgress(event)),
        onNote: (line) => ctx.note(line),
        signal: ctx.interruptSignal(),
      };
      if (options.confidence !== undefined) {
        if (options.axis !== "claude" || options.repeat !== 1) {
          throw new UserError("--confidence picks its own runs per release on the claude axis: drop --axis sdk and --repeat", "CONFLICTING_OPTIONS");
        }
        try {
          const result = await bisectClaudeRates({
            scenario,
            params: input.params,
            drive: input.drive,
            old: await singleVersion(options.old, "--old"),
            new: await singleVersion(options.new, "--new"),
            finding: options.finding,
            confidence: options.confidence,
            runsDir: options.runsDir,
            reuse: options.reuse,
            maxRuns: options.maxRuns,
            rerun: { scenario: name, params: options.param, options: rerunOptions(options) },
            onStep: (step) => ctx.note(formatRateStep(step)),
            onNote: (line) => ctx.note(line),
            onRun: (version, seen, runDir) => ctx.note(`  ${version}: ${seen === null ? "said nothing" : seen ? "signal" : "no signal"}${runDir ? ` (${runDir})` : ""}`),
            signal: input.signal,
          });
          ctx.print(options.json ? JSON.stringify(result, null, 2) : formatRateSummary(result));
          // An unconfirmed pair is a lead, not an answer: the flaky code, as for run --repeat.
          if (!result.confirmed) ctx.setExit(FLAKY_EXIT);
        } catch (error) {
          if (!(error instanceof RateBisectStop)) throw error;
          const { kind, runs, reused } = error.failure;
          const resume = error.resume === undefined ? "" : `\nresume (this bisection's runs reused): ${error.resume}`;
          ctx.print(options.json ? JSON.stringify({ stopped: kind, message: error.message, runs, reused, resume: error.resume }, null, 2) : `${error.message} (after ${runs} runs started, ${reused} reused)${resume}`);
          ctx.setExit(rateStopExit(error.failure.kind));
        }
        return;
      }
      try {
        if (options.axis === "sdk") {
          if (options.claude === undefined) throw new UserError("--axis sdk needs --claude VERSION, the release every run uses", "CONFLICTING_OPTIONS");
          if (input.drive.sdk !== undefined) throw new UserError("--axis sdk takes the SDK releases from --old/--new; drop --sdk", "CONFLICTING_OPTIONS");
          if (input.drive.driver === "headless") throw new UserError("--axis sdk runs the sdk driver; drop --driver headless", "CONFLICTING_OPTIONS");
          const result = await bisectSdkReleases({ ...input, claude: options.claude });
          ctx.print(options.json ? JSON.stringify({ axis: "sdk", ...result }, null, 2) : `claude ${result.claude} pinned; Agent SDK releases bisected\n${formatSummary(result)}`);
          return;
        }
        if (options.claude !== undefined) throw new UserError("--claude pins the CLI for --axis sdk; on the claude axis the releases come from --old/--new", "CONFLICTING_OPTIONS");
        // Steps on a bar (a terminal) or one line each; the total is bisect's own estimate, so it can grow.
        const progress = createProgress(`bisect ${scenario.name}`);
        let planned = false;
        const onProgress = (event: ProgressEvent): void => {
          // Said once, before the bar: the bar's own total counts steps, this counts runs.
          if (event.kind === "plan") return ctx.note(formatProgress(event));
          if (event.kind === "start" && !planned) {
            planned = true;
            progress.start(event.estimatedTotal);
          }
          // A step settled by reused verdicts is over at once; its step line says where they came from.
          if (event.kind === "start" && event.reused) return;
          if (event.kind === "download") progress.event(event.fromCache ? `cached ${event.version}` : downloadLine(event.version, event.bytes, event.ms));
          else progress.event(formatProgress(event), event.kind === "step" ? 1 : 0);
        };
        const result = await bisectClaudeReleases({ ...input, onProgress }).finally(() => progress.stop());
        ctx.print(options.json ? JSON.stringify(result, null, 2) : formatSummary(result));
      } catch (error) {
        // Both ends alike: "no change in this range" is an answer, printed as one, with its own exit code.
        if (error instanceof BisectError && error.detail.kind === "same-outcome") {
          const { old, new: newer } = error.detail;
          ctx.print(options.json ? JSON.stringify({ stopped: "same-outcome", old, new: newer, message: error.message }, null, 2) : error.message);
          ctx.setExit(EXIT_BISECT_NO_CHANGE);
          return;
        }
        // The run budget spent is the stop the user asked for: its range and resume command are the output.
        if (!(error instanceof BisectError) || error.detail.kind !== "budget-spent") throw error;
        const { kind: _kind, ...stop } = error.detail;
        ctx.print(options.json ? JSON.stringify({ stopped: "max-runs", ...stop }, null, 2) : formatStop(stop));
        ctx.setExit(EXIT_BISECT_BUDGET_SPENT);
      }
    });
}
