// What the mock answers to each kind of request, decided from the request and the script; the app sends it.
import { z } from "zod";
import { anthropicErrorBody, defaultErrorMessage, defaultErrorType, MAX_REQUEST_BYTES, rateLimitHeaders, statusForErrorType } from "./anthropic-error.ts";
import { clockNow } from "../core/time.ts";
import { classifyRequest, pickReply } from "./classify.ts";
import { checkConformance, enforcedViolations, type ConformanceViolation } from "./conformance.ts";
import { readJsonBody } from "./json-body.ts";
import type { RequestEntry } from "./log-entry.ts";
import { carriesBlock, messagesRequestSchema, toolNamesOf } from "./messages-request.ts";
import { renderMessage, stopReasonOf, summariseContent } from "./reply-message.ts";
import type { BodyStep } from "./response-body.ts";
import type { Fault, MockScript } from "./script.ts";
import { paddedSeq } from "./log-entry.ts";
import { playSsePlan } from "./sse-body.ts";
import type { CacheBody, Usage } from "./prompt-cache.ts";
import { ssePlan } from "./sse-plan.ts";

// A 429 without a scripted retry-after still gets one, as the real API always sends it.
const DEFAULT_RETRY_AFTER_SECONDS = 1;
// A stall without an end, held before the headers: as long as a scripted delay may be.
const ENDLESS_STALL_MS = 3_600_000;

export interface Received {
  seq: number;
  method: string;
  path: string;
  body: Uint8Array;
}

// What the mock decided for one request: what the index records and how the response goes out.
export interface Answer {
  classification: Pick<RequestEntry, "stream" | "step" | "messageCount" | "streaming">;
  // What the real API would reject the request for; empty for anything but a judged Messages request.
  conformance: ConformanceViolation[];
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
    conformance: [],
    reply: { status, fault: null, stopReason: null, ...reply },
    headers: { "content-type": "application/json", "content-length": String(bytes.byteLength) },
    delayMs: 0,
    body: stepsBody([bytes]),
    dropBeforeResponse: false,
    ...extra,
  };
}

// `seq` gives the body the request_id the app also sends as the request-id header.
export function errorAnswer(status: number, errorType: string, message: string, extra: Partial<Answer> = {}, seq?: number): Answer {
  const body = anthropicErrorBody(errorType, message, seq === undefined ? undefined : requestIdOf(seq));
  return jsonAnswer(status, body, { kind: "error", summary: `${errorType}: ${message}` }, extra);
}

// An Anthropic error the script asked for: the index names the fault that produced it.
function scriptedErrorAnswer(status: number, errorType: string, message: string, fault: Fault, extra: Partial<Answer>, seq: number): Answer {
  const answer = errorAnswer(status, errorType, message, extra, seq);
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
      return `stall${fault.ms === undefined ? "" : ` ${fault.ms} ms`}${fault.at === "before-headers" ? " before headers" : fault.afterEvents === undefined ? "" : ` after ${fault.afterEvents} events`}`;
    case "drop":
      return fault.afterBlocks === undefined ? `drop after ${fault.afterEvents} events` : `drop after ${fault.afterBlocks} blocks`;
  }
}

// The request id the app sends in the request-id header, which the API repeats in its error bodies.
export const requestIdOf = (seq: number) => `req_mock_${paddedSeq(seq)}`;

export interface AnswerContext {
  // Counts this request among those of its stream and step and returns its number (1 for the first), for faultTimes.
  attempt?: (stream: string, step: number) => number;
  // With the script's `usage: "cache-model"`: the input-side usage of this request of `stream`, given what earlier ones wrote.
  cacheUsage?: (stream: string, body: CacheBody) => Usage;
}

