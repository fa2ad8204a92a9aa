// `ccrepro nightly`: runs the matrix (the built-in default without --config), writes every report, exits by the ledger.
import path from "node:path";
import type { Command } from "commander";
import { UserError } from "../../core/errors.ts";
import { claimFolder } from "../../core/folder-writer.ts";
import { checkOutDir, defaultNightlyDir } from "../../nightly/out-dir.ts";
import { previousNightlyFor } from "../../nightly/previous.ts";
import { formatCellFinished, formatPlanned } from "../../nightly/progress.ts";
import { nightly } from "../../nightly/nightly.ts";
import { parseShard } from "../../nightly/shard.ts";
import { utc } from "../../report/wording.ts";
import type { CliContext } from "../context.ts";
import { wholeNumber } from "../numbers.ts";
import { createProgress } from "../progress.ts";
import { showOn } from "../sweep-output.ts";
import { publishNightly } from "../publish-nightly.ts";
import { atlasEventLine, writeSiteOf } from "../atlas-output.ts";
import { matrixConfig, withMatrixOptions } from "../matrix-options.ts";

export function registerNightlyCommand(program: Command, ctx: CliContext): void {
  withMatrixOptions(program.command("nightly"))
    .description("run the nightly matrix and write summary.json, summary.md, junit.xml and index.html; exit 0 as expected, 1 unexpected or changed, 3 harness errors")
    .option("--config <file>", "nightly config (JSON; a scenario entry may be a file path, relative to the config); default: every scenario on latest, the 2.1.281 baseline and releases since the previous nightly")
    .option("--out <dir>", "the nightly directory; default runs/nightly-<UTC time>")
    .option("--previous <file>", "summary.json (or nightly directory) to compare with; default: the newest earlier nightly beside --out")
    .option("--no-previous", "compare with no earlier nightly (a first night; a CI job whose ledger has none)")
    .option("--shard <K/N>", "run only slice K of N of the matrix (merge the slices with report --merge)")
    .option("--concurrency <n>", "cells at a time, overriding the config", wholeNumber("--concurrency", 1, 64))
    .action(async (options) => {
      let config = await matrixConfig(options);
      if (options.concurrency !== undefined) config = { ...config, concurrency: options.concurrency };
      const shard = options.shard ? parseShard(options.shard) : null;
      const now = new Date();
      const outDir = checkOutDir(options.out ?? defaultNightlyDir(now, shard));
      if (config.atlas && !shard && path.resolve(config.atlas.out) === outDir) {
        throw new UserError(
          `the nightly config's atlas.out is the nightly's own --out (${outDir}); the atlas is kept from one nightly to the next, in a folder of its own: give atlas.out another folder`,
          "CONFLICTING_OPTIONS",
        );
      }
      // One writer per folder, as sweep and atlas keep it: a second nightly into this --out refuses before it runs.
      const release = claimFolder(outDir, "ccrepro nightly", (line) => ctx.note(line));
      try {
        const previous = previousNightlyFor(options.previous, outDir, now);
        ctx.note(previous ? `comparing with the nightly of ${utc(previous.summary.startedAt)} (${previous.path})` : "no previous nightly to compare with");
        const progress = createProgress("nightly", { linesCarryCount: true });
        const { summary, sweeps, atlas } = await nightly({
          config,
          outDir,
          previous,
          shard,
          signal: ctx.interruptSignal(),
          onPlanned: (planned) => {
            ctx.note(formatPlanned(planned, outDir));
            progress.start(planned.cells);
          },
          onCell: (finished) => progress.event(formatCellFinished(finished), 1),
          onCellsDone: () => progress.stop(),
          onSweep: (scenario) => {
            const shown = createProgress(`sweep ${scenario}`);
            return { onEvent: showOn(shown), done: () => shown.stop() };
          },
          onNote: (line) => ctx.note(line),
          onAtlasEvent: (event) => {
            const line = atlasEventLine(event);
            if (line) ctx.note(`atlas: ${line}`);
          },
        }).finally(() => progress.stop());
        if (atlas) ctx.note(`atlas: ${summary.atlas?.runs ?? 0} run(s) tonight; open ${await writeSiteOf(ctx, atlas.file, atlas.dir)}`);
        publishNightly(ctx, { summary, baseDir: outDir, sweeps }, outDir);
      } finally {
        release();
      }
    });
}
