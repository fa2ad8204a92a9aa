// `ccrepro run`: one scenario against one binary, repeated if asked; exit code from the verdict.
import path from "node:path";
import { Option, type Command } from "commander";
import { UserError } from "../../core/errors.ts";
import { markPhase } from "../../core/phases.ts";
import { FLAKY_EXIT, GIT_BISECT_EXIT, VERDICT_EXIT } from "../../core/exit-codes.ts";
import { formatRates } from "../../pipeline/rates.ts";
import { runsAtOnce } from "../../pipeline/run-concurrency.ts";
import { runRepeats } from "../../pipeline/run-repeats.ts";
import { repeatsLine } from "../../pipeline/verdict-rules.ts";
import { resolveClaude } from "../../releases/resolve.ts";
import type { CliContext } from "../context.ts";
import { formatCheckResult } from "../format-result.ts";
import { driverOptions, parseScenarioParams, withRunOptions } from "../params.ts";
import { wholeNumber } from "../numbers.ts";

export function registerRunCommand(program: Command, ctx: CliContext): void {
  withRunOptions(program.command("run"))
    .description("run a scenario against a claude release or binary; exit 0 GREEN, 1 RED, 2 INCONCLUSIVE, 3 ERROR, 4 UNSUPPORTED, 6 flaky (repeats disagree)")
    .argument("<scenario>", "a scenario name (ccrepro scenarios lists them) or a scenario file's path")
    .requiredOption("--claude <word>", "a version, latest, or a path to a claude executable")
    .option("--repeat <n>", "run it n times; prints per verdict and per finding how many runs showed it (95% Wilson interval)", wholeNumber("--repeat", 1, 100), 1)
    .option("--jobs <n>", "with --repeat: how many runs go at once (at most the machine's cores; a scenario that runs alone takes 1)", wholeNumber("--jobs", 1, 64), 1)
    .option("--stop-early", "with --repeat: stop as soon as the repeats are settled as flaky (they disagree), as V8's flake bisect stops at its k-th failure")
    .option("--json", "print the result as JSON")
    .option("--record-api <file>", "also record the run's API traffic into this recording file (as `ccrepro record` does), for `ccrepro import`")
    .addOption(new Option("--exit-codes <style>", "exit code convention").choices(["verdict", "git-bisect"]).default("verdict"))
    .action(async (name: string, options) => {
      const scenario = await ctx.scenarioNamed(name);
      markPhase("scenario-loaded");
      const params = parseScenarioParams(scenario, options.param);
      if (options.jobs > options.repeat) throw new UserError(`--jobs ${options.jobs} runs repeats at once, and --repeat is ${options.repeat}`, "CONFLICTING_OPTIONS", { hint: `add --repeat ${options.jobs} or more, or drop --jobs` });
      // Refused before the release is resolved, which may download it.
      runsAtOnce(scenario, options.jobs, "--jobs");
      const drive = driverOptions(options);
      const claude = await resolveClaude(options.claude);
      markPhase("release-resolved");
      const abort = ctx.interruptSignal();
      const { results, combined, stoppedEarly } = await runRepeats({
        scenario,
        params,
        claude,
        requested: options.claude,
        runsDir: options.runsDir,
        ...drive,
        ...(options.recordApi ? { recordApi: path.resolve(options.recordApi) } : {}),
        abort,
        repeat: options.repeat,
        jobs: options.jobs,
        stopEarly: options.stopEarly ?? false,
        onProgress: (line) => ctx.note(`  ${line}`),
        onRun: ({ runDir, record, cache }) => {
          ctx.print(options.json ? JSON.stringify({ runDir, ...record.result }) : formatCheckResult(record.result, runDir, { cache }));
          markPhase("printed");
        },
      });
      const { verdict, flaky, rates, label } = combined;
      if (options.repeat > 1) {
        ctx.note(repeatsLine(results, combined));
        if (stoppedEarly) ctx.note(`stopped early after ${results.length} of ${options.repeat}: the repeats disagree, so the cell is flaky whatever follows`);
        for (const line of formatRates(rates)) ctx.note(line);
        if (options.json) ctx.print(JSON.stringify({ repeats: { verdict, flaky, label, rates } }));
      }
      // A stable cell keeps its verdict's code; a flaky one is 6 (125, skip, with git-bisect codes).
      const exit = options.exitCodes === "git-bisect" ? GIT_BISECT_EXIT[verdict] : flaky ? FLAKY_EXIT : VERDICT_EXIT[verdict];
      ctx.setExit(exit);
    });
}
