// What a resumed session made of a tool call that was still running when the session was stopped: kept in the
// history (with a synthetic tool_result) or erased. Also proves the call really was running at the stop, so a run
// that never got there is INCONCLUSIVE, never GREEN. Pure: the recordings in, findings and notes out.
import type { Recordings, SessionRecording } from "../harness/recordings.ts";
import { finding, type CheckerOutput, type Finding } from "../core/verdict.ts";
import { streamRequests } from "./model-request.ts";
import { readMessagesBody, type Message } from "./request-body.ts";
import { clip } from "./timeline-format.ts";

// Informational: erasing the call is a choice (older releases make it), not a request the API rejects.
export const INTERRUPTED_CALL_FINDINGS = ["interrupted-call-erased"] as const;

export interface InterruptedCallOptions {
  // The session stopped mid-call, and the one that resumed it.
  stopped: string;
  resumed: string;
  // The conversation stream both sessions' model requests belong to.
  stream: string;
  // Text of the prompt pushed to the resumed session: it marks the resumed request.
  resumedPrompt: string;
  // How long the tool runs on its own: a stop later than that interrupted nothing.
  toolRunsMs: number;
  // The earliest the stop can have come after the tool_use was printed (the scenario's pause before it); for an
  // interrupt control request the stdin line's own time is used.
  stopAfterMs: number;
}

interface ToolUse {
  id: string;
  name: string;
  t: number;
  line: number;
}

type Block = { type?: unknown; id?: unknown; tool_use_id?: unknown; text?: unknown; name?: unknown; content?: unknown };
const blocksOf = (content: unknown): Block[] => (Array.isArray(content) ? (content as Block[]) : typeof content === "string" ? [{ type: "text", text: content }] : []);

// The first tool_use the session printed, i.e. the call claude started.
export function firstToolUse(session: SessionRecording | undefined): ToolUse | undefined {
  for (const record of session?.stdout ?? []) {
    if (record.event?.type !== "assistant") continue;
    // The stream-events schema requires an assistant or user event's message, so it is there.
    const message = (record.event as { message: { content?: unknown } }).message;
    const block = blocksOf(message.content).find((b) => b.type === "tool_use" && typeof b.id === "string");
    if (block) return { id: block.id as string, name: String(block.name), t: record.t, line: record.line };
  }
  return undefined;
}

function toolResultLine(session: SessionRecording, id: string) {
  return session.stdout.find(
    (record) => record.event?.type === "user" && blocksOf((record.event as { message: { content?: unknown } }).message.content).some((b) => b.type === "tool_result" && b.tool_use_id === id),
  );
}

const INTERRUPT_LINE = /"type"\s*:\s*"control_request"[\s\S]*"subtype"\s*:\s*"interrupt"/;

const quoted = (value: string, max = 71) => JSON.stringify(clip(value, max));
// A string content is one text block to blocksOf, so it comes back whole.
function textOf(content: unknown): string {
  return blocksOf(content)
    .map((b) => (typeof b.text === "string" ? b.text : ""))
    .join("");
}

// One line per message: role, then each block in brief, so a person sees the history the resumed request carried.
export function summariseMessages(messages: readonly Message[]): string[] {
  return messages.map((message, i) => {
    const blocks = blocksOf(message.content).map((b) => {
      if (b.type === "text") return `text ${quoted(String(b.text))}`;
      if (b.type === "tool_use") return `tool_use ${String(b.name)} ${String(b.id)}`;
      if (b.type === "tool_result") return `tool_result ${String(b.tool_use_id)} ${quoted(textOf(b.content))}`;
      return String(b.type);
    });
    return `messages[${i}] ${message.role}: ${blocks.join(" | ")}`;
  });
}

