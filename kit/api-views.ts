// Views of what claude reports about failed API calls: its `system/api_retry` stdout lines (stream-json, with
// --verbose), one per retry it schedules, as the retries and fallbacks scenarios read them.
import type { Recordings } from "../harness/recordings.ts";
import { sessionOf, type SessionName } from "../checker/views.ts";

/** One `{"type":"system","subtype":"api_retry",…}` line: the retry's number, its delay, and the status that caused it. */
export interface ApiRetryLine {
  /** The stdout line index, for a finding's `where`. */
  line: number;
  /** When the harness read the line (ms since the epoch). */
  t: number;
  attempt: number | null;
  maxRetries: number | null;
  retryDelayMs: number | null;
  /** The HTTP status of the failed try; null for a connection error or a cut stream. */
  errorStatus: number | null;
  /** claude's own name for the error ("rate_limit", "unknown", …), when it gives one. */
  error: string | null;
}

const num = (value: unknown): number | null => (typeof value === "number" ? value : null);

/** The session's `system/api_retry` lines, in order (empty when it printed none, or is not a stream-json session). */
export function apiRetriesOf(rec: Recordings, s: SessionName): ApiRetryLine[] {
  return (sessionOf(rec, s)?.stdout ?? []).flatMap((record) => {
    const event = record.event as Record<string, unknown> | null;
    if (!event || event.type !== "system" || event.subtype !== "api_retry") return [];
    return [
      {
        line: record.line,
        t: record.t,
        attempt: num(event.attempt),
        maxRetries: num(event.max_retries),
        retryDelayMs: num(event.retry_delay_ms),
        errorStatus: num(event.error_status),
        error: typeof event.error === "string" ? event.error : null,
      },
    ];
  });
}
