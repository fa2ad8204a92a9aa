// ccrepro's entry for checker writers (`import … from "ccrepro/checkers"`): typed views of what a run recorded, the
// finding builder, and the checkers the built-in scenarios use, with their finding ids.
//
//   import { finding, requestsOf, resultOf, fileOf } from "ccrepro/checkers";
//
// Every view is a pure function of the recordings a check (or a wait) is given. Doc comments sit on the
// declarations, so an editor shows them on completion.

// What a check reads: the harness's recordings, documented here as the entry promises them.
import type * as recorded from "../harness/recordings.ts";
/** Everything a run recorded: sessions (stdout, stdin, process), the mock's requests and response ends, hooks, files; `body(seq)` gives a request's bytes. */
export type Recordings = recorded.Recordings;
/** One session's recording: its stdout lines (parsed), the lines written to its stdin, and its process record. */
export type SessionRecording = recorded.SessionRecording;
/** A session's process: argv, pid, start and end times, exit code, signal, how the harness stopped it, its session id. */
export type SessionProcess = recorded.SessionProcess;
/** One stdout line: its index, receive time, raw text and parsed stream-json event (null with `parseError` when it did not parse). */
export type StdoutRecord = recorded.StdoutRecord;
/** One hook call as recorded: time, event, the hook's own duration, the payload's raw text and JSON, and its answer. */
export type HookRecord = recorded.HookRecord;
/** What an answering hook replied on one call: rule, call index, exit code, stdout and stderr. */
export type HookAnswerRecord = recorded.HookAnswerRecord;
/** One file of the working directory: path, size, sha256, and its text when small. */
export type WorkdirFile = recorded.WorkdirFile;
/** The working directory at one moment. */
export type WorkdirSnapshot = recorded.WorkdirSnapshot;
/** One line an MCP fixture server logged: `t`, `event` (started, ready, request, tool-call, …), `pid`, `server`, `method`. */
export type McpServerEvent = recorded.McpServerEvent;
/** One captured screen of an interactive session: `t`, `session`, `what` (the step that took it, or "end") and its `text`. */
export type ScreenCapture = recorded.ScreenCapture;

// Typed views: sessions' result and init lines, requests by stream or session, tool results, hook calls, files.
export {
  answeredAndSettled,
  exitOf,
  fileOf,
  filesOf,
  hookCallsOf,
  initOf,
  mcpEventsOf,
  requestsOf,
  resultOf,
  resultsOf,
  screensOf,
  sessionOf,
  stdoutOf,
  type ContentBlock,
  type FilesAt,
  type HookCall,
  type HookPayload,
  type InitLine,
  type RequestFilter,
  type RequestMessage,
  type RequestView,
  type ResultLine,
  type SessionName,
  type ToolResultBlock,
  type ToolUseBlock,
} from "../checker/views.ts";

// A session's system lines (notifications, warnings), read as data.
export { systemLinesOf, type SystemLine } from "./system-lines.ts";
// The transcripts claude wrote, row by row.
export { conversationRows, transcriptOf, transcriptsOf, type TranscriptRow, type TranscriptView } from "../checker/transcripts.ts";
// What claude reports about failed API calls.
export { apiRetriesOf, blocksOf, type ApiRetryLine, type CarriedBlock } from "./api-views.ts";

// What a check returns.
export { finding, reached, notReached, type CheckFinding } from "./findings.ts";
import type * as verdicts from "../core/verdict.ts";
/** A finding with every field filled in (what the checkers below return). */
export type Finding = verdicts.Finding;
/** Whether a run reached the point its scenario tests: `{ ok: true }`, or `{ ok: false, reason }`. */
export type Reached = verdicts.Reached;
/** What the checkers below return, and what a check may return as it is: reached, findings, notes. */
export type CheckerOutput = verdicts.CheckerOutput;

// The checkers the built-ins use, with their finding ids.
import * as boundaries from "../checker/boundaries.ts";
import * as cache from "../checker/cache-audit.ts";
import * as notifications from "../checker/notification-check.ts";
import * as turns from "../checker/turns.ts";
import * as hooks from "../checker/hooks.ts";
import * as deliveries from "../checker/notification-delivery.ts";
import * as continuation from "../checker/continuation.ts";
import * as continued from "../checker/continued-conversation.ts";
import * as conformance from "../checker/api-conformance.ts";
import * as interrupted from "../checker/interrupted-call.ts";
import * as orphan from "../checker/orphan-premise.ts";

/** The places a conversation's bytes may change: process resumes, in-process continuations, compactions, by stream. */
export const findBoundaries = boundaries.findBoundaries;
/** A boundary in words, e.g. "sub: resume between #4 and #7", for a finding's `where`. */
export const describeBoundary = boundaries.describeBoundary;
/** One boundary between two requests of a stream: its kind and the requests on each side. */
export type Boundary = boundaries.Boundary;
/** What kind of boundary: a resume, a stop, an in-process continuation, … */
export type BoundaryKind = boundaries.BoundaryKind;

