// ccrepro's command line: parses, validates, calls the commands; one handler turns expected errors into exit codes.
import { Command, CommanderError } from "commander";
import { UserError } from "../harness/errors.ts";
import { registerBenchCommand } from "./commands/bench.ts";
import { registerBisectCommand } from "./commands/bisect.ts";
import { registerCheckCommand } from "./commands/check.ts";
import { registerInstallCommand } from "./commands/install.ts";
import { registerMockCommand } from "./commands/mock.ts";
import { registerNightlyCommand } from "./commands/nightly.ts";
import { registerReportCommand } from "./commands/report.ts";
import { registerRunCommand } from "./commands/run.ts";
import { registerScenariosCommand } from "./commands/scenarios.ts";
import { registerVersionsCommand } from "./commands/versions.ts";
import { createCliContext } from "./context.ts";

// Usage and input errors (unknown scenario or version, bad parameter, busy port) exit 3, like a harness ERROR:
// in both cases no verdict about the binary was reached.
export const EXIT_USER_ERROR = 3;

export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const ctx = createCliContext((code) => {
    exitCode = code;
  });
  const program = new Command("ccrepro")
    .description("Reproduce Claude Code CLI bugs black-box against a scripted Messages API.")
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  for (const register of [
    registerRunCommand,
    registerCheckCommand,
    registerScenariosCommand,
    registerMockCommand,
    registerVersionsCommand,
    registerInstallCommand,
    registerBisectCommand,
    registerBenchCommand,
    registerNightlyCommand,
    registerReportCommand,
  ]) {
    register(program, ctx);
  }
  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_USER_ERROR;
    if (error instanceof UserError) {
      ctx.note(`ccrepro: ${error.message}`);
      return EXIT_USER_ERROR;
    }
    throw error;
  }
}
