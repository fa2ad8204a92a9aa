// `ccrepro advise`: which release to pin, from an atlas: the newest (and newest per minor line) with none of the
// named scenarios RED, and what the current release carries that the advised one does not.
import type { Command } from "commander";
import { advise, formatAdvice } from "../../atlas/advise.ts";
import { CHECKED_IN_ATLAS, readAtlasFile } from "../../atlas/atlas-file.ts";
import { SCENARIOS } from "../../scenarios/index.ts";
import type { CliContext } from "../context.ts";

export function registerAdviseCommand(program: Command, ctx: CliContext): void {
  program
    .command("advise")
    .description("the newest release, and the newest of each minor line, on which none of the named scenarios is RED (from an atlas)")
    .option("--avoid <scenarios>", "comma list of scenarios that must not be RED (default: every scenario in the atlas that reproduces a reported bug; guards do not count)")
    .option("--atlas <file>", "the atlas.json (or its directory); default: the atlas checked in with ccrepro", CHECKED_IN_ATLAS)
    .option("--current <version>", "the release pinned now: say what it carries that the advised one does not")
    .option("--json", "print the advice as JSON")
    .action((options) => {
      const avoid = options.avoid ? String(options.avoid).split(",").map((s) => s.trim()).filter(Boolean) : [];
      const reproductions = SCENARIOS.filter((s) => s.publicRecord?.role === "reproduction").map((s) => s.name);
      const advice = advise(readAtlasFile(options.atlas), { avoid, current: options.current, reproductions });
      ctx.print(options.json ? JSON.stringify(advice, null, 2) : formatAdvice(advice));
      if (!advice.newest) ctx.setExit(1);
    });
}
