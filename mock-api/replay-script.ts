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

// The replay script of a recording's Messages exchanges that got an answer.
export function replayScriptOf(exchanges: readonly RecordedExchange[], speed: ReplayScript["speed"] = "instant"): ReplayScript {
  return {
    speed,
    exchanges: exchanges.flatMap((exchange) =>
      exchange.response && exchange.request.path.endsWith("/v1/messages") && "text" in exchange.request.body
        ? [
            {
              seq: exchange.seq,
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
