// `ccrepro check`: recompute a run's verdict from its directory alone.
import path from "node:path";
import type { Command } from "commander";
import { checkRecordedRunAudited } from "../../pipeline/check-recorded-run.ts";
import { scenarioOfRun } from "../../pipeline/scenario-source.ts";
import { VERDICT_EXIT } from "../../core/verdict.ts";
import type { CliContext } from "../context.ts";
import { formatCheckResult } from "../format-result.ts";

export function registerCheckCommand(program: Command, ctx: CliContext): void {
  program
    .command("check")
    .description("recompute a run's verdict from its directory alone")
    .argument("<run-dir>")
    .option("--json", "print the verdict and findings as JSON")
    .action(async (runDir: string, options) => {
      const dir = path.resolve(runDir);
      // A file scenario is judged by the copy its run directory keeps.
      const { result, cache } = checkRecordedRunAudited(dir, await scenarioOfRun(dir));
      // JSON keeps every note; the text folds the cache audit's to a line per stream.
      ctx.print(options.json ? JSON.stringify(result, null, 2) : formatCheckResult(result, runDir, { cache }));
      ctx.setExit(VERDICT_EXIT[result.verdict]);
    });
}
