// ccrepro's command line: parses, validates, calls the commands; one handler turns expected errors into exit codes.
// Only the command a line names is loaded (each pulls in its own part of the tool); `ccrepro --help` prints the
// listing the build wrote from every command's own definition, so it loads none of them.
import fs from "node:fs";
import { Command, CommanderError } from "commander";
import { describeUserError, UserError } from "../core/errors.ts";
import { EXIT_ERROR } from "../core/exit-codes.ts";
import { markPhase } from "../core/phases.ts";
import { createCliContext, type CliContext } from "./context.ts";
import { NO_REAP_VAR } from "../harness/processes.ts";


// With `--exit-codes git-bisect`, git must not read a failure to test as "bad": a binary the build did not produce
// is "skip" (125), anything else that stops the test is "abort" (128).
function gitBisectExit(error: unknown): number {
  return error instanceof UserError && error.code === "MISSING_BINARY" ? 125 : 128;
}

const wantsGitBisectCodes = (argv: string[]) =>
  argv.includes("--exit-codes=git-bisect") || argv.some((word, i) => word === "--exit-codes" && argv[i + 1] === "git-bisect");

type Register = (program: Command, ctx: CliContext) => void;

// Every command in the order `--help` lists them, each loaded only when used.
const COMMANDS: [name: string, load: () => Promise<Register>][] = [
  ["run", async () => (await import("./commands/run.ts")).registerRunCommand],
  ["check", async () => (await import("./commands/check.ts")).registerCheckCommand],
  ["scenarios", async () => (await import("./commands/scenarios.ts")).registerScenariosCommand],
  ["mock", async () => (await import("./commands/mock.ts")).registerMockCommand],
  ["versions", async () => (await import("./commands/versions.ts")).registerVersionsCommand],
  ["install", async () => (await import("./commands/install.ts")).registerInstallCommand],
  ["bisect", async () => (await import("./commands/bisect.ts")).registerBisectCommand],
  ["bench", async () => (await import("./commands/bench.ts")).registerBenchCommand],
  ["nightly", async () => (await import("./commands/nightly.ts")).registerNightlyCommand],
  ["report", async () => (await import("./commands/report.ts")).registerReportCommand],
  ["new", async () => (await import("./commands/new.ts")).registerNewCommand],
  ["pack", async () => (await import("./commands/pack.ts")).registerPackCommand],
  ["sweep", async () => (await import("./commands/sweep.ts")).registerSweepCommand],
  ["bench-seed", async () => (await import("./commands/bench-seed.ts")).registerBenchSeedCommand],
  ["bench-sweep", async () => (await import("./commands/bench-sweep.ts")).registerBenchSweepCommand],
  ["atlas", async () => (await import("./commands/atlas.ts")).registerAtlasCommand],
  ["bench-atlas", async () => (await import("./commands/bench-atlas.ts")).registerBenchAtlasCommand],
  ["advise", async () => (await import("./commands/advise.ts")).registerAdviseCommand],
  ["record", async () => (await import("./commands/record.ts")).registerRecordCommand],
  ["import", async () => (await import("./commands/import.ts")).registerImportCommand],
  ["doctor", async () => (await import("./commands/doctor.ts")).registerDoctorCommand],
  ["ci", async () => (await import("./commands/ci.ts")).registerCiCommand],
  ["init", async () => (await import("./commands/init.ts")).registerInitCommand],
];

// The top-level listing the build wrote beside the compiled CLI (absent when running from source).
const BUILT_HELP = new URL("./help.txt", import.meta.url);

function newProgram(): Command {
  return new Command("ccrepro")
    .description("Reproduce Claude Code CLI bugs black-box against a scripted Messages API.")
    .option("--no-reap", `do not end other runs' orphaned processes before a run (also ${NO_REAP_VAR}=1); \`ccrepro doctor\` still reaps when asked`)
    // One owner for the setting: the environment variable, which this option sets for the command it precedes.
    .hook("preAction", (root) => {
      if ((root.opts() as { reap?: boolean }).reap === false) process.env[NO_REAP_VAR] = "1";
    })
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
}

// The command the words name (`run …`, `help run`), or null for the top level, a typo or nothing.
function namedCommand(argv: readonly string[]): string | null {
  const words = argv[0] === "help" ? argv.slice(1) : argv;
  return COMMANDS.some(([name]) => name === words[0]) ? words[0]! : null;
}

// The whole program's top-level help, every command loaded: what the build writes to help.txt.
export async function fullHelp(): Promise<string> {
  const program = newProgram();
  const ctx = createCliContext(() => {});
  for (const [, load] of COMMANDS) (await load())(program, ctx);
  return program.helpInformation();
}

export async function main(argv: string[]): Promise<number> {
  if (argv.length === 1 && (argv[0] === "--help" || argv[0] === "-h") && fs.existsSync(BUILT_HELP)) {
    process.stdout.write(fs.readFileSync(BUILT_HELP, "utf8"));
    return 0;
  }
  let exitCode = 0;
  const ctx = createCliContext((code) => {
    exitCode = code;
  });
  const program = newProgram();
  const named = namedCommand(argv);
  await import("./zod-jitless.ts");
  // A line naming no command (the listing, a typo commander suggests a fix for) needs them all.
  for (const [name, load] of COMMANDS) {
    if (named === null || name === named) (await load())(program, ctx);
  }
  markPhase("command-loaded");
  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError && error.exitCode === 0) return 0;
    // Commander printed its own usage error; anything else is a UserError's message and hint, or a bug's stack.
    if (error instanceof CommanderError) return wantsGitBisectCodes(argv) ? gitBisectExit(error) : EXIT_ERROR;
    const described = describeUserError(error);
    for (const line of described.lines) ctx.note(line);
    return wantsGitBisectCodes(argv) ? gitBisectExit(error) : described.exitCode;
  }
}
