// ccrepro's public entry: everything a scenario file is made of. Built-in scenarios import this same module, so
// what users get cannot drift from what ccrepro itself uses.
//
//   import { defineScenario, conversation, startWith, waitFor, bash, text, choice, judge, z } from "ccrepro";
//
// A scenario is one object: a mock script (the conversation the fake API plays), the steps the driver takes, and a
// pure check that reads the recordings and returns a verdict. See README "Reproduce your own bug".

export { z } from "zod";

// Defining a scenario.
export { defineScenario, scenarioProblems, ScenarioDefinitionError, type KnownState, type KnownVerdict, type Scenario } from "./scenario.ts";
// What a scenario can declare in `needs`: the closed list of capabilities (each documented where it is defined, with
// the first release that has it) and `hook:<EventName>`.
export { CAPABILITIES, type Capability, type Need } from "../releases/capabilities.ts";
export { DEFAULT_NEEDS, scenarioNeeds } from "./scenario.ts";
export { choice, count, flag, milliseconds } from "./params.ts";

// What the mock answers: reply builders, and the script they go into.
export { bash, nodeWait, text, toolCall, type ReplyInput } from "./replies.ts";
export type { MockScriptInput } from "../mock-api/script.ts";

// What the driver does: steps, and the moves scenarios share.
export { answeredAndSettled, conversation, resultSeen, sessionNamed, startWith, waitFor, type ConversationStream } from "./moves.ts";
export type { CommandOutput, CommandView, HookCapture, StdinMessage, Step, StopHow, TerminalKey, TerminalView } from "../harness/plan.ts";

// What a check reads: the run's recordings.
export type { HookRecord, Recordings, SessionRecording, StdoutRecord } from "../harness/recordings.ts";

// Judging: every checker returns { reached, findings, notes }; judge() turns that into the verdict.
export { finding, judge, type CheckerOutput, type CheckResult, type Finding, type Reached, type Verdict } from "../core/verdict.ts";

// The checkers, with their finding ids.
export { findBoundaries, type Boundary, type BoundaryKind } from "../checker/boundaries.ts";
export { checkNotificationStability, NOTIFICATION_FINDINGS, type NotificationFindingId } from "../checker/notification-check.ts";
export { checkTurnGrammar, checkTurnStructure, promptAnswered, TURN_FINDINGS, type TurnFindingId } from "../checker/turns.ts";
export { checkHookPrompts, HOOK_FINDINGS, type HookFindingId } from "../checker/hooks.ts";
export { notificationDeliveries } from "../checker/notification-delivery.ts";
export { checkContinuation, turnAnswered, CONTINUATION_FINDINGS, type ContinuationFindingId } from "../checker/continuation.ts";
