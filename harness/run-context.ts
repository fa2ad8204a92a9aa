// What every step executor works with: the run's live state, and how a step reports success or failure.
import type { BinaryProbe } from "../releases/capabilities.ts";
import type { HeadlessSession } from "./headless-session.ts";
import type { PermissionChoice, SessionSettings } from "./isolation.ts";
import type { LiveRecordings } from "./live-recordings.ts";
import type { ResolvedClaude } from "../releases/resolve.ts";
import type { RunLayout } from "./run-layout.ts";
import type { SdkInstall, SdkSession } from "./sdk-session.ts";
import type { SessionDriver } from "./plan.ts";
import type { StepRecord } from "./run-record.ts";
import type { TerminalSession } from "./terminal-session.ts";

// A step that could not be carried out: the run ends with a harness error (ERROR), never a verdict. Not a UserError,
// on purpose: it never leaves recordRun as an error (its message becomes run.json's harnessError, the verdict ERROR),
// and most of its causes are the binary's (a session that hangs, exits early or opens a dialog), not an input the
// user can fix; the error base is for what reaches the CLI's one describeUserError. Any other error a step throws is
// a bug of ccrepro's, recorded with its stack.
export class StepFailure extends Error {}

export interface RunContext {
  layout: RunLayout;
  env: Record<string, string>;
  claude: ResolvedClaude;
  probe: BinaryProbe;
  // The permission flags chosen for this release (recorded in run.json).
  permissions: PermissionChoice;
  // Setting sources and the --settings file every session gets; the user settings only when absent (older tests).
  settings?: SessionSettings;
  live: LiveRecordings;
  sessions: Map<string, HeadlessSession | SdkSession>;
  // How "start" steps run their sessions, and the SDK they go through (null for headless).
  driver: SessionDriver;
  sdk: SdkInstall | null;
  // Interactive UIs in pseudo-terminals, by session label.
  terminals: Map<string, TerminalSession>;
  abort: AbortSignal;
  // Marks the moment the last awaited event was recorded (the floor of the run's wall time).
  pointReached: () => void;
}

export interface StepResult {
  outcome: StepRecord["outcome"];
  detail: string | null;
  // Set with a timeout the scenario allowed: the run goes on.
  mayTimeOut?: true;
}
