// The mock's reply script: which stream a request belongs to, and what each (stream, step) is answered with.
import { z } from "zod";
import { replayScriptSchema } from "./replay-script.ts";

const textBlock = z.strictObject({
  type: z.literal("text"),
  text: z.string(),
});

const toolUseBlock = z.strictObject({
  type: z.literal("tool_use"),
  // Several candidate names: the first one present in the request's tool list is used (e.g. ["Agent", "Task"],
  // because releases renamed the subagent tool). A single name is used as is.
  name: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  input: z.record(z.string(), z.unknown()),
  id: z.string().min(1).optional(),
  // Split the tool input's JSON into this many input_json_delta chunks (the real API streams it in pieces).
  jsonChunks: z.number().int().min(1).max(1000).default(1),
});

const thinkingBlock = z.strictObject({
  type: z.literal("thinking"),
  thinking: z.string(),
  signature: z.string().min(1).default("mock-signature"),
  // Served with the mock's signature of the text instead (thinking-signature.ts), which the conformance check
  // verifies when the block comes back, as the real API does.
  signed: z.boolean().default(false),
  // Stream the text in this many thinking_delta chunks (the real API streams thinking in many pieces).
  chunks: z.number().int().min(1).max(1000).default(1),
});

export const contentBlockSchema = z.discriminatedUnion("type", [textBlock, toolUseBlock, thinkingBlock]);

const usageSchema = z.strictObject({
  input_tokens: z.number().int().min(0).default(100),
  output_tokens: z.number().int().min(0).default(5),
  cache_creation_input_tokens: z.number().int().min(0).default(0),
  cache_read_input_tokens: z.number().int().min(0).default(0),
});

export const faultSchema = z.discriminatedUnion("kind", [
  // An HTTP error with Anthropic's error body, before any stream starts.
  z.strictObject({
    kind: z.literal("http-error"),
    status: z.number().int().min(400).max(599),
    errorType: z.string().min(1).optional(),
    // Absent: the API's own wording for the type (anthropic-error.ts).
    message: z.string().optional(),
    // A 429 always gets one (1 s when absent), with the anthropic-ratelimit-* headers; any other status only if given.
    retryAfterSeconds: z.number().int().min(0).optional(),
    // Further response headers, e.g. { "x-should-retry": "false" }.
    headers: z.record(z.string(), z.string()).optional(),
  }),
  // An `event: error` after this many content blocks were streamed; no message_stop follows.
  z.strictObject({
    kind: z.literal("mid-stream-error"),
    afterBlocks: z.number().int().min(0).default(1),
    errorType: z.string().default("overloaded_error"),
    message: z.string().default("Overloaded"),
  }),
  // Send nothing more until the client gives up, or for `ms` and then the rest of the reply (a stream slow enough to
  // trip the client's own timeout). at: after message_start (default; headers are out, no pings meanwhile), or
  // before-headers (the client sees no status line at all).
  // afterEvents: a streamed reply stalls after this many SSE events instead (e.g. inside a thinking block, between
  // its thinking deltas and its signature); a reply that is not streamed ignores it.
  z.strictObject({
    kind: z.literal("stall"),
    ms: z.number().int().min(1).max(3_600_000).optional(),
    at: z.enum(["after-message-start", "before-headers"]).default("after-message-start"),
    afterEvents: z.number().int().min(1).optional(),
  }),
  // Close the connection abruptly after this many SSE events (0: before any byte of the body), or, with afterBlocks,
  // right after that many content blocks were streamed whole (content_block_stop), so no message_delta or
  // message_stop follows.
  z.strictObject({ kind: z.literal("drop"), afterEvents: z.number().int().min(0).default(0), afterBlocks: z.number().int().min(0).optional() }),
]);

export const replySchema = z.strictObject({
  content: z.array(contentBlockSchema).default([]),
  // Derived from the content when absent: tool_use if any tool_use block, else end_turn.
  stopReason: z.enum(["end_turn", "tool_use", "max_tokens", "stop_sequence", "pause_turn", "refusal"]).optional(),
  usage: usageSchema.prefault({}),
  // Wait this long before the first byte of the response; streaming replies send pings meanwhile.
  delayMs: z.number().int().min(0).max(3_600_000).default(0),
  pingIntervalMs: z.number().int().min(10).max(60_000).default(1000),
  fault: faultSchema.optional(),
  // The fault hits only the first this many requests of this stream and step; the ones after (the client's retries)
  // get the reply without it: e.g. a 529 once, then success. Absent: every request.
  faultTimes: z.number().int().min(1).optional(),
  // The fault hits only requests whose `model` contains this text (e.g. the main model, not the fallback one).
  faultModel: z.string().min(1).optional(),
  // The fault hits only requests that carry a content block of this type anywhere in their messages, tool results'
  // content included (e.g. "image", "document"); the others get the reply without it.
  faultCarrying: z.string().min(1).optional(),
});

// A request belongs to the first stream whose every given condition holds.
export const streamRuleSchema = z
  .strictObject({
    stream: z.string().min(1).regex(/^[A-Za-z0-9_.-]+$/, "a stream name is letters, digits, '_', '.', '-'"),
    firstUserContains: z.string().min(1).optional(),
    anyUserContains: z.string().min(1).optional(),
    systemContains: z.string().min(1).optional(),
    hasTool: z.string().min(1).optional(),
    lacksTool: z.string().min(1).optional(),
    path: z.string().min(1).optional(),
  })
  .refine((rule) => Object.keys(rule).length > 1, { message: "a stream rule needs at least one condition" });

// Replies of one stream: a list indexed by step, or an object keyed by step number ("0", "1", …, or "*").
const streamRepliesSchema = z.union([z.array(replySchema), z.record(z.string().regex(/^(\d+|\*)$/, "keys are step numbers or '*'"), replySchema)]);

export const mockScriptSchema = z.strictObject({
  streams: z.array(streamRuleSchema).default([]),
  // Requests that match no rule belong to this stream.
  defaultStream: z.string().min(1).default("other"),
  replies: z.record(z.string(), streamRepliesSchema).default({}),
  // Used when the stream has no reply for the step.
  fallback: replySchema.prefault({ content: [{ type: "text", text: "ok" }] }),
  // Answer a request the real API would reject (see conformance.ts) with the API's 400 instead of the scripted reply.
  strict: z.boolean().default(false),
  // Where a reply's input-side usage comes from: the reply's `usage` as scripted, or "cache-model": input_tokens,
  // cache_creation_input_tokens and cache_read_input_tokens computed by the prompt-cache model (prompt-cache.ts,
  // tokens estimated as bytes / 4) from the requests this mock has seen of the same stream; output_tokens stays scripted.
  usage: z.enum(["scripted", "cache-model"]).default("scripted"),
  // Serve a recording instead (replay-script.ts): each Messages request gets the recorded reply its content matches,
  // and one that matches none an API error naming the nearest recorded request. Streams and replies are then unused.
  replay: replayScriptSchema.optional(),
});

export type ContentBlock = z.output<typeof contentBlockSchema>;
export type Fault = z.output<typeof faultSchema>;
export type Reply = z.output<typeof replySchema>;
export type StreamRule = z.output<typeof streamRuleSchema>;
export type MockScript = z.output<typeof mockScriptSchema>;
export type MockScriptInput = z.input<typeof mockScriptSchema>;
