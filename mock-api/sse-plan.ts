// The streaming reply as a plan: the SSE events in the order the API sends them, with the script's delay and fault
// placed among them. Pure, so the exact wire order is testable without a socket.
import type { ApiContentBlock, ApiMessage } from "./reply-message.ts";
import type { Reply } from "./script.ts";

export interface SseEvent {
  type: string;
  data: { type: string } & Record<string, unknown>;
}

export type PlanStep =
  | { kind: "event"; event: SseEvent }
  // Hold the stream, sending a ping every intervalMs meanwhile.
  | { kind: "wait"; ms: number; intervalMs: number }
  // Destroy the connection.
  | { kind: "drop" }
  // Send nothing more until the connection goes away.
  | { kind: "stall" };

const sse = (data: SseEvent["data"]): SseEvent => ({ type: data.type, data });

export const pingEvent: SseEvent = sse({ type: "ping" });

// Splits by code points so a chunk boundary never falls inside a surrogate pair; chunks may be empty when the
// JSON is shorter than the chunk count, as the API's first input_json_delta often is.
export function splitIntoChunks(text: string, count: number): string[] {
  const codePoints = Array.from(text);
  return Array.from({ length: count }, (_, i) =>
    codePoints.slice(Math.floor((i * codePoints.length) / count), Math.floor(((i + 1) * codePoints.length) / count)).join(""),
  );
}

// `chunks`: how many deltas a tool_use's input JSON or a thinking block's text is streamed in.
function blockEvents(block: ApiContentBlock, index: number, chunks: number): SseEvent[] {
  const delta = (payload: Record<string, unknown>) => sse({ type: "content_block_delta", index, delta: payload });
  const stop = sse({ type: "content_block_stop", index });
  switch (block.type) {
    case "text":
      return [
        sse({ type: "content_block_start", index, content_block: { type: "text", text: "" } }),
        delta({ type: "text_delta", text: block.text }),
        stop,
      ];
    case "thinking":
      return [
        sse({ type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } }),
        ...splitIntoChunks(block.thinking, chunks).map((part) => delta({ type: "thinking_delta", thinking: part })),
        delta({ type: "signature_delta", signature: block.signature }),
        stop,
      ];
    case "tool_use":
      return [
        sse({
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        }),
        ...splitIntoChunks(JSON.stringify(block.input), chunks).map((partial) =>
          delta({ type: "input_json_delta", partial_json: partial }),
        ),
        stop,
      ];
  }
}

function scriptedEvents(message: ApiMessage, reply: Reply): SseEvent[] {
  const { content, usage } = message;
  const fault = reply.fault;
  const streamedBlocks = fault?.kind === "mid-stream-error" ? content.slice(0, fault.afterBlocks) : content;
  const blocks = streamedBlocks.flatMap((block, index) => {
    const scripted = reply.content[index];
    return blockEvents(block, index, scripted?.type === "tool_use" ? scripted.jsonChunks : scripted?.type === "thinking" ? scripted.chunks : 1);
  });
  // The real API starts with a small output count and reports the cumulative usage in message_delta.
  const start = sse({
    type: "message_start",
    message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: Math.min(1, usage.output_tokens) } },
  });
  // "Error events": after a 200 the API may send `event: error` with the error envelope, e.g.
  // {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
  // (https://docs.anthropic.com/en/docs/build-with-claude/streaming, "Error events"); nothing follows it.
  const ending =
    fault?.kind === "mid-stream-error"
      ? [sse({ type: "error", error: { type: fault.errorType, message: fault.message } })]
      : [
          sse({ type: "message_delta", delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage }),
          sse({ type: "message_stop" }),
        ];
  return [start, pingEvent, ...blocks, ...ending];
}

export function ssePlan(message: ApiMessage, reply: Reply): PlanStep[] {
  const events: PlanStep[] = scriptedEvents(message, reply).map((event) => ({ kind: "event", event }));
  const fault = reply.fault;
  // The delay sits where a slow model keeps the client waiting: after message_start and its ping.
  if (reply.delayMs > 0) events.splice(2, 0, { kind: "wait", ms: reply.delayMs, intervalMs: reply.pingIntervalMs });
  // A stall before the headers is the app's to hold (Answer.delayMs); here the stream then runs as scripted.
  if (fault?.kind === "stall" && fault.at === "after-message-start") {
    // Right after message_start, or after `afterEvents` events (counted before any scripted delay).
    const at = fault.afterEvents ?? 1;
    if (fault.ms === undefined) return [...events.filter((step) => step.kind === "event").slice(0, at), { kind: "stall" }];
    // Silent: a wait whose one interval is the whole wait sends no ping.
    const index = events.findIndex((step, i) => events.slice(0, i).filter((e) => e.kind === "event").length === at);
    events.splice(index === -1 ? events.length : index, 0, { kind: "wait", ms: fault.ms, intervalMs: fault.ms });
  }
  if (fault?.kind !== "drop") return events;
  if (fault.afterBlocks !== undefined) {
    const afterBlocks = fault.afterBlocks;
    // Right after the last whole block's content_block_stop; with 0, after message_start and its ping.
    const last =
      afterBlocks === 0
        ? events.findIndex((step) => step.kind === "event" && step.event.type === "ping")
        : events.findIndex((step) => step.kind === "event" && step.event.type === "content_block_stop" && step.event.data.index === afterBlocks - 1);
    return [...(last === -1 ? events : events.slice(0, last + 1)), { kind: "drop" }];
  }
  const afterEvents = fault.afterEvents;
  let sent = 0;
  const cut = events.findIndex((step) => step.kind === "event" && sent++ === afterEvents);
  return [...(cut === -1 ? events : events.slice(0, cut)), { kind: "drop" }];
}
