// The one base class for errors a user can fix. Its code is one of a closed list, stable for scripts and tests; its
// hint says what to do; its cause keeps what went wrong underneath. The CLI turns it into lines and an exit code in
// one place (describeUserError), and a bug of ccrepro's (any other error) into its stack.
import { EXIT_ERROR } from "./exit-codes.ts";

export const ERROR_CODES = [
  // Input on the command line or in a file the user gave.
  // A value an option or argument does not take (a malformed --shard, a --confidence outside 0–1, an --out not .ts).
  "BAD_ARGUMENT",
  // A required argument or option is absent (sweep without --out, atlas without scenario names, --merge without dirs).
  "MISSING_ARGUMENT",
  // Options that do not go together, or one given without the one it needs (--sdk without --driver sdk).
  "CONFLICTING_OPTIONS",
  // A --param that is not key=value, or that the scenario's parameter schema refuses.
  "BAD_PARAM",
  // The command after `ccrepro record --` could not be started.
  "BAD_COMMAND",
  // The nightly config, or npm's configuration (.npmrc, its cafile), is wrong.
  "BAD_CONFIG",
  // A version word no release list understands (since:yesterday, ../x).
  "BAD_VERSION_WORD",
  // A scenario file that cannot be read, imported or run as a scenario.
  "BAD_SCENARIO_FILE",
  // A scenario definition whose fields are wrong (defineScenario's problems, each naming its field).
  "BAD_SCENARIO_DEFINITION",
  // A name `ccrepro new` cannot give a scenario: not lower-case words joined by dashes, or a built-in's.
  "BAD_SCENARIO_NAME",
  "UNKNOWN_SCENARIO",
  "UNKNOWN_SDK_VERSION",
  "FILE_EXISTS",
  // `ccrepro init ci` in a folder that lacks what the workflow needs (ccrepro in package.json, a lockfile, a scenario).
  "NOT_SET_UP",
  "OUT_DIR_TAKEN",
  "OUT_IN_USE",
  "UNKNOWN_VERSION",
  // A word that names several releases where one is needed.
  "AMBIGUOUS_VERSION",
  // A range that gives no release, or fewer than the command needs.
  "NO_MATCHING_VERSIONS",
  "UNSUPPORTED_DRIVER",
  "SCENARIO_MISMATCH",
  "BAD_LOG_DIR",
  // Directories and files ccrepro wrote, read back.
  // A run directory ccrepro cannot read as one (no or a damaged run.json, a newer format, a link out of it).
  "BAD_RUN_DIR",
  "BAD_REPORT_TARGET",
  "BAD_SUMMARY",
  "BAD_SWEEP",
  "BAD_MERGE",
  "BAD_ATLAS",
  // A scenario or release the atlas did not measure (atlas advise --avoid, --current).
  "NOT_IN_ATLAS",
  "RECORDING_CORRUPT",
  "RECORDING_NOT_FOUND",
  "RECORDING_VERSION",
  "RECORDING_HOLDS_SECRET",
  "TRANSCRIPT_UNREADABLE",
  "TRANSCRIPT_FORMAT",
  // The machine, the network and the binaries.
  "MISSING_BINARY",
  // A program a command runs is not on the PATH (python3 for bench-seed's report-shaped harness).
  "MISSING_TOOL",
  "INSTALL_FAILED",
  "REGISTRY_UNREACHABLE",
  "REGISTRY_REFUSED",
  "BAD_REGISTRY_DATA",
  "CACHE_LOCKED",
  "UNSUPPORTED_PLATFORM",
  "BAD_UPSTREAM",
  "CANNOT_RECORD",
  // The mock.
  "PORT_IN_USE",
  "SCRIPT_NOT_FOUND",
  "SCRIPT_NOT_JSON",
  "SCRIPT_INVALID",
  // A bisection that cannot go on (bisect/errors.ts and bisect/flaky-bisector.ts say which).
  "BISECT_BAD_INPUT",
  "BISECT_SAME_OUTCOME",
  "BISECT_ENDPOINT_BROKEN",
  "BISECT_INTERRUPTED",
  "BISECT_BUDGET_SPENT",
  // A flaky bisection whose ends showed the signal too rarely to tell them apart.
  "BISECT_NO_SIGNAL",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface UserErrorOptions {
  // What went wrong underneath (an fs error, a parse error), kept for --verbose readers and tests.
  cause?: unknown;
  // What to do about it, printed on its own line after the message.
  hint?: string;
}

// A scenario file imports its own copy of the kit, and so of this module (pipeline/scenario-source.ts loads it in a
// tsx namespace of its own): what its copy throws is no `instanceof` this copy's UserError. The brand, registered for
// the whole process as the kit's defined scenarios are, still says that it is one, and its code says which.
const USER_ERROR: unique symbol = Symbol.for("ccrepro.user-error");

export class UserError extends Error {
  readonly [USER_ERROR] = true;
  readonly hint: string | null;

  constructor(
    message: string,
    readonly code: ErrorCode,
    options: UserErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "UserError";
    this.hint = options.hint ?? null;
  }
}

// Whether `error` is a UserError of any copy of this module.
export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError || (error instanceof Error && USER_ERROR in error);
}

// What the CLI prints for an error and the exit code it ends with: a UserError is its message (and hint) and exit 3,
// anything else a bug of ccrepro's with its stack, also exit 3.
export function describeUserError(error: unknown): { lines: string[]; exitCode: typeof EXIT_ERROR } {
  if (isUserError(error)) return { lines: [`ccrepro: ${error.message}`, ...(error.hint ? [`  ${error.hint}`] : [])], exitCode: EXIT_ERROR };
  return { lines: [`ccrepro: unexpected failure\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`], exitCode: EXIT_ERROR };
}
