// A session's `system` lines (notifications, warnings, retries) as claude printed them: data a check reads instead of
// the words on a screen.
import { z } from "zod";
import { sessionOf, type SessionName } from "../checker/views.ts";
import type { Recordings } from "../harness/recordings.ts";

const systemLineSchema = z.looseObject({ type: z.literal("system"), subtype: z.string(), key: z.string().optional(), message: z.string().optional() });

/** One `system` line of a session's stdout: its subtype, `key` and `message` where claude gives them; `line` is its index. */
export type SystemLine = z.infer<typeof systemLineSchema> & { line: number; t: number };

/**
 * Every `system` line session `s` printed, in order; only those of `subtype` when given.
 *
 * @example systemLinesOf(rec, s1, "notification").find((n) => n.key === "stop-hook-block-cap")
 */
export function systemLinesOf(rec: Recordings, s: SessionName, subtype?: string): SystemLine[] {
  return (sessionOf(rec, s)?.stdout ?? []).flatMap((record) => {
    const parsed = systemLineSchema.safeParse(record.event);
    if (!parsed.success || (subtype !== undefined && parsed.data.subtype !== subtype)) return [];
    return [{ ...parsed.data, line: record.line, t: record.t }];
  });
}
