// ccrepro's public entry: everything a scenario file is made of. Built-in scenarios import this same module, so
// what users get cannot drift from what ccrepro itself uses.
//
//   import { defineScenario, conversation, startWith, waitFor, bash, text, choice, judge, z } from "ccrepro";
//
// A scenario is one object: a mock script (the conversation the fake API plays), the steps the driver takes, and a
// pure check that reads the recordings and returns a verdict. See README "Reproduce your own bug"; `ccrepro new NAME`
// writes a commented file to start from. Doc comments sit on the declarations, so an editor shows them on completion.

export { z } from "zod";

// Defining a scenario.
export { defineScenario, scenarioProblems, ScenarioDefinitionError, type KnownState, type KnownVerdict, type Scenario } from "./scenario.ts";
export { DRIVERS, scenarioDrivers, type Driver, type StepContext } from "./scenario.ts";
// What a scenario can declare in `needs`: the closed list of capabilities (each documented where it is defined, with
// the first release that has it) and `hook:<EventName>`.
export { CAPABILITIES, type Capability, type Need } from "../releases/capabilities.ts";
export { DEFAULT_NEEDS, scenarioNeeds } from "./scenario.ts";
export { choice, count, flag, milliseconds } from "./params.ts";

// What the mock answers: reply builders (text, tool calls, background Bash, subagent launch, thinking), faults, and
// the script they go into.
export { bash, nodeWait, subagent, text, thinking, toolCall, type ReplyInput } from "./replies.ts";
export { drop, httpError, midStreamError, stall, type FaultInput } from "./faults.ts";
export type { MockScriptInput } from "../mock-api/script.ts";

// What the driver does: steps (start + send, wait, stop, resume, send, command, terminal, type, press, screen waits,
// pause), and the moves scenarios share.
export { answeredAndSettled, conversation, promptAnsweredIn, resultSeen, sessionNamed, startWith, waitFor, type ConversationStream } from "./moves.ts";
export { command, pause, press, resume, screenWait, send, stop, terminal, type } from "./steps.ts";
export type { CommandOutput, CommandView, HookCapture, StdinMessage, Step, StopHow, TerminalKey, TerminalView } from "../harness/plan.ts";

// What a check reads: the run's recordings.
export type { HookRecord, Recordings, SessionRecording, StdoutRecord } from "../harness/recordings.ts";

// Judging: every checker returns { reached, findings, notes }; judge() turns that into the verdict.
export { finding, judge, type CheckerOutput, type CheckResult, type Finding, type Reached, type Verdict } from "../core/verdict.ts";

// The checkers, with their finding ids: notification bytes across boundaries, the turn grammar, hook payloads,
// continuation after /background, the prompt cache. comparePrefix tells whether a prompt prefix kept its bytes.
export { describeBoundary, findBoundaries, type Boundary, type BoundaryKind } from "../checker/boundaries.ts";
export { auditCache, resumeCacheFindings, type CacheAudit, type CacheFinding } from "../checker/cache-audit.ts";
export { checkNotificationStability, NOTIFICATION_FINDINGS, type NotificationFindingId } from "../checker/notification-check.ts";
export { comparePrefix, type PrefixComparison } from "../checker/prefix.ts";
export { checkTurnGrammar, checkTurnStructure, promptAnswered, TURN_FINDINGS, type TurnFindingId } from "../checker/turns.ts";
export { checkHookPrompts, HOOK_FINDINGS, type HookFindingId } from "../checker/hooks.ts";
export { notificationDeliveries } from "../checker/notification-delivery.ts";
export { checkContinuation, turnAnswered, CONTINUATION_FINDINGS, type ContinuationFindingId } from "../checker/continuation.ts";
// Added to every scenario's result by the pipeline (not declared per scenario): requests the real API would reject.
export { API_FINDINGS, checkApiConformance, type ApiFindingId } from "../checker/api-conformance.ts";
export { checkInterruptedCall, firstToolUse, INTERRUPTED_CALL_FINDINGS } from "../checker/interrupted-call.ts";
export { orphanPremise, type OrphanPremise } from "../checker/orphan-premise.ts";
// The clock every recorded time uses: a live wait comparing "now" with a recorded time must read this one.
export { clockNow } from "../core/time.ts";
