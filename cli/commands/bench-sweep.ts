// `ccrepro bench-sweep`: how well a sweep overlaps downloads with runs. Sweeps N releases that are not in the
// release cache into a fresh temporary cache and compares the wall time with the larger of its two sums.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Command } from "commander";
import { UserError } from "../../core/errors.ts";
import { listCachedVersions } from "../../releases/release-cache.ts";
import { runSweep } from "../../sweep/run-sweep.ts";
import type { CliContext } from "../context.ts";
import { parseScenarioParams, withRunOptions } from "../params.ts";
import { positiveNumber, wholeNumber } from "../numbers.ts";
import { formatDuration } from "../progress.ts";
import { resolveSweepVersions } from "../../sweep/versions.ts";

export function registerBenchSweepCommand(program: Command, ctx: CliContext): void {
  withRunOptions(program.command("bench-sweep"))
    .description("sweep N not-yet-cached releases into a fresh cache; print the download and run sums, the wall time and their ratio")
    .argument("[scenario]", "a scenario name or a scenario file's path", "subagent-resume-notification-header")
    .option("--versions <range>", "where to pick the releases from", "2.1.284 - 2.1.332")
    .option("-n, --releases <n>", "how many releases", wholeNumber("--releases", 2, 50), 4)
    .option("--concurrency <n>", "runs at a time", wholeNumber("--concurrency", 1, 16), 1)
    .option("--max-ratio <r>", "exit 1 when the ratio is above this", positiveNumber("--max-ratio"), 1.15)
    .action(async (name: string, options) => {
      const scenario = await ctx.scenarioNamed(name);
      const params = parseScenarioParams(scenario, options.param);
      const cached = new Set((await listCachedVersions()).map((c) => c.version));
      const versions = (await resolveSweepVersions(options.versions)).filter((v) => !cached.has(v)).slice(-options.releases);
      if (versions.length < options.releases) throw new UserError(`only ${versions.length} release(s) in ${options.versions} are not cached; widen --versions`, "NO_MATCHING_VERSIONS");
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-bench-sweep-"));
      try {
        ctx.note(`bench-sweep: ${scenario.name} on ${versions.join(", ")}, ${options.concurrency} at a time, fresh cache ${scratch}`);
        const started = performance.now();
        const outcome = await runSweep({
          scenario,
          params,
          versionsWord: versions.join(","),
          versions,
          repeat: 1,
          concurrency: options.concurrency,
          outDir: path.join(scratch, "sweep"),
          cache: { cacheDir: path.join(scratch, "releases") },
          signal: ctx.interruptSignal(),
          onEvent: (event) => {
            if (event.kind === "download") ctx.note(`  downloaded ${event.version} in ${formatDuration(event.ms)}`);
            if (event.kind === "release") ctx.note(`  ran ${event.result.version}: ${event.result.verdict} in ${formatDuration(event.result.runs[0]?.wallMs ?? 0)}`);
          },
        });
        const wallMs = performance.now() - started;
        const downloads = outcome.file.results.reduce((sum, r) => sum + r.downloadMs, 0);
        const runs = outcome.file.results.reduce((sum, r) => sum + r.runs.reduce((s, run) => s + run.wallMs, 0), 0);
        const floor = Math.max(downloads, runs / options.concurrency);
        const ratio = wallMs / floor;
        ctx.print(`sum of downloads        ${formatDuration(downloads)}`);
        ctx.print(`sum of runs / ${options.concurrency}        ${formatDuration(runs / options.concurrency)}`);
        ctx.print(`wall                    ${formatDuration(wallMs)}`);
        ctx.print(`ratio wall / max(…)     ${ratio.toFixed(3)} (goal ≤ ${options.maxRatio})`);
        ctx.setExit(outcome.left.length > 0 ? 3 : ratio <= options.maxRatio ? 0 : 1);
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    });
}
