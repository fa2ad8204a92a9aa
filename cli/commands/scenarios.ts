// `ccrepro scenarios`: the scenarios this build knows.
import type { Command } from "commander";
import { SCENARIOS } from "../../scenarios/index.ts";
import type { CliContext } from "../context.ts";

export function registerScenariosCommand(program: Command, ctx: CliContext): void {
  program
    .command("scenarios")
    .description("list the scenarios")
    .action(() => {
      for (const s of SCENARIOS) ctx.print(`${s.name.padEnd(40)} ${s.summary}`);
    });
}
