// `ccrepro atlas`: scenarios across a release range by boundary search; writes atlas.json and the site, resumable.
import fs from "node:fs";
import path from "node:path";
import { EXIT_ERROR } from "../../core/exit-codes.ts";
import type { Command } from "commander";
import { UserError } from "../../core/errors.ts";
import { runAtlas, type AtlasEvent } from "../../atlas/run-atlas.ts";
import { atlasChangeLine, type AtlasChange } from "../../atlas/changes.ts";
import { extendEveryEntry } from "../../atlas/extend.ts";
import { mergeAtlases, resolveMerged } from "../../atlas/merge.ts";
import { ATLAS_CHANGES_FILE, ATLAS_FILE, type AtlasFile } from "../../atlas/atlas-file.ts";
import { resolveSweepVersions } from "../../sweep/versions.ts";
import type { CliContext } from "../context.ts";
import { atlasEventLine, formatAtlasEntry, writeSiteOf } from "../atlas-output.ts";
import { driverOptions, parseScenarioParams, withRunOptions } from "../params.ts";
import { wholeNumber } from "../numbers.ts";
import { withinCores } from "../../pipeline/run-concurrency.ts";
import { formatDuration } from "../progress.ts";
import { resumeCommand } from "../sweep-output.ts";

const collect = (value: string, previous: string[]) => [...previous, value];

// How an entry was measured: --extend measures each entry again as it was, so these are refused beside it.
const MEASURED_AS = ["--stride", "--repeat", "--until-red", "--param", "--driver", "--sdk"];

// Under runs/, where run output goes: the bare name "atlas" would write into the source folder atlas/ of a checkout.
export const DEFAULT_ATLAS_OUT = path.join("runs", "atlas");

