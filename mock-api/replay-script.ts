// What a replay serves (the mock script's `replay`), and the content key a request is matched by: the path, the model,
// the system prompt, the tool list, the last user message or tool result, normalised by the machine rules.
import { createHash } from "node:crypto";
import { z } from "zod";
import { normaliseMachine } from "./machine-rules.ts";
import type { RecordedExchange } from "./recording.ts";

const recordedBody = z.union([z.strictObject({ text: z.string() }), z.strictObject({ base64: z.string() })]);

export const replayKeySchema = z.strictObject({
  path: z.string(),
  model: z.string().nullable(),
  system: z.string(),
  tools: z.string(),
  last: z.string(),
});
export type ReplayKey = z.infer<typeof replayKeySchema>;

export const replayScriptSchema = z.strictObject({
  // "instant" (the default): every event at once; a number: the recorded timings divided by it (1 = recorded speed).
  speed: z.union([z.literal("instant"), z.number().positive().max(1000)]).default("instant"),
  exchanges: z.array(
    z.strictObject({
      seq: z.number().int().min(1),
      // The stream the recorded request belonged to (recordedStreams): what the replay's request log calls the request
      // it answers with it. Scripts written before streams were told apart have none.
      stream: z.string().default("replay"),
      key: replayKeySchema,
      response: z.strictObject({
        status: z.number().int(),
        contentType: z.string().nullable(),
        sse: z.array(z.strictObject({ atMs: z.number().min(0), event: z.string().nullable(), data: z.string() })).nullable(),
        body: recordedBody.nullable(),
      }),
    }),
  ),
});
export type ReplayScript = z.output<typeof replayScriptSchema>;

// The request log's summary of a replayed request: which recorded exchange answered it. Checks and waits read it back
// with servedSeqOf.
export const servedSummary = (seq: number): string => `replayed recorded #${seq}`;

// The recorded exchange a replayed request was answered with; null for one that matched none (answered with an API
// error) or a request another mock answered.
export function servedSeqOf(summary: string): number | null {
  const match = /^replayed recorded #(\d+)$/.exec(summary);
  return match ? Number(match[1]) : null;
}

// Matched after the machine rules (machine-rules.ts): what must differ between the recording machine and this one.
const digest = (text: string) => createHash("sha256").update(normaliseMachine(text)).digest("hex").slice(0, 16);

type Block = { type?: string; text?: unknown; content?: unknown; is_error?: unknown };

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Block[])
    .map((block) => {
      if (block.type === "text" && typeof block.text === "string") return block.text;
      if (block.type === "tool_result") return `tool_result${block.is_error === true ? "(error)" : ""}: ${textOf(block.content)}`;
      return "";
    })
    .filter((text) => text !== "")
    .join("\n");
}

// The content a request is matched by. A body that is not a Messages request is matched by its path alone.
export function replayKeyOf(path: string, body: string): ReplayKey {
  let request: { model?: unknown; system?: unknown; tools?: Array<{ name?: unknown }>; messages?: Array<{ role?: unknown; content?: unknown }> } = {};
  try {
    request = JSON.parse(body) as typeof request;
  } catch {
    // not JSON: path only
  }
  const users = (request.messages ?? []).filter((message) => message.role === "user");
  return {
    path,
    model: typeof request.model === "string" ? request.model : null,
    system: digest(typeof request.system === "string" ? request.system : textOf(request.system)),
    tools: (request.tools ?? []).map((tool) => String(tool.name ?? "?")).join(","),
    last: digest(textOf(users.at(-1)?.content)),
  };
}

// The tools that start a subagent, under each release's name (Task became Agent).
const SUBAGENT_TOOLS = new Set(["Task", "Agent"]);

interface ParsedRequest {
  messages?: Array<{ role?: unknown; content?: unknown }>;
}

// The "Warmup" request releases of the 2.0 line send for their subagents before the conversation starts: a side call,
// never a prompt or a conversation of its own.
function isWarmup(request: ParsedRequest): boolean {
  return request.messages?.length === 1 && textOf(request.messages[0]?.content).trim() === "Warmup";
}

// Which stream each recorded Messages request belongs to, by seq: a side call by its label ("title", "quota", …) and a
// 2.0 Warmup "side"; a subagent's conversation, whose first user message carries the prompt of an Agent (Task) call
// some request's history holds, "subagent-N" in the order those calls were made; every other conversation request
// "main" (a compaction rewrites the first message, so that cannot tell main from side). Interleaved streams (a
// subagent working while the main loop waits, a background task's notification) then stay apart in a replay.
export function recordedStreams(exchanges: readonly RecordedExchange[]): Map<number, string> {
  const parsed = new Map<number, ParsedRequest>();
  for (const exchange of exchanges) {
    if (!exchange.request.path.endsWith("/v1/messages") || !("text" in exchange.request.body)) continue;
    try {
      parsed.set(exchange.seq, JSON.parse(exchange.request.body.text) as ParsedRequest);
    } catch {
      // not JSON: a side call, by its label
    }
  }
  const prompts: string[] = [];
  for (const request of parsed.values()) {
    for (const message of request.messages ?? []) {
      if (message.role !== "assistant" || !Array.isArray(message.content)) continue;
      for (const block of message.content as Array<{ type?: unknown; name?: unknown; input?: { prompt?: unknown } }>) {
        const prompt = block.input?.prompt;
        if (block.type === "tool_use" && SUBAGENT_TOOLS.has(String(block.name)) && typeof prompt === "string" && prompt !== "" && !prompts.includes(prompt)) prompts.push(prompt);
      }
    }
  }
  const streams = new Map<number, string>();
  for (const exchange of exchanges) {
    const request = parsed.get(exchange.seq);
    if (!request) continue;
    if (exchange.label !== "messages" || isWarmup(request)) {
      streams.set(exchange.seq, exchange.label === "messages" ? "side" : exchange.label);
      continue;
    }
    const first = textOf(request.messages?.[0]?.content);
    const subagent = prompts.findIndex((prompt) => first.includes(prompt));
    streams.set(exchange.seq, subagent === -1 ? "main" : `subagent-${subagent + 1}`);
  }
  return streams;
}

// The replay script of a recording's Messages exchanges that got an answer.
export function replayScriptOf(exchanges: readonly RecordedExchange[], speed: ReplayScript["speed"] = "instant"): ReplayScript {
  const streams = recordedStreams(exchanges);
  return {
    speed,
    exchanges: exchanges.flatMap((exchange) =>
      exchange.response && exchange.request.path.endsWith("/v1/messages") && "text" in exchange.request.body
        ? [
            {
              seq: exchange.seq,
              stream: streams.get(exchange.seq) ?? exchange.label,
              key: replayKeyOf(exchange.request.path, exchange.request.body.text),
              response: {
                status: exchange.response.status,
                contentType: exchange.response.headers["content-type"] ?? null,
                sse: exchange.response.sse,
                body: exchange.response.body,
              },
            },
          ]
        : [],
    ),
  };
}