export function answerMessages(script: MockScript, received: Received, context: AnswerContext = {}): Answer {
  if (received.body.byteLength > MAX_REQUEST_BYTES) {
    return errorAnswer(413, "request_too_large", defaultErrorMessage("request_too_large"), {}, received.seq);
  }
  const json = readJsonBody(decoder.decode(received.body));
  if (!json.ok) return errorAnswer(400, "invalid_request_error", json.message, {}, received.seq);
  const value = json.value;
  const conformance = checkConformance(value);
  const parsed = messagesRequestSchema.safeParse(value);
  if (!parsed.success) {
    return { ...errorAnswer(400, "invalid_request_error", z.prettifyError(parsed.error).split("\n").join("; "), {}, received.seq), conformance };
  }
  const request = parsed.data;
  const { stream, step } = classifyRequest(script, request, received.path);
  const picked = pickReply(script, { stream, step });
  const attempt = context.attempt?.(stream, step) ?? 1;
  const spared =
    (picked.faultTimes !== undefined && attempt > picked.faultTimes) ||
    (picked.faultModel !== undefined && !request.model.includes(picked.faultModel)) ||
    (picked.faultCarrying !== undefined && !carriesBlock(request, picked.faultCarrying));
  const reply = spared ? { ...picked, fault: undefined } : picked;
  const streaming = request.stream === true;
  const classification = { stream, step, messageCount: request.messages.length, streaming };
  const fault = reply.fault;
  const stallBeforeHeaders = fault?.kind === "stall" && fault.at === "before-headers" ? (fault.ms ?? ENDLESS_STALL_MS) : 0;
  const scripted = { classification, conformance, delayMs: reply.delayMs + stallBeforeHeaders };

  const [first] = enforcedViolations(conformance);
  if (script.strict && first !== undefined) {
    // The API's error envelope: https://docs.anthropic.com/en/api/errors (type, error.type, error.message, request_id).
    const body = anthropicErrorBody(first.errorType, first.message, requestIdOf(received.seq));
    return jsonAnswer(
      first.status,
      body,
      { kind: "error", summary: `${first.errorType}: ${first.message}`, fault: `strict: ${first.rule}` },
      { classification, conformance },
    );
  }

  if (fault?.kind === "http-error") {
    const retryAfter = fault.retryAfterSeconds ?? (fault.status === 429 ? DEFAULT_RETRY_AFTER_SECONDS : undefined);
    const errorType = fault.errorType ?? defaultErrorType(fault.status);
    const answer = scriptedErrorAnswer(fault.status, errorType, fault.message ?? defaultErrorMessage(errorType), fault, scripted, received.seq);
    // A 429 carries the rate-limit family (docs/api/rate-limits, "Response headers"); another status only retry-after.
    if (fault.status === 429) Object.assign(answer.headers, rateLimitHeaders(retryAfter ?? DEFAULT_RETRY_AFTER_SECONDS, clockNow()));
    else if (retryAfter !== undefined) answer.headers["retry-after"] = String(retryAfter);
    Object.assign(answer.headers, fault.headers ?? {});
    return answer;
  }

  const modelled = script.usage === "cache-model" && context.cacheUsage ? context.cacheUsage(stream, value as CacheBody) : null;
  const message = renderMessage(modelled ? { ...reply, usage: { ...reply.usage, ...modelled } } : reply, { seq: received.seq, model: request.model, request });
  const summary = summariseContent(message.content);
  if (streaming) {
    const plan = ssePlan(message, reply);
    const deliversStopReason = plan.some((s) => s.kind === "event" && s.event.type === "message_delta");
    return {
      classification,
      conformance,
      reply: {
        status: 200,
        kind: "sse",
        summary,
        fault: describeFault(fault),
        stopReason: deliversStopReason ? message.stop_reason : null,
      },
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
      // The plan holds its own delay, with pings, after message_start; only a stall before the headers is the app's.
      delayMs: stallBeforeHeaders,
      body: (signal) => playSsePlan(plan, signal),
      dropBeforeResponse: plan[0]?.kind === "drop",
    };
  }

  if (fault?.kind === "mid-stream-error") {
    return scriptedErrorAnswer(statusForErrorType(fault.errorType), fault.errorType, fault.message, fault, scripted, received.seq);
  }
  // A plain reply has no message_start to stall after: an endless stall after the headers cuts its body, any other
  // stall holds the whole reply back before its headers.
  const endlessAfterHeaders = fault?.kind === "stall" && fault.ms === undefined && fault.at === "after-message-start";
  const cut = endlessAfterHeaders || fault?.kind === "drop" ? fault : undefined;
  const heldMs = fault?.kind === "stall" && !endlessAfterHeaders ? (fault.ms ?? ENDLESS_STALL_MS) : 0;
  return jsonAnswer(
    200,
    message,
    { kind: "json", summary, fault: describeFault(fault), stopReason: cut ? null : stopReasonOf(reply) },
    cut
      ? { ...scripted, body: stepsBody([{ kind: cut.kind }]), dropBeforeResponse: cut.kind === "drop" }
      : { ...scripted, delayMs: reply.delayMs + heldMs },
  );
}

export function answerCountTokens(received: Received): Answer {
  const json = readJsonBody(decoder.decode(received.body));
  if (!json.ok) return errorAnswer(400, "invalid_request_error", json.message, {}, received.seq);
  // About four bytes a token: close enough for a client that only budgets with it.
  const inputTokens = Math.max(1, Math.ceil(received.body.byteLength / 4));
  return jsonAnswer(200, { input_tokens: inputTokens }, { kind: "count_tokens", summary: `input_tokens=${inputTokens}` });
}
