// The one base class for errors a user can fix. Its code is one of a closed list, stable for scripts and tests; its
// hint says what to do; its cause keeps what went wrong underneath. The CLI turns it into lines and an exit code in
// one place (describeUserError), and a bug of ccrepro's (any other error) into its stack.

export const ERROR_CODES = [
  // Input on the command line or in a file the user gave.
  "BAD_ARGUMENT",
  "BAD_PARAM",
  "BAD_COMMAND",
  "BAD_CONFIG",
  "BAD_VERSION_WORD",
  "BAD_SCENARIO_FILE",
  "UNKNOWN_SCENARIO",
  "UNKNOWN_SDK_VERSION",
  "FILE_EXISTS",
  "OUT_DIR_TAKEN",
  "OUT_IN_USE",
  "UNKNOWN_VERSION",
  "AMBIGUOUS_VERSION",
  "NO_MATCHING_VERSIONS",
  "UNSUPPORTED_DRIVER",
  "SCENARIO_MISMATCH",
  "BAD_LOG_DIR",
  // Directories and files ccrepro wrote, read back.
  "BAD_RUN_DIR",
  "BAD_REPORT_TARGET",
  "BAD_SUMMARY",
  "BAD_SWEEP",
  "BAD_MERGE",
  "BAD_ATLAS",
  "RECORDING_CORRUPT",
  "RECORDING_NOT_FOUND",
  "RECORDING_VERSION",
  "RECORDING_HOLDS_SECRET",
  "TRANSCRIPT_UNREADABLE",
  "TRANSCRIPT_FORMAT",
  // The machine, the network and the binaries.
  "MISSING_BINARY",
  "INSTALL_FAILED",
  "REGISTRY_UNREACHABLE",
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
  // A bisection that cannot go on (bisect/errors.ts says which).
  "BISECT_BAD_INPUT",
  "BISECT_SAME_OUTCOME",
  "BISECT_ENDPOINT_BROKEN",
  "BISECT_INTERRUPTED",
  "BISECT_BUDGET_SPENT",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface UserErrorOptions {
  // What went wrong underneath (an fs error, a parse error), kept for --verbose readers and tests.
  cause?: unknown;
  // What to do about it, printed on its own line after the message.
  hint?: string;
}

export class UserError extends Error {
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

// What the CLI prints for an error and the exit code it ends with: a UserError is its message (and hint) and exit 3,
// anything else a bug of ccrepro's with its stack, also exit 3.
export function describeUserError(error: unknown): { lines: string[]; exitCode: 3 } {
  if (error instanceof UserError) return { lines: [`ccrepro: ${error.message}`, ...(error.hint ? [`  ${error.hint}`] : [])], exitCode: 3 };
  return { lines: [`ccrepro: unexpected failure\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`], exitCode: 3 };
}