// For every scripted fault in the stream, the request claude sent next and whether the API would take it.
function faultNotes(rec: Recordings, stream: string): string[] {
  const requests = streamRequests(rec.requests, stream);
  return requests.flatMap((request, i) => {
    if (request.reply.fault === null) return [];
    const next = requests[i + 1];
    const after = next
      ? `the next request, ${next.seq} (step ${next.step}, ${next.messageCount} messages), ${next.conformance.length === 0 ? "conforms" : `breaks ${next.conformance.map((v) => v.rule).join(", ")}`}`
      : "claude sent no further request in this stream";
    return [`request ${request.seq} (step ${request.step}) got the fault "${request.reply.fault}"; ${after}`];
  });
}

export function checkInterruptedCall(rec: Recordings, options: InterruptedCallOptions): CheckerOutput {
  const notes = faultNotes(rec, options.stream);
  const notReached = (reason: string): CheckerOutput => ({ reached: { ok: false, reason }, findings: [], notes });
  const stopped = rec.sessions.find((s) => s.label === options.stopped);
  const resumed = rec.sessions.find((s) => s.label === options.resumed);
  const call = firstToolUse(stopped);
  if (!stopped || !call) return notReached(`session ${options.stopped} never printed a tool_use: no tool call was running to interrupt`);

  // When the stop came: the interrupt line's time, or (for a signal) no earlier than the scenario's pause after the call.
  const interrupt = stopped.stdin.find((line) => line.t >= call.t && INTERRUPT_LINE.test(line.raw));
  const stopAt = interrupt?.t ?? call.t + options.stopAfterMs;
  const result = toolResultLine(stopped, call.id);
  if (result && result.t < stopAt) {
    return notReached(`the ${call.name} call ${call.id} had its tool_result (stdout line ${result.line}) before the stop: it was not running`);
  }
  const ended = interrupt?.t ?? stopped.process?.endedAt ?? null;
  if (ended === null || ended - call.t >= options.toolRunsMs) {
    return notReached(`session ${options.stopped} was not stopped within the ${options.toolRunsMs} ms the ${call.name} call runs: nothing was interrupted`);
  }
  notes.push(`the ${call.name} call ${call.id} was printed at stdout line ${call.line} and stopped ${Math.round(ended - call.t)} ms later without a tool_result`);

  const startedAt = resumed?.process?.startedAt;
  if (!resumed || startedAt === undefined) return notReached(`session ${options.resumed} never started`);
  const candidates = streamRequests(rec.requests, options.stream).filter((r) => r.receivedAt >= startedAt);
  const request = candidates.find((r) => rec.body(r.seq).includes(options.resumedPrompt));
  if (!request) return notReached(`session ${options.resumed} sent no ${options.stream} request carrying the pushed prompt`);

  const { messages } = readMessagesBody(rec, request.seq);
  const history = summariseMessages(messages);
  notes.push(
    `resumed request ${request.seq}: ${messages.length} messages, ${request.conformance.length === 0 ? "conforms" : `the API would reject it (${request.conformance.map((v) => v.rule).join(", ")})`}`,
    ...history.map((line) => `  ${line}`),
  );
  const findings: Finding[] = [];
  const useAt = messages.findIndex((m) => blocksOf(m.content).some((b) => b.type === "tool_use" && b.id === call.id));
  if (useAt === -1) {
    findings.push(
      finding({
        id: "interrupted-call-erased",
        red: false,
        title: `the resumed request has no trace of the interrupted ${call.name} call ${call.id}`,
        where: `request ${request.seq} (${options.resumed})`,
        detail: history,
        data: { seq: request.seq, toolUseId: call.id, messages: messages.length },
      }),
    );
  } else {
    const answer = messages
      .slice(useAt + 1)
      .flatMap((m) => blocksOf(m.content))
      .find((b) => b.type === "tool_result" && b.tool_use_id === call.id);
    notes.push(
      answer
        ? `kept: tool_use ${call.id} at messages[${useAt}], answered by tool_result ${quoted(textOf(answer.content), 121)}`
        : `kept: tool_use ${call.id} at messages[${useAt}], with no tool_result`,
    );
  }
  return { reached: { ok: true }, findings, notes };
}
