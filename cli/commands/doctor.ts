// `ccrepro doctor`: ends what dead runs left running (processes carrying a run marker whose ccrepro is provably gone,
// of this user, in this pid namespace) and says so; `--dry-run` shows it without ending anything, and what it leaves alone.
import type { Command } from "commander";
import { EXIT_ERROR } from "../../core/exit-codes.ts";
import { RUN_MARKER_VAR } from "../../harness/isolation.ts";
import { describeOrphanReap, reapOrphanedRuns, scanOrphanedRuns } from "../../harness/processes.ts";
import type { CliContext } from "../context.ts";

export function registerDoctorCommand(program: Command, ctx: CliContext): void {
  program
    .command("doctor")
    .description("end the processes of runs whose ccrepro was killed (this user's, in this pid namespace; every run's processes carry its marker), and say what was ended")
    .option("--dry-run", "say what would be ended, and which runs' processes are left alone and why, without ending anything")
    .option("--json", "print what was reaped (or would be) as JSON")
    .action(async (options: { json?: boolean; dryRun?: boolean }) => {
      if (options.dryRun) {
        const scan = scanOrphanedRuns(RUN_MARKER_VAR);
        if (options.json) ctx.print(JSON.stringify({ wouldReap: scan.orphans, leftAlone: scan.leftAlone }, null, 2));
        else {
          const lines = [
            ...scan.orphans.map((o) => `would reap ${o.pids.length} process(es) (${o.pids.join(", ")}) of run ${o.runId}: ${o.why}`),
            ...scan.leftAlone.map((l) => `leaves alone ${l.pids.length} process(es) (${l.pids.join(", ")}) of run ${l.runId}: ${l.why}`),
          ];
          ctx.print(lines.length === 0 ? "no process of a dead run is left" : lines.join("\n"));
        }
        return;
      }
      const reaped = await reapOrphanedRuns(RUN_MARKER_VAR);
      if (options.json) ctx.print(JSON.stringify({ reaped }, null, 2));
      else ctx.print(reaped.length === 0 ? "no process of a dead run is left" : reaped.map(describeOrphanReap).join("\n"));
      ctx.setExit(reaped.some((r) => r.survivors.length > 0) ? EXIT_ERROR : 0);
    });
}
