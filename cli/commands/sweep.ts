// `ccrepro sweep`: one scenario on every release in a range, pipelined and resumable; a table, JSON and a strip.
import path from "node:path";
import type { Command } from "commander";
import { UserError } from "../../core/errors.ts";
import { parseShard, sliceForShard } from "../../nightly/shard.ts";
import { resolveVersions } from "../../releases/registry.ts";
import { writeReleaseStrip } from "../../report/release-strip.ts";
import { mergeSweeps } from "../../sweep/merge.ts";
import { runSweep, type SweepEvent } from "../../sweep/run-sweep.ts";
import type { SweepFile } from "../../sweep/sweep-file.ts";
import type { CliContext } from "../context.ts";
import { driverOptions, parseScenarioParams, withRunOptions } from "../params.ts";
import { wholeNumber } from "../numbers.ts";
import { createProgress, downloadLine, formatDuration, type Progress } from "../progress.ts";

// "2.1.245 - 2.1.290", ">=2.1.270 <2.1.284", "2.1.251,2.1.270,latest": each comma word resolved, the union ascending.
export async function resolveSweepVersions(word: string): Promise<string[]> {
  const words = word.split(",").map((w) => w.trim()).filter(Boolean);
  if (words.length === 0) throw new UserError("--versions needs a semver range or a comma list of versions", "BAD_ARGUMENT");
  const all = new Set((await Promise.all(words.map((w) => resolveVersions(w)))).flat());
  return [...all].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

export function formatSweepTable(file: SweepFile): string {
  const rows = file.versions.map((version) => {
    const r = file.results.find((x) => x.version === version);
    const verdict = r ? `${r.verdict}${r.flaky ? " (flaky)" : ""}` : "—";
    return `${version.padEnd(10)} ${verdict.padEnd(20)} ${r ? r.red.join(", ") || "" : "no result"}`;
  });
  const boundaries = file.boundaries.map((b) => `boundary ${b.before} → ${b.after}: ${b.from} → ${b.to}${b.unknownBetween.length ? ` (${b.unknownBetween.length} between without a result)` : ""}`);
  return [`${"release".padEnd(10)} ${"verdict".padEnd(20)} red findings`, ...rows, "", ...(boundaries.length ? boundaries : ["no boundary"])].join("\n");
}

export function sweepEventLine(event: SweepEvent): { line: string; advance: number } | null {
  switch (event.kind) {
    case "download":
      return event.fromCache ? null : { line: downloadLine(event.version, event.bytes, event.ms), advance: 0 };
    case "release": {
      const r = event.result;
      const ms = r.runs.reduce((sum, run) => sum + run.wallMs, 0);
      return { line: `${r.version} ${r.verdict}${r.red.length ? ` ${r.red.join(", ")}` : ""} (${formatDuration(ms)})`, advance: 1 };
    }
    default:
      return null;
  }
}

// The command a person runs to finish an interrupted sweep: the same one, which skips what has a result.
function resumeCommand(argv: readonly string[]): string {
  return ["ccrepro", ...argv].map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(" ");
}

// A sweep a nightly config asked for, run into its own directory with the same progress lines; its strip is
// written beside it and shown in the nightly's report.
// A sweep's events on a progress display: the plan starts it, each finished release or download is a line.
const showOn =
  (progress: Progress) =>
  (event: SweepEvent): void => {
    if (event.kind === "planned") return progress.start(event.total, event.already);
    const shown = sweepEventLine(event);
    if (shown) progress.event(shown.line, shown.advance);
  };

export async function runConfiguredSweep(
  ctx: CliContext,
  entry: { scenario: string; versions: string; params: Record<string, unknown>; repeat: number },
  dir: string,
  concurrency: number,
  signal: AbortSignal,
): Promise<{ file: SweepFile; dir: string }> {
  const scenario = await ctx.scenarioNamed(entry.scenario);
  const progress = createProgress(`sweep ${scenario.name}`);
  const outcome = await runSweep({
    scenario,
    params: entry.params,
    versionsWord: entry.versions,
    versions: await resolveSweepVersions(entry.versions),
    repeat: entry.repeat,
    concurrency,
    outDir: dir,
    signal,
    onEvent: showOn(progress),
  }).finally(() => progress.stop());
  writeReleaseStrip(outcome.file, dir);
  return { file: outcome.file, dir };
}

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
      if (!options.out) throw new UserError("sweep needs --out <dir>: results go there as they finish, and the same --out resumes", "BAD_ARGUMENT");
      const outDir = path.resolve(options.out);
      let file: SweepFile;
      if (options.merge) {
        file = mergeSweeps(options.merge, outDir);
      } else {
        if (!name) throw new UserError("sweep needs a scenario name (or --merge)", "BAD_ARGUMENT");
        if (!options.versions) throw new UserError("sweep needs --versions <range>", "BAD_ARGUMENT");
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
          ctx.setExit(3);
        }
      }
      const strip = writeReleaseStrip(file, outDir);
      ctx.print(options.json ? JSON.stringify(file, null, 2) : formatSweepTable(file));
      ctx.note(`sweep: ${path.join(outDir, "sweep.json")}\nopen ${strip}`);
    });
}
