// `ccrepro pack`: a run directory as a tarball to attach to a bug report, with this machine's paths and environment removed.
import path from "node:path";
import { EXIT_ERROR } from "../../core/exit-codes.ts";
import type { Command } from "commander";
import { leftoverLines } from "../../report/anonymise.ts";
import { packRun } from "../../report/pack.ts";
import type { CliContext } from "../context.ts";

export function registerPackCommand(program: Command, ctx: CliContext): void {
  program
    .command("pack")
    .description("write a run directory as a .tar.gz for a bug report: caches trimmed, no path or environment value of this machine")
    .argument("<run-dir>")
    .option("--out <file>", "the tarball to write; default <run directory name>.tar.gz here")
    .action(async (runDir: string, options) => {
      const out = options.out ?? `${path.basename(path.resolve(runDir))}.tar.gz`;
      const packed = await packRun(runDir, out);
      ctx.print(`wrote ${packed.file} (${packed.files} files, ${(packed.bytes / 1024).toFixed(0)} KiB)`);
      if (packed.trimmed.length > 0) ctx.print(`left out: ${packed.trimmed.join(", ")}`);
      // Left for the user to look at rather than refused: the scan also flags paths the binary's own text mentions.
      for (const line of leftoverLines(packed.leftovers)) ctx.note(`ccrepro: ${line}`);
      if (packed.replaced.length > 0) ctx.print(`replaced: ${packed.replaced.map((r) => `${r.to} ×${r.count}`).join(", ")}`);
      if (packed.renamed > 0) ctx.print(`renamed: ${packed.renamed} file and folder name(s) that held a machine path`);
      if (!packed.judgedSame) {
        ctx.note(`ccrepro: the packed run no longer judges as recorded: ${packed.rejudged.verdict} (${packed.rejudged.reason}), run.json says ${packed.recorded}; do not attach it as it is`);
        ctx.setExit(EXIT_ERROR);
      }
    });
}
