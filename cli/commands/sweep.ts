// `ccrepro sweep`: one scenario on every release in a range, pipelined and resumable; a table, JSON and a strip.
import path from "node:path";
import { EXIT_ERROR } from "../../core/exit-codes.ts";
import type { Command } from "commander";
import { UserError } from "../../core/errors.ts";
import { parseShard, sliceForShard } from "../../nightly/shard.ts";
import { writeReleaseStrip } from "../../report/release-strip.ts";
import { resolveSweepVersions } from "../../sweep/versions.ts";
import { mergeSweeps } from "../../sweep/merge.ts";
import { runSweep } from "../../sweep/run-sweep.ts";
import type { SweepFile } from "../../sweep/sweep-file.ts";
import type { CliContext } from "../context.ts";
import { driverOptions, parseScenarioParams, withRunOptions } from "../params.ts";
import { wholeNumber } from "../numbers.ts";
import { createProgress, formatDuration, type Progress } from "../progress.ts";
import { formatSweepTable, resumeCommand, showOn } from "../sweep-output.ts";

export function registerSweepCommand(program: Command, ctx: CliContext): void {
  withRunOptions(program.command("sweep"))
    .description("run a scenario on every release in a range (pipelined, resumable); print a table and write sweep.json and strip.html")
    .argument("[scenario]", "a scenario name or a scenario file's path")
    .option("--versions <range>", 'a semver range ("2.1.245 - 2.1.290") or a comma list of versions')
    .option("--repeat <n>", "runs per release; disagreeing repeats are INCONCLUSIVE (flaky)", wholeNumber("--repeat", 1, 20), 1)
    .option("--concurrency <n>", "runs at a time", wholeNumber("--concurrency", 1, 16), 1)
    .option("--ahead <n>", "releases downloaded ahead of the runs (default: concurrency + 1)", wholeNumber("--ahead", 1, 16))
    .option("--shard <K/N>", "run only slice K of N of the releases (merge the slices with --merge)")
    .option("--merge <dirs...>", "merge these sweep directories into --out instead of running")
    .option("--out <dir>", "the sweep directory (sweep.json, strip.html, runs/); running again with it resumes")
    .option("--json", "print sweep.json instead of the table")
    .action(async (name: string | undefined, options) => {
      if (!options.out) throw new UserError("sweep needs --out <dir>: results go there as they finish, and the same --out resumes", "MISSING_ARGUMENT");
      const outDir = path.resolve(options.out);
      let file: SweepFile;
      if (options.merge) {
        file = mergeSweeps(options.merge, outDir);
      } else {
        if (!name) throw new UserError("sweep needs a scenario name (or --merge)", "MISSING_ARGUMENT");
        if (!options.versions) throw new UserError("sweep needs --versions <range>", "MISSING_ARGUMENT");
        const scenario = await ctx.scenarioNamed(name);
        const params = parseScenarioParams(scenario, options.param);
        const versions = await resolveSweepVersions(options.versions);
        const shard = options.shard ? parseShard(options.shard) : null;
        const progress: Progress = createProgress(`sweep ${scenario.name}`);
        const signal = ctx.interruptSignal();
        const started = Date.now();
        const outcome = await runSweep({
          scenario,
          params,
          drive: driverOptions(options),
          versionsWord: options.versions,
          versions,
          selected: sliceForShard(versions, shard),
          shard,
          repeat: options.repeat,
          concurrency: options.concurrency,
          ahead: options.ahead,
          outDir,
          signal,
          onEvent: showOn(progress),
        }).finally(() => progress.stop());
        file = outcome.file;
        ctx.note(`sweep: ${formatDuration(Date.now() - started)} wall`);
        if (outcome.interrupted || outcome.left.length > 0) {
          ctx.note(`sweep: ${outcome.left.length} release(s) left without a result; resume with:\n  ${resumeCommand(process.argv.slice(2))}`);
          ctx.setExit(EXIT_ERROR);
        }
      }
      const strip = writeReleaseStrip(file, outDir);
      ctx.print(options.json ? JSON.stringify(file, null, 2) : formatSweepTable(file));
      ctx.note(`sweep: ${path.join(outDir, "sweep.json")}\nopen ${strip}`);
    });
}
