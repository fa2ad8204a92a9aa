// How an in-flight turn went on after `/background`, from the request log alone: who sent what, re-sends, killed tools, answers.
import type { Recordings } from "../harness/recordings.ts";
import { waitedSince } from "./absence-window.ts";
import type { RequestEntry } from "../mock-api/log-entry.ts";
import { isJsonObject, type Json } from "./json-value.ts";
import { streamRequests } from "./model-request.ts";
import { readMessagesBody, type Message } from "./request-body.ts";
import { finding, type CheckerOutput, type Finding } from "../core/verdict.ts";

export const CONTINUATION_FINDINGS = ["turn-dropped", "turn-duplicated", "tool-killed", "turn-rerun"] as const;
export type ContinuationFindingId = (typeof CONTINUATION_FINDINGS)[number];

const continuationFinding = (input: Parameters<typeof finding>[0] & { id: ContinuationFindingId }): Finding => finding(input);

type RequestLog = Pick<Recordings, "requests" | "responseEnds" | "body">;

export interface ContinuationOptions {
  // The stream the turn's requests are classified into.
  stream: string;
  // The interactive UI's pid: requests from it are the foreground's, any other pid is another process.
  foregroundPid: number | null;
}

export interface ToolEnding {
  toolUseId: string;
  isError: boolean;
  text: string;
  // The model is told the tool did not finish because it was killed.
  killed: boolean;
}

export type TurnRole =
  // The request whose reply was the tool call in flight when the session was backgrounded.
  | "original"
  // The prompt sent again, with no assistant message yet: the turn started over.
  | "resend"
  // Carries the result of a tool call the mock made in reply to request `continues`.
  | "continuation"
  | "other";

export interface TurnRequest {
  seq: number;
  step: number;
  role: TurnRole;
  continues: number | null;
  result: ToolEnding | null;
  sessionId: string | null;
  pid: number | null;
  command: string | null;
  // Sent by the interactive UI; null when neither the pid nor the session id tells.
  foreground: boolean | null;
  // What `foreground` was told by: the client's pid, or (when the mock could not find the process) the session id.
  foregroundBy: "pid" | "session-id" | null;
  // The reply ended the turn (end_turn) and was delivered completely.
  answered: boolean;
  stopReason: string | null;
}

export interface TurnReport {
  // The original request, then every later request of the stream, in arrival order. Empty without an original.
  requests: TurnRequest[];
}

// The mock names tool_use ids it was not given after the request they answered (mock-api/reply-message.ts).
const MOCK_TOOL_ID = /^toolu_mock_(\d+)_\d+$/;
// Exit code 137/143 is a SIGKILL/SIGTERM death; with is_error, these words say the same in prose.
const KILLED_EXIT = /exit code (137|143)\b/i;
const KILLED_WORDS = /\bkill(ed)?\b|SIGKILL|SIGTERM|terminated|interrupted|aborted/i;

const answeredEntry = (log: Pick<RequestLog, "responseEnds">, entry: RequestEntry) =>
  entry.reply.stopReason === "end_turn" && log.responseEnds.get(entry.seq)?.outcome === "complete";

const sessionOf = (entry: RequestEntry) => entry.headers["x-claude-code-session-id"] ?? null;

// The stream's request whose reply was a tool call: the turn in flight. Its session id is the foreground's.
const originalIndex = (entries: readonly RequestEntry[]) => entries.findIndex((entry) => entry.reply.stopReason === "tool_use");

// Who sent a request: the foreground UI (pid `foregroundPid`) or another process. A process that exits mid-request can
// vanish before the mock finds it; its session id (that of the original request) still says who it was.
function attribute(entry: RequestEntry, foregroundPid: number | null, originalSession: string | null): Pick<TurnRequest, "foreground" | "foregroundBy"> {
  const pid = entry.client.pid ?? null;
  if (pid !== null && foregroundPid !== null) return { foreground: pid === foregroundPid, foregroundBy: "pid" };
  if (originalSession !== null && sessionOf(entry) === originalSession) return { foreground: true, foregroundBy: "session-id" };
  return { foreground: null, foregroundBy: null };
}

