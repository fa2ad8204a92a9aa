// The Messages API stand-in as a hono app: logs each request, then sends the answer decided for it.
import type { Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { HttpBindings } from "@hono/node-server";
import { Hono, type Context } from "hono";
import { anthropicErrorBody } from "./anthropic-error.ts";
import { answerCountTokens, answerMessages, errorAnswer, jsonAnswer, requestIdOf, type Answer, type Received } from "./answer.ts";
import type { ClientProcess } from "./client-process.ts";
import { clockNow } from "../core/time.ts";
import type { RequestLogSink } from "./request-log.ts";
import { trackedBody } from "./response-body.ts";
import type { MockScript } from "./script.ts";
import { ReplayMatcher } from "./replay.ts";
import { applyRequest, emptyCacheState, type CacheBody, type CacheState } from "./prompt-cache.ts";

const REDACTED_HEADERS = new Set(["x-api-key", "authorization", "proxy-authorization", "cookie"]);

// A drop cuts the stream after the events already sent; it must not unsend them. Node corks a response's socket
// until the next tick, so an immediate destroy would discard them: an empty write's callback runs once they are out.
function destroyAfterFlush(socket: Socket): void {
  if (socket.destroyed) return;
  socket.write(new Uint8Array(), () => socket.destroy());
}

function loggedHeaders(headers: Headers): Record<string, string> {
  return Object.fromEntries([...headers].map(([name, value]) => [name, REDACTED_HEADERS.has(name) ? "[redacted]" : value]));
}

export interface MockAppOptions {
  // The local process at the other end of a connection (null: not found). When given, every entry records it.
  clientProcess?: (socket: Socket) => ClientProcess | null;
  // A handler that threw (the request log could not be written: a full disk). The client gets a 500 api_error, and
  // this gets the error, once per request; without it the mock prints one line, never a stack (issue 41, item 6).
  onLogFault?: (error: Error) => void;
}

export function createMockApp(script: MockScript, log: RequestLogSink, options: MockAppOptions = {}): Hono {
  const app = new Hono();
  app.onError((error, c) => {
    if (options.onLogFault) options.onLogFault(error);
    else process.stderr.write(`ccrepro mock: could not serve ${c.req.method} ${new URL(c.req.url).pathname}: ${error.message}\n`);
    return c.json({ type: "error", error: { type: "api_error", message: `the mock could not record this request: ${error.message}` } }, 500);
  });
  // Requests seen per stream and step, so a fault can hit only the first ones (faultTimes).
  const attempts = new Map<string, number>();
  const attempt = (stream: string, step: number) => {
    const key = JSON.stringify([stream, step]);
    const count = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, count);
    return count;
  };

  // The prompt cache per stream, for `usage: "cache-model"`: one conversation's requests read what its earlier ones
  // wrote, as checker/cache-audit.ts replays them. A request refused with an HTTP error never reaches it.
  const caches = new Map<string, CacheState>();
  const cacheUsage = (stream: string, body: CacheBody) => {
    const step = applyRequest(caches.get(stream) ?? emptyCacheState(), { body, receivedAt: clockNow() });
    caches.set(stream, step.state);
    return step.result.usage;
  };

  async function respond(c: Context, decide: (received: Received) => Answer): Promise<Response> {
    // Taken before any await, so seq is arrival order.
    const seq = log.nextSeq();
    const receivedAt = clockNow();
    const url = new URL(c.req.url);
    // Present when served by @hono/node-server; absent under app.request().
    const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
    const client = options.clientProcess && incoming ? options.clientProcess(incoming.socket) : null;
    // The raw bytes as received: the log must hold exactly what the client sent.
    const read = await c.req.arrayBuffer().then(
      (buffer) => new Uint8Array(buffer),
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
    const received: Received = { seq, method: c.req.method, path: url.pathname, body: read instanceof Error ? new Uint8Array() : read };
    const answer =
      read instanceof Error
        ? errorAnswer(400, "invalid_request_error", `could not read the request body: ${read.message}`, {}, seq)
        : decide(received);
    log.recordRequest(
      {
        seq,
        receivedAt,
        method: received.method,
        path: received.path,
        query: url.search.slice(1),
        headers: loggedHeaders(c.req.raw.headers),
        ...answer.classification,
        conformance: answer.conformance,
        reply: answer.reply,
        client: {
          remoteAddress: incoming?.socket.remoteAddress ?? null,
          remotePort: incoming?.socket.remotePort ?? null,
          ...(options.clientProcess ? { pid: client?.pid ?? null, command: client?.command ?? null } : {}),
        },
      },
      received.body,
    );

    const headers = { ...answer.headers, "request-id": requestIdOf(seq) };
    if (answer.delayMs > 0) {
      try {
        await sleep(answer.delayMs, undefined, { signal: c.req.raw.signal });
      } catch {
        log.recordResponseEnd(seq, "aborted");
        return new Response(null, { status: answer.reply.status });
      }
    }
    if (c.req.method === "HEAD") {
      log.recordResponseEnd(seq, "complete");
      return new Response(null, { status: answer.reply.status, headers });
    }
    // Before the status line nothing is pending, and the socket must go before the server writes one.
    if (answer.dropBeforeResponse) incoming?.socket.destroy();
    const destroyConnection = incoming ? () => destroyAfterFlush(incoming.socket) : undefined;
    const stream = trackedBody(answer.body, { onEnd: (outcome) => log.recordResponseEnd(seq, outcome), destroyConnection });
    return new Response(stream, { status: answer.reply.status, headers });
  }

  const replay = script.replay ? new ReplayMatcher(script.replay) : null;
  app.post("/v1/messages", (c) => respond(c, (received) => (replay ? replay.answer(received) : answerMessages(script, received, { attempt, cacheUsage }))));
  app.post("/v1/messages/count_tokens", (c) => respond(c, answerCountTokens));
  for (const probePath of ["/", "/api/hello"]) {
    // HEAD is routed here too; respond() sends it without the body.
    app.get(probePath, (c) => respond(c, () => jsonAnswer(200, {}, { kind: "probe", summary: "probe" })));
  }
  app.all("*", (c) =>
    respond(c, ({ seq, method, path }) => {
      const message = `mock: no route for ${method} ${path}`;
      return jsonAnswer(404, anthropicErrorBody("not_found_error", message, requestIdOf(seq)), { kind: "not_found", summary: message });
    }),
  );
  return app;
}
