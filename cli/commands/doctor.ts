// `ccrepro doctor`: ends what dead runs left running (processes carrying a run marker whose ccrepro is gone) and says so.
import type { Command } from "commander";
import { RUN_MARKER_VAR } from "../../harness/isolation.ts";
import { describeOrphanReap, reapOrphanedRuns } from "../../harness/processes.ts";
import type { CliContext } from "../context.ts";

export function registerDoctorCommand(program: Command, ctx: CliContext): void {
  program
    .command("doctor")
    .description("end the processes of runs whose ccrepro was killed (every run's processes carry its marker), and say what was ended")
    .option("--json", "print what was reaped as JSON")
    .action(async (options: { json?: boolean }) => {
      const reaped = await reapOrphanedRuns(RUN_MARKER_VAR);
      if (options.json) ctx.print(JSON.stringify({ reaped }, null, 2));
      else ctx.print(reaped.length === 0 ? "no process of a dead run is left" : reaped.map(describeOrphanReap).join("\n"));
      ctx.setExit(reaped.some((r) => r.survivors.length > 0) ? 3 : 0);
    });
}