// Whether a request of the stream got the turn's answer, optionally only counting requests not sent by the
// foreground UI of pid `notBy` (attributed as classifyTurn does). Cheap enough for a live wait: log entries only, no bodies.
export function turnAnswered(log: Pick<RequestLog, "requests" | "responseEnds">, stream: string, notBy: number | null = null): boolean {
  const entries = streamRequests(log.requests, stream);
  const at = originalIndex(entries);
  const originalSession = at === -1 ? null : sessionOf(entries[at]!);
  return entries.some((entry) => answeredEntry(log, entry) && (notBy === null || attribute(entry, notBy, originalSession).foreground !== true));
}

// Plain-text content holds no tool_use or tool_result block, the only blocks read here.
function blocks(message: Message): Json[] {
  return typeof message.content === "string" ? [] : message.content;
}

function resultText(content: Json | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.flatMap((block) => (isJsonObject(block) && typeof block.text === "string" ? [block.text] : [])).join("\n");
}

// The tool results answering the last assistant message's tool calls, and the request that made those calls.
function lastToolExchange(messages: Message[]): { producer: number | null; result: ToolEnding } | null {
  const at = messages.map((m) => m.role).lastIndexOf("assistant");
  if (at === -1) return null;
  const ids = blocks(messages[at]!).flatMap((b) => (isJsonObject(b) && b.type === "tool_use" && typeof b.id === "string" ? [b.id] : []));
  for (const message of messages.slice(at + 1)) {
    for (const block of blocks(message)) {
      if (!isJsonObject(block) || block.type !== "tool_result" || typeof block.tool_use_id !== "string" || !ids.includes(block.tool_use_id)) continue;
      const text = resultText(block.content);
      const isError = block.is_error === true;
      const producer = MOCK_TOOL_ID.exec(block.tool_use_id);
      return {
        producer: producer ? Number(producer[1]) : null,
        result: { toolUseId: block.tool_use_id, isError, text, killed: KILLED_EXIT.test(text) || (isError && KILLED_WORDS.test(text)) },
      };
    }
  }
  return null;
}

export function classifyTurn(log: RequestLog, options: ContinuationOptions): TurnReport {
  const entries = streamRequests(log.requests, options.stream);
  const at = originalIndex(entries);
  if (at === -1) return { requests: [] };
  const originalSession = sessionOf(entries[at]!);
  const requests = entries.slice(at).map((entry, i): TurnRequest => {
    const exchange = i === 0 ? null : lastToolExchange(readMessagesBody(log, entry.seq).messages);
    const step = entry.step ?? 0;
    const pid = entry.client.pid ?? null;
    return {
      seq: entry.seq,
      step,
      role: i === 0 ? "original" : step === 0 ? "resend" : exchange ? "continuation" : "other",
      continues: exchange?.producer ?? null,
      result: exchange?.result ?? null,
      sessionId: sessionOf(entry),
      pid,
      command: entry.client.command ?? null,
      ...attribute(entry, options.foregroundPid, originalSession),
      answered: answeredEntry(log, entry),
      stopReason: entry.reply.stopReason,
    };
  });
  return { requests };
}

export function describeSender(r: TurnRequest): string {
  const who =
    r.foreground === null ? "an unidentified process" : `${r.foreground ? "the foreground UI" : "another process"}${r.foregroundBy === "session-id" ? " (by its session id)" : ""}`;
  const pid = r.pid === null ? "" : ` pid ${r.pid}${r.command ? ` (${r.command.slice(0, 80)})` : ""}`;
  return `${who}${pid}, session ${r.sessionId ?? "-"}`;
}

function describe(r: TurnRequest): string {
  const role = r.role === "continuation" ? `continuation of req ${r.continues ?? "?"}` : r.role;
  const result = r.result ? `, tool result ${JSON.stringify(r.result.text.slice(0, 60))}${r.result.isError ? " (error)" : ""}` : "";
  return `req ${r.seq} step ${r.step}: ${role}${result} → ${r.stopReason ?? "no stop reason"}${r.answered ? " (answers the turn)" : ""}; from ${describeSender(r)}`;
}

export type ContinuationCheck = CheckerOutput;

