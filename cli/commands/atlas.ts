// `ccrepro atlas`: scenarios across a release range by boundary search; writes atlas.json and the site, resumable.
import path from "node:path";
import type { Command } from "commander";
import { UserError } from "../../core/errors.ts";
import { runAtlas } from "../../atlas/run-atlas.ts";
import { writeAtlasSite } from "../../report/atlas-site.ts";
import { resolveSweepVersions } from "../../sweep/versions.ts";
import type { CliContext } from "../context.ts";
import { atlasEventLine, formatAtlasEntry } from "../atlas-output.ts";
import { driverOptions, parseScenarioParams, withRunOptions } from "../params.ts";
import { wholeNumber } from "../numbers.ts";
import { formatDuration } from "../progress.ts";
import { resumeCommand } from "../sweep-output.ts";

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerAtlasCommand(program: Command, ctx: CliContext): void {
  withRunOptions(program.command("atlas"))
    .description("find every boundary of scenarios across a release range: sample every K releases, bisect where neighbours differ; write atlas.json and a site")
    .argument("<scenarios...>", "scenario names or scenario files' paths")
    .option("--versions <range>", 'a semver range ("2.1.245 - 2.1.290") or a comma list of versions')
    .option("--stride <k>", "measure every K-th release first", wholeNumber("--stride", 1, 1000), 8)
    .option("--verify <n>", "then run N random releases inside the intervals assumed to agree, and say how many disagreed", wholeNumber("--verify", 0, 1000), 0)
    .option("--repeat <n>", "runs per release; repeats that disagree make a flaky cell, a state of its own", wholeNumber("--repeat", 1, 20), 1)
    .option("--reuse <dir>", "take verdicts from matching run directories under DIR (repeatable; the atlas's own runs/ always are)", collect, [])
    .option("--out <dir>", "the atlas directory (atlas.json, site/, runs/); running again with it resumes", "atlas")
    .option("--json", "print atlas.json instead of the intervals")
    .action(async (names: string[], options) => {
      if (!options.versions) throw new UserError("atlas needs --versions <range>", "BAD_ARGUMENT");
      const scenarios = await Promise.all(names.map((n) => ctx.scenarioNamed(n)));
      const subjects = scenarios.map((scenario) => ({ scenario, params: parseScenarioParams(scenario, options.param) }));
      const outDir = path.resolve(options.out);
      const started = Date.now();
      const outcome = await runAtlas({
        subjects,
        drive: driverOptions(options),
        versions: await resolveSweepVersions(options.versions),
        stride: options.stride,
        verify: options.verify,
        repeat: options.repeat,
        outDir,
        reuse: options.reuse.map((d: string) => path.resolve(d)),
        signal: ctx.interruptSignal(),
        onEvent: (event) => {
          const line = atlasEventLine(event);
          if (line) ctx.note(line);
        },
      });
      ctx.note(`atlas: ${outcome.runs} run(s), ${outcome.reused} release(s) reused, ${formatDuration(Date.now() - started)} wall`);
      if (outcome.interrupted) {
        ctx.note(`atlas: interrupted; what finished is in atlas.json. Resume with:\n  ${resumeCommand(process.argv.slice(2))}`);
        ctx.setExit(3);
      }
      // Entries an earlier invocation added name their scenarios too: a built-in's known list and source go on its page.
      const named = new Map(scenarios.map((s) => [s.name, s]));
      for (const entry of outcome.file.entries) {
        if (!named.has(entry.scenario)) await ctx.scenarioNamed(entry.scenario).then((s) => named.set(s.name, s), () => undefined);
      }
      const site = writeAtlasSite(outcome.file, outDir, Object.fromEntries(named));
      ctx.print(options.json ? JSON.stringify(outcome.file, null, 2) : outcome.file.entries.map(formatAtlasEntry).join("\n\n"));
      ctx.note(`atlas: ${outcome.path}\nopen ${site}`);
    });
}
