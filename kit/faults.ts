// Faults the mock can play instead of (or in the middle of) a reply: each builder returns a reply, so it goes where
// any reply goes. `times`: only the first N tries of that request fail, so the client's retries then succeed.
import type { z } from "zod";
import type { faultSchema } from "../mock-api/script.ts";
import type { ReplyInput } from "./replies.ts";

/** A fault as the mock's script holds it. */
export type FaultInput = z.input<typeof faultSchema>;

const faulty = (fault: FaultInput, reply: ReplyInput, times?: number): ReplyInput => ({ ...reply, fault, ...(times ? { faultTimes: times } : {}) });

/**
 * An HTTP error with the API's error body (529 overloaded, 429 with retry-after, 500 …) before any stream starts;
 * `then` is what the tries after the first `times` get.
 *
 * @example httpError(529, { times: 2, then: text("ok") })
 */
export const httpError = (status: number, options: { errorType?: string; message?: string; retryAfterSeconds?: number; times?: number; then?: ReplyInput } = {}) =>
  faulty({ kind: "http-error", status, errorType: options.errorType, message: options.message, retryAfterSeconds: options.retryAfterSeconds }, options.then ?? {}, options.times);

/**
 * An `event: error` after `afterBlocks` content blocks of `reply` were streamed; no message_stop follows.
 *
 * @example midStreamError(bash("echo x", "x"), { afterBlocks: 1, errorType: "overloaded_error" })
 */
export const midStreamError = (reply: ReplyInput, options: { afterBlocks?: number; errorType?: string; message?: string; times?: number } = {}) =>
  faulty({ kind: "mid-stream-error", afterBlocks: options.afterBlocks, errorType: options.errorType, message: options.message }, reply, options.times);

/**
 * Send nothing more (until the client gives up, or for `ms` and then the rest of `reply`).
 *
 * @example stall(text("late"), { ms: 5000, at: "after-message-start" })
 */
export const stall = (reply: ReplyInput, options: { ms?: number; at?: "after-message-start" | "before-headers"; times?: number } = {}) =>
  faulty({ kind: "stall", ms: options.ms, at: options.at }, reply, options.times);

/**
 * Close the connection abruptly after `afterEvents` SSE events (0: before any byte of the body).
 *
 * @example drop(bash("echo x", "x"), { afterEvents: 4, times: 1 })
 */
export const drop = (reply: ReplyInput, options: { afterEvents?: number; times?: number } = {}) => faulty({ kind: "drop", afterEvents: options.afterEvents }, reply, options.times);
