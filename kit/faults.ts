// Faults the mock can play instead of (or in the middle of) a reply: each builder returns a reply, so it goes where
// any reply goes, and so hits only the stream and step it is placed at. `times`: only the first N tries of that
// request fail (1: once), so the client's retries then succeed; absent, every try fails. `model`: only requests
// whose model contains this text fail (the main model, not a --fallback-model). `carrying`: only requests that carry a
// content block of this type (an "image", a "document"; inside tool results too) fail. Every error is the API's own shape
// (mock-api/anthropic-error.ts cites the documentation for each).
import type { z } from "zod";
import type { faultSchema } from "../mock-api/script.ts";
import type { ReplyInput } from "./replies.ts";

/** A fault as the mock's script holds it. */
export type FaultInput = z.input<typeof faultSchema>;

/**
 * Which tries a fault hits: the first `times` of its request (absent: all), of requests for `model` only, of requests
 * carrying a block of type `carrying` only; a try outside the scope gets the reply without the fault.
 *
 * @example httpError(400, { carrying: "image", message: "Could not process image", then: text("ok") })
 */
export interface FaultScope {
  times?: number;
  model?: string;
  /** A content block type ("image", "document", …) the request must carry somewhere in its messages for the fault to hit. */
  carrying?: string;
}

const faulty = (fault: FaultInput, reply: ReplyInput, scope: FaultScope): ReplyInput => ({
  ...reply,
  fault,
  ...(scope.times ? { faultTimes: scope.times } : {}),
  ...(scope.model ? { faultModel: scope.model } : {}),
  ...(scope.carrying ? { faultCarrying: scope.carrying } : {}),
});

/**
 * An HTTP error with the API's error body and `request-id` (529 overloaded_error, 500 api_error, 400
 * invalid_request_error …) before any stream starts. A 429 carries `retry-after` (`retryAfterSeconds`, default 1)
 * and the `anthropic-ratelimit-*` headers; `headers` adds others. `then` is what the tries after the first `times` get.
 *
 * @example httpError(529, { times: 2, then: text("ok") })
 * @example httpError(429, { retryAfterSeconds: 61, then: text("ok") })
 */
export const httpError = (
  status: number,
  options: FaultScope & { errorType?: string; message?: string; retryAfterSeconds?: number; headers?: Record<string, string>; then?: ReplyInput } = {},
) =>
  faulty(
    { kind: "http-error", status, errorType: options.errorType, message: options.message, retryAfterSeconds: options.retryAfterSeconds, headers: options.headers },
    options.then ?? {},
    options,
  );

/**
 * An `event: error` after a 200, once `afterBlocks` content blocks of `reply` were streamed (partial output); no
 * message_stop follows. Default overloaded_error "Overloaded", as the API streams it.
 *
 * @example midStreamError(bash("echo x", "x"), { afterBlocks: 1, errorType: "overloaded_error" })
 */
export const midStreamError = (reply: ReplyInput, options: FaultScope & { afterBlocks?: number; errorType?: string; message?: string } = {}) =>
  faulty({ kind: "mid-stream-error", afterBlocks: options.afterBlocks, errorType: options.errorType, message: options.message }, reply, options);

/**
 * Send nothing more (until the client gives up, or for `ms` and then the rest of `reply`): right after message_start,
 * before the headers, or, streamed, after `afterEvents` SSE events (message_start and its ping are the first two;
 * then each block's start, its deltas and its stop), e.g. inside a thinking block before its signature.
 *
 * @example stall(text("late"), { ms: 5000, at: "after-message-start" })
 * @example stall(thinking("plan", text("done"), { chunks: 2 }), { afterEvents: 5, times: 1 })
 */
export const stall = (reply: ReplyInput, options: FaultScope & { ms?: number; at?: "after-message-start" | "before-headers"; afterEvents?: number } = {}) =>
  faulty({ kind: "stall", ms: options.ms, at: options.at, afterEvents: options.afterEvents }, reply, options);

/**
 * Close the connection abruptly after `afterEvents` SSE events (0: before any byte of the body), or, with
 * `afterBlocks`, right after that many whole content blocks: a cut with no message_delta and no message_stop.
 *
 * @example drop(bash("echo x", "x"), { afterEvents: 4, times: 1 })
 * @example drop(bash("echo x", "x"), { afterBlocks: 1 })
 */
export const drop = (reply: ReplyInput, options: FaultScope & { afterEvents?: number; afterBlocks?: number } = {}) =>
  faulty({ kind: "drop", afterEvents: options.afterEvents, afterBlocks: options.afterBlocks }, reply, options);
