// `ccrepro scenarios`: the scenarios this build knows.
import type { Command } from "commander";
import { scenarioDrivers } from "../../kit/scenario.ts";
import { SCENARIOS } from "../../scenarios/index.ts";
import type { CliContext } from "../context.ts";

export function registerScenariosCommand(program: Command, ctx: CliContext): void {
  program
    .command("scenarios")
    .description("list the scenarios")
    .action(() => {
      // The drivers it runs with, its default first: `--driver` takes the others.
      for (const s of SCENARIOS) ctx.print(`${s.name.padEnd(40)} ${scenarioDrivers(s).join(",").padEnd(13)} ${s.summary}`);
    });
}
