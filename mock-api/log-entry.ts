// The request log's index format: one JSON line per received request, and one when its response ended.
import path from "node:path";
import { z } from "zod";
import { violationSchema } from "./conformance.ts";

export const requestEntrySchema = z.object({
  kind: z.literal("request"),
  seq: z.number().int().min(1),
  // Milliseconds since the epoch, with sub-millisecond precision where the clock gives it.
  receivedAt: z.number(),
  method: z.string(),
  path: z.string(),
  // The raw query string without the leading '?', "" when there is none.
  query: z.string(),
  // Lower-cased names; credentials redacted.
  headers: z.record(z.string(), z.string()),
  // Relative to the log directory; the body's bytes exactly as received.
  bodyFile: z.string(),
  bodyBytes: z.number().int().min(0),
  bodySha256: z.string(),
  // For POST /v1/messages: the classification the script applied; null elsewhere.
  stream: z.string().nullable(),
  step: z.number().int().min(0).nullable(),
  messageCount: z.number().int().min(0).nullable(),
  streaming: z.boolean().nullable(),
  // For POST /v1/messages: what the real API would reject the request for (empty: it conforms). Logs recorded
  // before the mock judged requests lack the field, hence the default.
  conformance: z.array(violationSchema).default([]),
  reply: z.object({
    status: z.number().int(),
    // sse / json: a scripted Messages reply; error: an Anthropic error body; probe: a health probe; other: anything else.
    kind: z.enum(["sse", "json", "error", "probe", "count_tokens", "not_found"]),
    summary: z.string(),
    fault: z.string().nullable(),
    stopReason: z.string().nullable(),
  }),
  client: z.object({
    remoteAddress: z.string().nullable(),
    remotePort: z.number().int().nullable(),
    // Only when the server identifies clients: the sending process, null when it could not be found.
    pid: z.number().int().nullable().optional(),
    command: z.string().nullable().optional(),
  }),
});

export const responseEndEntrySchema = z.object({
  kind: z.literal("response-end"),
  seq: z.number().int().min(1),
  endedAt: z.number(),
  // complete: the whole response was written; aborted: the client went away first; dropped: a scripted drop or stall ended it.
  outcome: z.enum(["complete", "aborted", "dropped"]),
});

export const logLineSchema = z.discriminatedUnion("kind", [requestEntrySchema, responseEndEntrySchema]);

export type RequestEntry = z.infer<typeof requestEntrySchema>;
export type ResponseEndEntry = z.infer<typeof responseEndEntrySchema>;
export type LogLine = z.infer<typeof logLineSchema>;

// File names inside a request log directory.
export const REQUEST_INDEX_FILE = "index.jsonl";
export const REQUEST_BODY_DIR = "requests";

// The index of a request log directory: every path to it goes through here.
export function requestIndexOf(logDir: string): string {
  return path.join(logDir, REQUEST_INDEX_FILE);
}

// How a request's seq appears in names (body files, message and request ids): zero-padded so names sort in order.
export function paddedSeq(seq: number): string {
  return String(seq).padStart(6, "0");
}
