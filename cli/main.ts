// ccrepro's command line: parses, validates, calls the commands; one handler turns expected errors into exit codes.
import { Command, CommanderError } from "commander";
import { UserError } from "../core/errors.ts";
import { registerBenchCommand } from "./commands/bench.ts";
import { registerBenchSweepCommand } from "./commands/bench-sweep.ts";
import { registerBisectCommand } from "./commands/bisect.ts";
import { registerCheckCommand } from "./commands/check.ts";
import { registerDoctorCommand } from "./commands/doctor.ts";
import { registerInstallCommand } from "./commands/install.ts";
import { registerMockCommand } from "./commands/mock.ts";
import { registerNewCommand } from "./commands/new.ts";
import { registerNightlyCommand } from "./commands/nightly.ts";
import { registerPackCommand } from "./commands/pack.ts";
import { registerReportCommand } from "./commands/report.ts";
import { registerRunCommand } from "./commands/run.ts";
import { registerScenariosCommand } from "./commands/scenarios.ts";
import { registerSweepCommand } from "./commands/sweep.ts";
import { registerVersionsCommand } from "./commands/versions.ts";
import { createCliContext } from "./context.ts";

// Usage and input errors (unknown scenario or version, bad parameter, busy port) and ccrepro's own crashes exit 3,
// like a harness ERROR: no verdict about the binary was reached. Never 1, which means RED.
export const EXIT_USER_ERROR = 3;

// With `--exit-codes git-bisect`, git must not read a failure to test as "bad": a binary the build did not produce
// is "skip" (125), anything else that stops the test is "abort" (128).
function gitBisectExit(error: unknown): number {
  return error instanceof UserError && error.code === "MISSING_BINARY" ? 125 : 128;
}

const wantsGitBisectCodes = (argv: string[]) =>
  argv.includes("--exit-codes=git-bisect") || argv.some((word, i) => word === "--exit-codes" && argv[i + 1] === "git-bisect");

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
    registerNewCommand,
    registerPackCommand,
    registerSweepCommand,
    registerBenchSweepCommand,
    registerDoctorCommand,
  ]) {
    register(program, ctx);
  }
  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError && error.exitCode === 0) return 0;
    if (error instanceof UserError) ctx.note(`ccrepro: ${error.message}`);
    // A bug of ccrepro's: its stack is what a maintainer needs.
    else if (!(error instanceof CommanderError)) ctx.note(`ccrepro: unexpected failure\n${(error as Error).stack ?? String(error)}`);
    return wantsGitBisectCodes(argv) ? gitBisectExit(error) : EXIT_USER_ERROR;
  }
}