// Session recordings, when given (a whole run's Recordings), set the window turn-dropped waits out (absence-window.ts).
export function checkContinuation(log: RequestLog & Partial<Pick<Recordings, "sessions" | "hooks">>, options: ContinuationOptions): ContinuationCheck {
  const { requests } = classifyTurn(log, options);
  const original = requests[0];
  if (!original) {
    return { findings: [], reached: { ok: false, reason: `no ${options.stream} request was answered with a tool call, so no turn was in flight` }, notes: [] };
  }
  const later = requests.slice(1);
  const notes = requests.map(describe);
  const findings: Finding[] = [];
  // The foreground completing the tool means /background came too late: nothing was in flight to hand on.
  const finishedInForeground = later.find((r) => r.role === "continuation" && r.continues === original.seq && r.foreground === true && !r.result!.killed);
  // What the exiting UI sends on its way out is lost with it; the turn lives on only if another process continues it.
  const handedOn = later.filter((r) => r.foreground !== true);
  // Nobody continuing counts only once the run went on for a window scaled from its own pace after the tool call.
  const waited = waitedSince(log, log.responseEnds.get(original.seq)?.endedAt ?? log.requests.find((e) => e.seq === original.seq)!.receivedAt);
  const dropped = handedOn.length === 0 && !finishedInForeground;
  if (dropped && waited.enough) {
    const fromForeground = later.map((r) => `req ${r.seq} came from the foreground UI, which exits after /background`);
    findings.push(
      continuationFinding({
        id: "turn-dropped",
        red: true,
        title: `no process${later.length > 0 ? " but the exiting foreground UI" : ""} continued the in-flight turn: the tool call got no result there and the prompt was not re-sent`,
        where: `req ${original.seq} (the tool call in flight)`,
        detail: [`req ${original.seq} from ${describeSender(original)}`, ...fromForeground, waited.text],
        data: { original: original.seq, fromForeground: later.map((r) => r.seq), waitedMs: waited.waitedMs, windowMs: waited.window.requiredMs },
      }),
    );
  }

  const answers = requests.filter((r) => r.answered);
  if (answers.length > 1) {
    findings.push(
      continuationFinding({
        id: "turn-duplicated",
        red: true,
        title: `the turn was answered ${answers.length} times`,
        where: answers.map((r) => `req ${r.seq}`).join(", "),
        detail: answers.map((r) => `req ${r.seq} from ${describeSender(r)}`),
        data: { answers: answers.map((r) => r.seq) },
      }),
    );
  }

  for (const r of later.filter((candidate) => candidate.result?.killed)) {
    findings.push(
      continuationFinding({
        id: "tool-killed",
        red: true,
        title: `the model was told the tool call of req ${r.continues ?? "?"} was killed`,
        where: `req ${r.seq}, tool_result ${r.result!.toolUseId}`,
        detail: [`${r.result!.isError ? "is_error, " : ""}${JSON.stringify(r.result!.text.slice(0, 300))}`, `from ${describeSender(r)}`],
        data: { seq: r.seq, continues: r.continues, toolUseId: r.result!.toolUseId, isError: r.result!.isError, text: r.result!.text },
      }),
    );
  }

  for (const r of later.filter((candidate) => candidate.role === "resend")) {
    const rerunTool = later.some((c) => c.role === "continuation" && c.continues === r.seq);
    findings.push(
      continuationFinding({
        id: "turn-rerun",
        red: false,
        title: `the prompt was re-sent and the turn started over${rerunTool ? ", running the tool again" : ""}`,
        where: `req ${r.seq}`,
        detail: [`from ${describeSender(r)}`],
        data: { seq: r.seq, toolRanAgain: rerunTool },
      }),
    );
  }

  // The point is an answer the turn got after the hand-over: one the exiting UI got is lost with it, so only an answer
  // to a request not sent by the foreground counts (an unidentified sender counts, as it does for handedOn).
  const answeredAfterHandOver = answers.filter((r) => r.foreground !== true);
  const seqs = (rs: TurnRequest[]) => rs.map((r) => `req ${r.seq}`).join(", ");
  const lostAnswers = answers.length > 0 ? `; only the exiting foreground UI got an answer (${seqs(answers)}), which is lost with it` : "";
  const reached: ContinuationCheck["reached"] = finishedInForeground
    ? { ok: false, reason: `the foreground finished the tool itself (req ${finishedInForeground.seq}): /background came after the turn's tool call` }
    : answeredAfterHandOver.length > 0
      ? { ok: true }
      : handedOn.length > 0
        ? { ok: false, reason: `the turn was continued by another process (${seqs(handedOn)}) but never answered there${lostAnswers}` }
        : { ok: false, reason: `no process but the exiting foreground UI continued the turn${lostAnswers}${waited.enough ? "" : ` (too soon to call it dropped: ${waited.text})`}` };
  return { findings, reached, notes };
}
