// Views of what claude reports about failed API calls, and of what it sends after them: its `system/api_retry` stdout
// lines (stream-json, with --verbose), one per retry it schedules; the content blocks of one type a request carries.
import type { Recordings } from "../harness/recordings.ts";
import { sessionOf, type ContentBlock, type RequestView, type SessionName } from "../checker/views.ts";

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

/** One content block a request carries: where it sits (a JSONPath into the body) and the block as sent. */
export interface CarriedBlock {
  /** The index of the message that carries it. */
  message: number;
  /** `$.messages[4].content[0]`, or `$.messages[4].content[0].content[1]` inside a tool_result. */
  path: string;
  block: ContentBlock;
}

/**
 * The blocks of `type` a request's messages carry, top level and inside tool_result content, in order.
 *
 * @example blocksOf(request, "image").length > 0
 */
export function blocksOf(request: RequestView, type: string): CarriedBlock[] {
  const found: CarriedBlock[] = [];
  const walk = (blocks: unknown, message: number, path: string) => {
    if (!Array.isArray(blocks)) return;
    blocks.forEach((block: ContentBlock | null, index) => {
      if (block?.type === type) found.push({ message, path: `${path}[${index}]`, block });
      if (block?.type === "tool_result") walk(block.content, message, `${path}[${index}].content`);
    });
  };
  request.messages.forEach((m, index) => walk(m.content, index, `$.messages[${index}].content`));
  return found;
}
