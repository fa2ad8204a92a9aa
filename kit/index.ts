// ccrepro's entry for scenario authors (`import … from "ccrepro"`): defining a scenario, its sessions, parameters,
// the conversation the mock plays, the steps the driver takes, the conditions it waits for, and hooks that answer.
// What a check reads comes from "ccrepro/checkers". Built-in scenarios import these same two entries.
//
//   import { defineScenario, session, conversation, bash, text, start, wait, resultPrinted, z } from "ccrepro";
//
// Doc comments sit on the declarations, so an editor shows them on completion; README "Reproduce your own bug" and
// `ccrepro new NAME --kind …` show whole files.

/** zod, for a scenario's `params` schema: `z.strictObject({ how: choice(["a", "b"], { default: "a" }) })`. */
export { z } from "zod";

// Defining a scenario.
export { defineScenario, type CheckOutput, type Driver, type KnownState, type PublicRecord, type PublicRecordRelease, type ScenarioDefinition, type StepContext } from "./scenario.ts";
export { session, type Session } from "./session.ts";
export { choice, count, flag, milliseconds } from "./params.ts";
import type * as plan from "../harness/plan.ts";
import type * as capabilities from "../releases/needs.ts";
/** What a scenario needs from a release: a capability (`"background-bash"`; `ccrepro scenarios --claude V` lists a release's), `hook:<EventName>` or `tool:<Name>` (`tool:Monitor`, `tool:ToolSearch`). */
export type Need = capabilities.Need;
/** The sessions' permissions: "bypass", or `{ mode: "default" | "acceptEdits" | "dontAsk" | "plan", allow?, deny? }`. */
export type PermissionPlan = plan.PermissionPlan;
/** A `--setting-sources` value: "user", "project" or "local". */
export type SettingSource = plan.SettingSource;
/** How `stop` ends a session: "stdin", "sigterm", "sigkill"; the SDK driver's "abort" and "close-then-abort". */
export type StopHow = plan.StopHow;
/** A key `press` presses, by name: "enter", "escape", "ctrl-c", … */
export type TerminalKey = plan.TerminalKey;
/** What a `screenWait` sees: the UI's screen as text, whether it exited, and the recordings. */
export type TerminalView = plan.TerminalView;
/** What a `command` step's arguments may be computed from: screens, recordings, and earlier commands' output by label. */
export type CommandView = plan.CommandView;

// What the mock answers.
export { conversation, type ConversationStream } from "./moves.ts";
export { bash, foregroundWait, subagent, text, thinking, toolCall, type ReplyInput } from "./replies.ts";
export { drop, httpError, midStreamError, stall, type FaultScope } from "./faults.ts";
import type * as script from "../mock-api/script.ts";
/** The mock's whole script, as `conversation()` returns it (streams, replies by step, strictness, usage model). */
export type MockScriptInput = script.MockScriptInput;

// Replaying a recording (`ccrepro record`, `ccrepro import`).
export { recording, type LoadedRecording } from "./recording.ts";

// What the driver does.
export {
  command,
  continueLatest,
  daemonExit,
  interrupt,
  pause,
  press,
  print,
  resume,
  screenWait,
  send,
  start,
  stop,
  terminal,
  type,
  wait,
  watch,
  type PrintOptions,
  type StartOptions,
  type Step,
  type Steps,
  type StopOptions,
  type TerminalOptions,
  type WaitOptions,
} from "./steps.ts";
export { editTranscript, type TranscriptEdit } from "./transcripts.ts";
export { allOf, anyOf, hookCalled, promptAnswered, quietFor, requestsMade, resultPrinted, sessionEnded, type Condition } from "./waits.ts";

// Hooks: record, and answer.
export { allow, answer, block, context, exit2, permission, reply, shell, type FixedReply, type HookAnswer, type HookAnswerReply, type HooksDeclaration, type ShellReply } from "./hooks.ts";

// MCP servers the sessions get.
export { mcpServer, type McpServerOptions } from "./mcp.ts";
