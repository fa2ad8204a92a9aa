// Conditions a `wait` or `watch` waits for, one call each: counts of requests, results, hook calls, ended sessions.
import { promptAnswered as promptAnsweredBy } from "../checker/turns.ts";
import { hookCallsOf, requestsOf, resultsOf, sessionOf, type RequestFilter } from "../checker/views.ts";
import type { Recordings } from "../harness/recordings.ts";
import { clockNow } from "../core/time.ts";
import type { Session } from "./session.ts";

/** A condition on what the run recorded so far; `wait` and `watch` re-check it as recordings arrive. */
export type Condition = (rec: Recordings) => boolean;

/**
 * At least `count` Messages requests were received (of one stream or session, when given) and all of them answered.
 *
 * @example wait("three main requests", requestsMade(3, { stream: "main" }))
 */
export function requestsMade(count: number, filter: RequestFilter = {}): Condition {
  return (rec) => {
    const seen = requestsOf(rec, filter);
    return seen.length >= count && seen.every((request) => rec.responseEnds.has(request.seq));
  };
}

/**
 * Session `s` printed at least `count` `result` lines (default 1): its turns ended.
 *
 * @example wait("session 1 settled", resultPrinted(s1))
 */
export const resultPrinted = (s: Session, options: { count?: number } = {}): Condition => (rec) => resultsOf(rec, s).length >= (options.count ?? 1);

/**
 * Session `s`'s process has exited (a `print` step's session, or one that ends by itself).
 *
 * @example wait("claude -p exited", sessionEnded(s1))
 */
export const sessionEnded = (s: Session): Condition => (rec) => {
  const process = sessionOf(rec, s)?.process;
  return !!process && process.endedAt !== null;
};

/**
 * Hook event `event` was called at least `count` times (default 1).
 *
 * @example wait("the Stop hook ran twice", hookCalled("Stop", { count: 2 }))
 */
export const hookCalled = (event: string, options: { count?: number } = {}): Condition => (rec) => hookCallsOf(rec, event).length >= (options.count ?? 1);

/**
 * Session `s` answered its prompt number `prompt` (0, the default, is the first one pushed) with a real turn.
 *
 * @example wait("session 2 answered", promptAnswered(s2))
 */
export const promptAnswered = (s: Session, options: { prompt?: number } = {}): Condition => (rec) => {
  const recording = sessionOf(rec, s);
  return !!recording && promptAnsweredBy(recording, options.prompt ?? 0);
};

/**
 * Every condition holds.
 *
 * @example wait("both ended", allOf(sessionEnded(s1), hookCalled("Stop")))
 */
export const allOf = (...conditions: Condition[]): Condition => (rec) => conditions.every((condition) => condition(rec));

/**
 * Any condition holds.
 *
 * @example watch("an answer or a retry", anyOf(resultPrinted(s1), requestsMade(2)))
 */
export const anyOf = (...conditions: Condition[]): Condition => (rec) => conditions.some((condition) => condition(rec));

/**
 * The mock's log has been quiet for `ms`: nothing in flight, and no request received or answered in the last `ms`.
 * For "and then nothing more came" (a second answer would have come in this window).
 *
 * @example watch("answered, then quiet", allOf(promptAnswered(s1), quietFor(5000)), { timeout: 60_000 })
 */
export const quietFor = (ms: number): Condition => (rec) => {
  if (rec.requests.some((r) => !rec.responseEnds.has(r.seq))) return false;
  const last = Math.max(...rec.requests.map((r) => r.receivedAt), ...[...rec.responseEnds.values()].map((e) => e.endedAt));
  return clockNow() - last >= ms;
};