/** The prompt cache as the mock models it, per stream and boundary: what was readable, read and written. */
export const auditCache = cache.auditCache;
/** At each `--resume` boundary, a finding when the resumed request reads less than the previous process made readable. */
export const resumeCacheFindings = cache.resumeCacheFindings;
/** auditCache's result. */
export type CacheAudit = cache.CacheAudit;
/** One of resumeCacheFindings' results: the boundary, what it cost, and a message. */
export type CacheFinding = cache.CacheFinding;

/** Whether each absorbed `<task-notification>` keeps its bytes across the boundaries of the given kinds and streams. */
export const checkNotificationStability = notifications.checkNotificationStability;
/** checkNotificationStability's finding ids. */
export const NOTIFICATION_FINDINGS = notifications.NOTIFICATION_FINDINGS;
/** One of NOTIFICATION_FINDINGS. */
export type NotificationFindingId = notifications.NotificationFindingId;

/** The turn grammar of one session: each pushed prompt is settled once, by its own answer (result lines by origin). */
export const checkTurnGrammar = turns.checkTurnGrammar;
/** The turn grammar's finding ids. */
export const TURN_FINDINGS = turns.TURN_FINDINGS;
/** One of TURN_FINDINGS. */
export type TurnFindingId = turns.TurnFindingId;

/** Whether a `UserPromptSubmit` hook can tell a synthetic prompt (a task notification) from a typed one. */
export const checkHookPrompts = hooks.checkHookPrompts;
/** checkHookPrompts' finding ids. */
export const HOOK_FINDINGS = hooks.HOOK_FINDINGS;
/** One of HOOK_FINDINGS. */
export type HookFindingId = hooks.HookFindingId;

/** Each `<task-notification>` the run produced, and the first request of the given streams that carried it (null: none). */
export const notificationDeliveries = deliveries.notificationDeliveries;
/** One of notificationDeliveries' results. */
export type NotificationDelivery = deliveries.NotificationDelivery;

/** After `/background`, whether another process continued the in-flight turn exactly once. */
export const checkContinuation = continuation.checkContinuation;
/** Whether a stream's turn was answered by a process other than `foregroundPid`. */
export const turnAnswered = continuation.turnAnswered;
/** checkContinuation's finding ids. */
export const CONTINUATION_FINDINGS = continuation.CONTINUATION_FINDINGS;
/** One of CONTINUATION_FINDINGS. */
export type ContinuationFindingId = continuation.ContinuationFindingId;

/** The first main-loop request of a `--continue` session among its requests: in one of the mock's conversations, or ending with the new prompt and offering tools, whatever history it carries. */
export const continuedRequest = continued.continuedRequest;
/** What `--continue` carried on, from that request: nothing, the older session, another history, or the newer one without its turn (CONTINUED_FINDINGS). */
export const checkContinued = continued.checkContinued;
/** checkContinued's finding ids. */
export const CONTINUED_FINDINGS = continued.CONTINUED_FINDINGS;
/** The mock's conversations (stream names) of a --continue scenario: older, newer, and the new prompt alone (fresh). */
export type ContinuedStreams = continued.ContinuedStreams;

/** The finding ids every scenario's result may carry: requests the real Messages API would have rejected (400), added by the pipeline to every result (a `known` entry may name them). */
export const API_FINDINGS = conformance.API_FINDINGS;
/** One of API_FINDINGS. */
export type ApiFindingId = conformance.ApiFindingId;

/** A session stopped mid-tool and resumed: was the interrupted call kept (with a result) or erased, and does it conform. */
export const checkInterruptedCall = interrupted.checkInterruptedCall;
/** The first tool_use a session printed, with its line and time; undefined when none. */
export const firstToolUse = interrupted.firstToolUse;
/** checkInterruptedCall's (informational) finding ids. */
export const INTERRUPTED_CALL_FINDINGS = interrupted.INTERRUPTED_CALL_FINDINGS;

/** Whether the first session left a background task orphaned when it stopped, the premise of the resume it sets up. */
export const orphanPremise = orphan.orphanPremise;
/** orphanPremise's result: whether it holds, why not, and a note. */
export type OrphanPremise = orphan.OrphanPremise;

import * as replay from "../checker/replay-fidelity.ts";
import type { LoadedRecording } from "./recording.ts";
/** replayFidelity's finding ids: a request that differs from its recorded one, matches none, or was never made. */
export const REPLAY_FINDINGS = replay.REPLAY_FINDINGS;
/**
 * Replay fidelity: each Messages request of the replay against the recorded one the mock answered it with, normalised
 * (ids, dates, paths, per-request hashes); the first divergence is a finding with the diff. Not reached when the replay
 * made fewer requests than recorded and none of them differed.
 *
 * @example check: (rec) => replayFidelity(rec, recorded)
 */
export const replayFidelity = (rec: Recordings, recorded: LoadedRecording) => replay.checkReplayFidelity(rec, recorded.requests);
