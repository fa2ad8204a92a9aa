// `ccrepro check`: recompute a run's verdict from its directory alone, or with an edited scenario file.
import path from "node:path";
import type { Command } from "commander";
import { recheckRun } from "../../pipeline/recheck-run.ts";
import { VERDICT_EXIT } from "../../core/exit-codes.ts";
import type { CliContext } from "../context.ts";
import { formatRecheck, recheckJson } from "../format-result.ts";

export function registerCheckCommand(program: Command, ctx: CliContext): void {
  program
    .command("check")
    .description("recompute a run's verdict from its directory alone (a file scenario by the run's copy); never changes run.json")
    .argument("<run-dir>")
    .option("--scenario <file>", "judge with this scenario file instead of the run's copy (e.g. its check edited); its name must be the run's scenario")
    .option("--trust", "run a file scenario's check with your rights; without it the check runs confined: it reads only the run directory, the scenario's folder and ccrepro, and cannot write, start processes or reach the network")
    .option("--json", "print the verdict and findings as JSON")
    .action(async (runDir: string, options: { scenario?: string; json?: boolean; trust?: boolean }) => {
      const recheck = await recheckRun(path.resolve(runDir), { scenarioFile: options.scenario, trust: options.trust, abort: ctx.interruptSignal() });
      ctx.print(options.json ? JSON.stringify(recheckJson(recheck), null, 2) : formatRecheck(recheck, runDir));
      ctx.setExit(VERDICT_EXIT[recheck.result.verdict]);
    });
}
