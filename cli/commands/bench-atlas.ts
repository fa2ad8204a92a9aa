// `ccrepro bench-atlas`: the atlas against the full sweep on one range. The atlas is run for real, into a fresh
// directory (nothing reused); the sweep's side is computed: one run per release, each costing the atlas's mean
// measured run, and its boundaries are those the scenario's `known` list (measured by a full sweep) puts in the range.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Command } from "commander";
import { compareWithSweep, knownBoundaries, knownStates } from "../../atlas/bench.ts";
import { runAtlas } from "../../atlas/run-atlas.ts";
import { resolveSweepVersions } from "../../sweep/versions.ts";
import type { CliContext } from "../context.ts";
import { atlasEventLine, formatAtlasEntry } from "../atlas-output.ts";
import { parseScenarioParams, withRunOptions } from "../params.ts";
import { wholeNumber } from "../numbers.ts";
import { formatDuration } from "../progress.ts";

export function registerBenchAtlasCommand(program: Command, ctx: CliContext): void {
  withRunOptions(program.command("bench-atlas"))
    .description("run the atlas on a range from scratch and compare its runs, wall time and boundaries with a full sweep's")
    .argument("[scenario]", "a scenario name or a scenario file's path", "subagent-resume-notification-header")
    .option("--versions <range>", "the range", "2.1.245 - 2.1.290")
    .option("--stride <k>", "the atlas's stride", wholeNumber("--stride", 1, 1000), 8)
    .option("--max-runs <n>", "exit 1 when the atlas needed more runs than this", wholeNumber("--max-runs", 1, 10_000), 14)
    .option("--out <dir>", "keep the atlas here (default: a temporary directory, removed after)")
    .action(async (name: string, options) => {
      const scenario = await ctx.scenarioNamed(name);
      const params = parseScenarioParams(scenario, options.param);
      const versions = await resolveSweepVersions(options.versions);
      const outDir = options.out ? path.resolve(options.out) : fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-bench-atlas-"));
      try {
        const started = performance.now();
        const outcome = await runAtlas({
          subjects: [{ scenario, params }],
          drive: {},
          versions,
          stride: options.stride,
          verify: 0,
          repeat: 1,
          outDir,
          reuse: [],
          signal: ctx.interruptSignal(),
          onEvent: (event) => {
            const line = atlasEventLine(event);
            if (line) ctx.note(line);
          },
        });
        const wallMs = performance.now() - started;
        const entry = outcome.file.entries.find((e) => e.scenario === scenario.name)!;
        const expected = knownBoundaries(knownStates(scenario, versions, params), versions);
        const c = compareWithSweep(entry, expected, wallMs);
        ctx.print(formatAtlasEntry(entry));
        ctx.print("");
        ctx.print(`                 runs   wall`);
        ctx.print(`atlas (measured) ${String(c.atlasRuns).padStart(4)}   ${formatDuration(c.atlasWallMs)} (downloads, reuse scan and writing included)`);
        ctx.print(`sweep (computed) ${String(c.sweepRuns).padStart(4)}   ${formatDuration(c.sweepRunMs)} (${c.releases} releases × the atlas's mean run, ${formatDuration(c.perRunMs)}, install to verdict: a download is in it where the release was not cached)`);
        ctx.print(`boundaries: atlas ${c.found.map((b) => `${b.before}→${b.after}`).join(", ") || "none"}; known (full sweep) ${c.expected.map((b) => `${b.before}→${b.after}`).join(", ") || "none"}: ${c.same ? "the same" : "DIFFERENT"}`);
        ctx.setExit(outcome.interrupted ? 3 : c.same && c.atlasRuns <= options.maxRuns ? 0 : 1);
      } finally {
        if (!options.out) fs.rmSync(outDir, { recursive: true, force: true });
      }
    });
}
