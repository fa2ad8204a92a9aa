// The mock's replay mode: serves a recording's replies, each matched to the incoming request by its content key
// (replay-script.ts); position only breaks ties, with a note when the order diverged.
import { setTimeout as sleep } from "node:timers/promises";
import { errorAnswer, type Answer, type Received } from "./answer.ts";
import { checkConformance } from "./conformance.ts";
import { replayKeyOf, servedSummary, type ReplayKey, type ReplayScript } from "./replay-script.ts";
import type { BodyStep } from "./response-body.ts";

const FIELDS = ["path", "model", "system", "tools", "last"] as const;
const FIELD_WORDS: Record<(typeof FIELDS)[number], string> = {
  path: "the path",
  model: "the model",
  system: "the system prompt",
  tools: "the tool list",
  last: "the last user message or tool result",
};

// Which recorded exchange answers each request of one replay. Holds what was served, so it lives as long as the app.
export class ReplayMatcher {
  private readonly served = new Set<number>();
  constructor(private readonly script: ReplayScript) {}

  answer(received: Received): Answer {
    const text = Buffer.from(received.body).toString("utf8");
    const key = replayKeyOf(received.path, text);
    let parsed: { messages?: Array<{ role?: string }>; stream?: unknown } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      return errorAnswer(400, "invalid_request_error", "ccrepro replay: the request body is not JSON");
    }
    const messages = parsed.messages ?? [];
    // A request that matches no recorded one belongs to no recorded stream.
    const classification = {
      stream: "replay",
      step: messages.filter((m) => m.role === "assistant").length,
      messageCount: messages.length,
      streaming: parsed.stream === true,
    };
    const conformance = checkConformance(parsed);
    const same = this.script.exchanges.filter((exchange) => FIELDS.every((field) => exchange.key[field] === key[field]));
    const unserved = same.filter((exchange) => !this.served.has(exchange.seq));
    // A retry after all the recorded copies were served gets the last of them again.
    const picked = unserved[0] ?? same.at(-1);
    if (!picked) {
      const nearest = [...this.script.exchanges].sort((a, b) => differing(a.key, key).length - differing(b.key, key).length)[0];
      const what = nearest ? `nearest: recorded #${nearest.seq}, which differs in ${differing(nearest.key, key).map((f) => FIELD_WORDS[f]).join(", ")}` : "the recording has no Messages request";
      const answer = errorAnswer(400, "invalid_request_error", `ccrepro replay: this request matches no recorded one (${what})`);
      return { ...answer, classification, conformance, reply: { ...answer.reply, fault: `replay-unmatched${nearest ? ` nearest #${nearest.seq}` : ""}` } };
    }
    // Position breaks ties; serving a later one while an earlier recorded request is still unserved means the order diverged.
    const earlierUnserved = this.script.exchanges.find((exchange) => exchange.seq < picked.seq && !this.served.has(exchange.seq));
    this.served.add(picked.seq);
    const note = earlierUnserved ? `replay-out-of-order: served #${picked.seq} before #${earlierUnserved.seq}` : null;
    return recordedAnswer(picked, this.script.speed, { classification: { ...classification, stream: picked.stream }, conformance, note });
  }
}

function differing(a: ReplayKey, b: ReplayKey): Array<(typeof FIELDS)[number]> {
  return FIELDS.filter((field) => a[field] !== b[field]);
}

const encoder = new TextEncoder();

function recordedAnswer(
  exchange: ReplayScript["exchanges"][number],
  speed: ReplayScript["speed"],
  extra: Pick<Answer, "classification" | "conformance"> & { note: string | null },
): Answer {
  const { response } = exchange;
  const headers: Record<string, string> = response.contentType ? { "content-type": response.contentType } : {};
  const summary = servedSummary(exchange.seq);
  const at = (ms: number) => (speed === "instant" ? 0 : ms / speed);
  const reply = { status: response.status, summary, fault: extra.note, stopReason: null };
  if (response.sse) {
    const events = response.sse;
    return {
      classification: extra.classification,
      conformance: extra.conformance,
      reply: { ...reply, kind: "sse", stopReason: stopReasonIn(events) },
      headers: { ...headers, "cache-control": "no-cache" },
      delayMs: 0,
      body: async function* (signal): AsyncGenerator<BodyStep> {
        const start = performance.now();
        for (const event of events) {
          const wait = at(event.atMs) - (performance.now() - start);
          if (wait > 0) await sleep(wait, undefined, { signal });
          yield encoder.encode(`${event.event === null ? "" : `event: ${event.event}\n`}data: ${event.data}\n\n`);
        }
      },
      dropBeforeResponse: false,
    };
  }
  const bytes = response.body === null ? new Uint8Array() : "text" in response.body ? encoder.encode(response.body.text) : Buffer.from(response.body.base64, "base64");
  return {
    classification: extra.classification,
    conformance: extra.conformance,
    reply: { ...reply, kind: response.status >= 400 ? "error" : "json" },
    headers: { ...headers, "content-length": String(bytes.byteLength) },
    delayMs: 0,
    body: async function* () {
      yield bytes;
    },
    dropBeforeResponse: false,
  };
}

function stopReasonIn(events: ReadonlyArray<{ data: string }>): string | null {
  for (const event of events) {
    const match = /"stop_reason"\s*:\s*"([a-z_]+)"/.exec(event.data);
    if (match && event.data.includes("message_delta")) return match[1]!;
  }
  return null;
}