export function registerAtlasCommand(program: Command, ctx: CliContext): void {
  withRunOptions(program.command("atlas"))
    .description("find every boundary of scenarios across a release range: sample every K releases, bisect where neighbours differ; write atlas.json and a site")
    .argument("[scenarios...]", "scenario names or scenario files' paths")
    .option("--versions <range>", 'a semver range ("2.1.245 - 2.1.290") or a comma list of versions')
    .option("--stride <k>", "measure every K-th release first", wholeNumber("--stride", 1, 1000), 8)
    .option("--verify <n>", "then run N random releases inside the intervals assumed to agree, and say how many disagreed", wholeNumber("--verify", 0, 1000), 0)
    .option("--repeat <n>", "runs per release; repeats that disagree make a flaky cell, a state of its own", wholeNumber("--repeat", 1, 20), 1)
    .option("--until-red <n>", "for a bug whose verdict flips run to run: run each release until a run is RED, up to N runs while all are GREEN; a release is then RED if any run was, and neighbours compare that, not the rate or the finding", wholeNumber("--until-red", 2, 50))
    .option("--jobs <j>", "releases of a scenario measured at once, within the machine's cores (a scenario that runs alone still runs alone)", wholeNumber("--jobs", 1, 64), 1)
    .option("--reuse <dir>", "take verdicts from matching run directories under DIR (repeatable; the atlas's own runs/ always are)", collect, [])
    .option("--out <dir>", "the atlas directory (atlas.json, site/, runs/); running again with it resumes", DEFAULT_ATLAS_OUT)
    .option("--merge <dirs...>", "merge these atlas directories (shards of the same scenarios over adjacent ranges) into --out instead of running")
    .option("--resolve", "with --merge: then bisect the boundaries the merge left open (releases between two shards' answers)")
    .option("--extend", "extend every entry of --out's atlas.json to the newest releases, each from its own first release with its own driver, stride and repeats, and say what changed")
    .option("--recheck", "judge the cells already in --out's atlas.json again from their run directories with today's checks, then search around those whose state changed")
    .option("--json", "print atlas.json instead of the intervals")
    .action(async (names: string[], options, command: Command) => {
      // The atlas's runs are its proofs, so they live inside the atlas directory; a --runs-dir elsewhere would split them.
      if (command.getOptionValueSource("runsDir") !== "default") {
        throw new UserError("atlas keeps its runs under --out (DIR/runs/), beside the atlas.json whose boundaries they prove; --runs-dir does not apply", "CONFLICTING_OPTIONS", { hint: "drop --runs-dir; pass --out DIR to choose where the atlas and its runs go" });
      }
      if (options.recheck && (options.extend || options.merge)) {
        throw new UserError("--recheck judges the cells of the scenarios named with --versions again; it does not go with --extend or --merge", "CONFLICTING_OPTIONS", { hint: "run ccrepro atlas SCENARIO --versions RANGE --recheck --out DIR first, then --extend or --merge" });
      }
      const outDir = path.resolve(options.out);
      const started = Date.now();
      const onEvent = (event: AtlasEvent) => {
        const line = atlasEventLine(event);
        if (line) ctx.note(line);
      };
      let file: AtlasFile;
      let runs = 0;
      let reused = 0;
      let interrupted = false;
      let changes: AtlasChange[] | null = null;
      const scenarios = await Promise.all(names.map((n) => ctx.scenarioNamed(n)));
      if (options.extend) {
        const own = command.options.filter((option) => MEASURED_AS.includes(option.long ?? "") && command.getOptionValueSource(option.attributeName()) === "cli").map((option) => option.long);
        if (own.length > 0) throw new UserError(`atlas --extend measures each entry as it was measured; ${own.join(", ")} ${own.length > 1 ? "do" : "does"} not apply`, "CONFLICTING_OPTIONS", { hint: "drop those options, or drop --extend and name the scenario with its --versions" });
        if (names.length > 0 || options.merge || options.versions) throw new UserError("atlas --extend takes its scenarios and ranges from --out's atlas.json", "CONFLICTING_OPTIONS", { hint: "drop the scenario names, --versions and --merge; or drop --extend" });
        const outcome = await extendEveryEntry({
          outDir,
          scenarioNamed: (name) => ctx.scenarioNamed(name),
          releasesFrom: (from) => resolveSweepVersions(`>=${from}`),
          verify: options.verify,
          jobs: withinCores(options.jobs, "--jobs"),
          reuse: options.reuse.map((d: string) => path.resolve(d)),
          signal: ctx.interruptSignal(),
          onEvent,
        });
        ({ file, runs, reused, interrupted, changes } = outcome);
      } else if (options.merge) {
        if (names.length > 0) throw new UserError("atlas --merge takes atlas directories, not scenarios: the shards name theirs", "CONFLICTING_OPTIONS");
        file = mergeAtlases(options.merge, outDir);
        const open = file.entries.filter((e) => !e.complete).length;
        ctx.note(`atlas: merged ${options.merge.length} shard(s) into ${file.entries.length} entr${file.entries.length === 1 ? "y" : "ies"}; ${open} not complete${open && !options.resolve ? " (--resolve bisects what lies between shards)" : ""}`);
        if (options.resolve) ({ file, runs, reused, interrupted } = await resolveMerged(file, { outDir, signal: ctx.interruptSignal(), onEvent }));
      } else {
        if (names.length === 0) throw new UserError("atlas needs scenario names (or --merge DIR…)", "MISSING_ARGUMENT", { hint: "e.g. ccrepro atlas stop-hook-loop --versions \">=2.1.240\"; ccrepro scenarios lists the names" });
        if (options.resolve) throw new UserError("--resolve goes with --merge", "CONFLICTING_OPTIONS", { hint: "drop --resolve, or merge shards: ccrepro atlas --merge DIR… --resolve" });
        if (!options.versions) throw new UserError("atlas needs --versions <range>", "MISSING_ARGUMENT", { hint: "e.g. --versions \"2.1.245 - 2.1.290\" (a semver range, or latest)" });
        const outcome = await runAtlas({
          subjects: scenarios.map((scenario) => ({ scenario, params: parseScenarioParams(scenario, options.param) })),
          drive: driverOptions(options),
          versions: await resolveSweepVersions(options.versions),
          stride: options.stride,
          verify: options.verify,
          repeat: options.repeat,
          ...(options.untilRed === undefined ? {} : { untilRed: options.untilRed }),
          jobs: withinCores(options.jobs, "--jobs"),
          outDir,
          reuse: options.reuse.map((d: string) => path.resolve(d)),
          signal: ctx.interruptSignal(),
          onEvent,
          recheck: options.recheck === true,
        });
        ({ file, runs, reused, interrupted } = outcome);
        changes = outcome.changes;
      }
      ctx.note(`atlas: ${runs} run(s), ${reused} release(s) reused, ${formatDuration(Date.now() - started)} wall`);
      if (changes) {
        const lines = changes.length > 0 ? changes.map(atlasChangeLine) : [`nothing changed in ${ATLAS_FILE}`];
        fs.writeFileSync(path.join(outDir, ATLAS_CHANGES_FILE), `${lines.join("\n")}\n`);
        ctx.note(changes.length > 0 ? `atlas: what changed in ${ATLAS_FILE}:\n${lines.map((line) => `  ${line}`).join("\n")}` : `atlas: ${lines[0]}`);
      }
      if (interrupted) {
        ctx.note(`atlas: interrupted; what finished is in atlas.json. Resume with:\n  ${resumeCommand(process.argv.slice(2))}`);
        ctx.setExit(EXIT_ERROR);
      }
      const site = await writeSiteOf(ctx, file, outDir, scenarios);
      ctx.print(options.json ? JSON.stringify(file, null, 2) : file.entries.map(formatAtlasEntry).join("\n\n"));
      ctx.note(`atlas: ${path.join(outDir, ATLAS_FILE)}\nopen ${site}`);
    });
}
