// What the mock answers to each kind of request, decided from the request and the script; the app sends it.
import { z } from "zod";
import { anthropicErrorBody, defaultErrorType, statusForErrorType } from "./anthropic-error.ts";
import { classifyRequest, pickReply } from "./classify.ts";
import type { RequestEntry } from "./log-entry.ts";
import { messagesRequestSchema, toolNamesOf } from "./messages-request.ts";
import { renderMessage, stopReasonOf, summariseContent } from "./reply-message.ts";
import type { BodyStep } from "./response-body.ts";
import type { Fault, MockScript } from "./script.ts";
import { playSsePlan } from "./sse-body.ts";
import { ssePlan } from "./sse-plan.ts";

// A 429 without a scripted retry-after still gets one, as the real API always sends it.
const DEFAULT_RETRY_AFTER_SECONDS = 1;

export interface Received {
  seq: number;
  method: string;
  path: string;
  body: Uint8Array;
}

// What the mock decided for one request: what the index records and how the response goes out.
export interface Answer {
  classification: Pick<RequestEntry, "stream" | "step" | "messageCount" | "streaming">;
  reply: RequestEntry["reply"];
  headers: Record<string, string>;
  // Held before the status line, so the client sees nothing at all meanwhile.
  delayMs: number;
  body: (signal: AbortSignal) => AsyncIterable<BodyStep>;
  // A drop scripted before any byte: the socket goes before the status line.
  dropBeforeResponse: boolean;
}

const NOT_A_MESSAGES_REQUEST: Answer["classification"] = {
  stream: null,
  step: null,
  messageCount: null,
  streaming: null,
};

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function stepsBody(steps: readonly BodyStep[]): Answer["body"] {
  return async function* () {
    yield* steps;
  };
}

export function jsonAnswer(
  status: number,
  value: unknown,
  reply: Pick<RequestEntry["reply"], "kind" | "summary"> & Partial<RequestEntry["reply"]>,
  extra: Partial<Answer> = {},
): Answer {
  const bytes = encoder.encode(JSON.stringify(value));
  return {
    classification: NOT_A_MESSAGES_REQUEST,
    reply: { status, fault: null, stopReason: null, ...reply },
    headers: { "content-type": "application/json", "content-length": String(bytes.byteLength) },
    delayMs: 0,
    body: stepsBody([bytes]),
    dropBeforeResponse: false,
    ...extra,
  };
}

export function errorAnswer(status: number, errorType: string, message: string, extra: Partial<Answer> = {}): Answer {
  return jsonAnswer(status, anthropicErrorBody(errorType, message), { kind: "error", summary: `${errorType}: ${message}` }, extra);
}

// An Anthropic error the script asked for: the index names the fault that produced it.
function scriptedErrorAnswer(status: number, errorType: string, message: string, fault: Fault, extra: Partial<Answer>): Answer {
  const answer = errorAnswer(status, errorType, message, extra);
  return { ...answer, reply: { ...answer.reply, fault: describeFault(fault) } };
}

function describeFault(fault: Fault | undefined): string | null {
  switch (fault?.kind) {
    case undefined:
      return null;
    case "http-error":
      return `http-error ${fault.status}`;
    case "mid-stream-error":
      return `mid-stream-error after ${fault.afterBlocks} blocks`;
    case "stall":
      return "stall";
    case "drop":
      return `drop after ${fault.afterEvents} events`;
  }
}

export function answerMessages(script: MockScript, received: Received): Answer {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(received.body));
  } catch (error) {
    return errorAnswer(400, "invalid_request_error", `request body is not JSON: ${(error as Error).message}`);
  }
  const parsed = messagesRequestSchema.safeParse(value);
  if (!parsed.success) return errorAnswer(400, "invalid_request_error", z.prettifyError(parsed.error).split("\n").join("; "));
  const request = parsed.data;
  const { stream, step } = classifyRequest(script, request, received.path);
  const reply = pickReply(script, { stream, step });
  const streaming = request.stream === true;
  const classification = { stream, step, messageCount: request.messages.length, streaming };
  const fault = reply.fault;
  const scripted = { classification, delayMs: reply.delayMs };

  if (fault?.kind === "http-error") {
    const retryAfter = fault.retryAfterSeconds ?? (fault.status === 429 ? DEFAULT_RETRY_AFTER_SECONDS : undefined);
    const errorType = fault.errorType ?? defaultErrorType(fault.status);
    const answer = scriptedErrorAnswer(fault.status, errorType, fault.message, fault, scripted);
    if (retryAfter !== undefined) answer.headers["retry-after"] = String(retryAfter);
    return answer;
  }

  const message = renderMessage(reply, { seq: received.seq, model: request.model, request });
  const summary = summariseContent(message.content);
  if (streaming) {
    const plan = ssePlan(message, reply);
    const deliversStopReason = plan.some((s) => s.kind === "event" && s.event.type === "message_delta");
    return {
      classification,
      reply: {
        status: 200,
        kind: "sse",
        summary,
        fault: describeFault(fault),
        stopReason: deliversStopReason ? message.stop_reason : null,
      },
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
      // The plan holds its own delay, with pings, after message_start.
      delayMs: 0,
      body: (signal) => playSsePlan(plan, signal),
      dropBeforeResponse: plan[0]?.kind === "drop",
    };
  }

  if (fault?.kind === "mid-stream-error") {
    return scriptedErrorAnswer(statusForErrorType(fault.errorType), fault.errorType, fault.message, fault, scripted);
  }
  const cut = fault?.kind === "stall" || fault?.kind === "drop" ? fault : undefined;
  return jsonAnswer(
    200,
    message,
    { kind: "json", summary, fault: describeFault(fault), stopReason: cut ? null : stopReasonOf(reply) },
    cut ? { ...scripted, body: stepsBody([cut]), dropBeforeResponse: cut.kind === "drop" } : scripted,
  );
}

export function answerCountTokens(received: Received): Answer {
  try {
    JSON.parse(decoder.decode(received.body));
  } catch (error) {
    return errorAnswer(400, "invalid_request_error", `request body is not JSON: ${(error as Error).message}`);
  }
  // About four bytes a token: close enough for a client that only budgets with it.
  const inputTokens = Math.max(1, Math.ceil(received.body.byteLength / 4));
  return jsonAnswer(200, { input_tokens: inputTokens }, { kind: "count_tokens", summary: `input_tokens=${inputTokens}` });
}
