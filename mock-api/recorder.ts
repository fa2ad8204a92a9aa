// The recording proxy of `ccrepro record`: a loopback hono app that forwards each request to the upstream, streams each
// response chunk through the moment it arrives (a recorder that buffers changes what it records), and keeps both sides.
import type { Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { argvOf, environOf } from "../core/proc.ts";
import { anthropicErrorBody } from "./anthropic-error.ts";
import { findClientProcess } from "./client-process.ts";
import {
  claudeVariables,
  encodeBody,
  keyKinds,
  labelExchange,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  RecordingError,
  Redactor,
  type RecordedExchange,
  type RecordedProcess,
  type RecordedSseEvent,
  type Recording,
} from "./recording.ts";
import { listen } from "./server.ts";

const HOST = "127.0.0.1";
// Hop-by-hop headers, and those the proxy's own fetch sets or undoes (it decodes a compressed body).
const NOT_FORWARDED = new Set(["host", "connection", "keep-alive", "transfer-encoding", "content-length", "accept-encoding", "upgrade"]);
const NOT_RETURNED = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding"]);

// Splits an SSE byte stream into events as their blank-line terminators arrive.
export class SseSplitter {
  private pending = "";
  private readonly decoder = new TextDecoder();

  push(chunk: Uint8Array, atMs: number): RecordedSseEvent[] {
    this.pending += this.decoder.decode(chunk, { stream: true });
    const events: RecordedSseEvent[] = [];
    for (let end = this.pending.indexOf("\n\n"); end !== -1; end = this.pending.indexOf("\n\n")) {
      const frame = this.pending.slice(0, end);
      this.pending = this.pending.slice(end + 2);
      let event: string | null = null;
      const data: string[] = [];
      for (const line of frame.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trimStart();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (event !== null || data.length > 0) events.push({ atMs, event, data: data.join("\n") });
    }
    return events;
  }
}

export interface RecordingProxyOptions {
  upstream: string;
  // 0 (the default) picks a free port.
  port?: number;
  // The caller's environment: the values of its key-holding variables never reach the recording.
  env?: NodeJS.ProcessEnv;
  command?: string[] | null;
}

export interface RecordingProxy {
  url: string;
  port: number;
  redactor: Redactor;
  // The recording so far, redacted.
  recording(): Recording;
  // Requests that could not reach the upstream, as messages for the user.
  unreachable(): string[];
  close(): Promise<void>;
}

export function createRecorderApp(
  options: { upstream: string; redactor: Redactor; startedAt: number },
  sink: { add(exchange: RecordedExchange): void; processOf(socket: Socket | undefined): number | null; seq(): number },
): Hono {
  const app = new Hono();
  const upstream = options.upstream.replace(/\/+$/, "");
  const { redactor } = options;
  app.all("*", async (c) => {
    const seq = sink.seq();
    const arrived = performance.now();
    const since = () => Math.round((performance.now() - arrived) * 1000) / 1000;
    const url = new URL(c.req.url);
    const incoming = (c.env as { incoming?: { socket: Socket } } | undefined)?.incoming;
    const body = new Uint8Array(await c.req.arrayBuffer());
    const headers = new Headers();
    for (const [name, value] of c.req.raw.headers) if (!NOT_FORWARDED.has(name)) headers.set(name, value);
    const recordedBody = encodeBody(body);
    const exchange: RecordedExchange = {
      seq,
      label: labelExchange(url.pathname, recordedBody),
      startMs: Math.round(arrived - options.startedAt),
      process: sink.processOf(incoming?.socket),
      request: { method: c.req.method, path: url.pathname, query: url.search.slice(1), headers: redactor.headers(c.req.raw.headers), body: redactor.body(recordedBody) },
      response: null,
      error: null,
    };
    let response: Response;
    try {
      response = await fetch(`${upstream}${url.pathname}${url.search}`, {
        method: c.req.method,
        headers,
        body: c.req.method === "GET" || c.req.method === "HEAD" ? undefined : body,
        signal: c.req.raw.signal,
        redirect: "manual",
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (error as Error).message;
      exchange.error = `the upstream ${upstream} was not reachable: ${why}`;
      sink.add(exchange);
      // An API error the CLI shows as it would any other: the user's command still runs and sees it.
      return c.json(anthropicErrorBody("api_error", `ccrepro record: ${exchange.error}`), 502);
    }
    const returned = new Headers();
    for (const [name, value] of response.headers) if (!NOT_RETURNED.has(name)) returned.set(name, value);
    const isSse = (response.headers.get("content-type") ?? "").includes("text/event-stream");
    const recorded: NonNullable<RecordedExchange["response"]> = {
      status: response.status,
      headers: redactor.headers(returned),
      firstByteMs: null,
      endMs: 0,
      outcome: "complete",
      sse: isSse ? [] : null,
      body: null,
    };
    exchange.response = recorded;
    const splitter = new SseSplitter();
    const chunks: Uint8Array[] = [];
    const finish = (outcome: typeof recorded.outcome) => {
      if (recorded.endMs !== 0) return;
      recorded.endMs = Math.max(since(), 0.001);
      recorded.outcome = outcome;
      if (!isSse) recorded.body = redactor.body(encodeBody(Buffer.concat(chunks)));
      else recorded.sse = recorded.sse!.map((event) => ({ ...event, data: redactor.text(event.data) }));
      sink.add(exchange);
    };
    if (!response.body) {
      finish("complete");
      return new Response(null, { status: response.status, headers: returned });
    }
    const reader = response.body.getReader();
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch {
          finish("error");
          controller.error(new Error("the upstream's response broke off"));
          return;
        }
        if (next.done) {
          finish("complete");
          controller.close();
          return;
        }
        // Forwarded first, recorded after: the client never waits on the recorder.
        controller.enqueue(next.value);
        const at = since();
        recorded.firstByteMs ??= at;
        if (isSse) recorded.sse!.push(...splitter.push(next.value, at));
        else chunks.push(next.value);
      },
      cancel() {
        finish("aborted");
        void reader.cancel().catch(() => undefined);
      },
    });
    return new Response(stream, { status: response.status, headers: returned });
  });
  return app;
}

export async function startRecordingProxy({ upstream, port = 0, env = {}, command = null }: RecordingProxyOptions): Promise<RecordingProxy> {
  try {
    new URL(upstream);
  } catch {
    throw new RecordingError(`--upstream ${JSON.stringify(upstream)} is not a URL: give one such as https://api.anthropic.com or http://127.0.0.1:PORT`, "BAD_UPSTREAM");
  }
  const redactor = new Redactor(env);
  const startedAt = performance.now();
  const recordedAt = new Date().toISOString();
  const exchanges: RecordedExchange[] = [];
  const processes: RecordedProcess[] = [];
  const socketProcess = new WeakMap<Socket, number | null>();
  let lastSeq = 0;
  const processIndex = (pid: number, firstSeq: number): number => {
    const known = processes.findIndex((p) => p.pid === pid);
    if (known !== -1) return known;
    // Both are empty when the process is already gone.
    const argv = argvOf(pid).map((word) => redactor.text(word));
    const environ = environOf(pid);
    processes.push({ pid, argv, firstSeq, env: claudeVariables(environ, redactor), keyKinds: keyKinds(environ) });
    return processes.length - 1;
  };
  const app = createRecorderApp(
    { upstream, redactor, startedAt },
    {
      add: (exchange) => exchanges.push(exchange),
      seq: () => ++lastSeq,
      processOf: (socket) => {
        if (!socket) return null;
        const known = socketProcess.get(socket);
        if (known === undefined || known === null) return null;
        // The pid was found as the connection opened; the index is taken at its first request.
        return processIndex(known, lastSeq);
      },
    },
  );
  const server = createAdaptorServer({ fetch: app.fetch, hostname: HOST, overrideGlobalObjects: false }) as Server;
  server.on("connection", (socket: Socket) => {
    const client = socket.remotePort && socket.localPort ? findClientProcess(socket.remotePort, socket.localPort) : null;
    socketProcess.set(socket, client?.pid ?? null);
  });
  await listen(server, port);
  const actualPort = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${HOST}:${actualPort}`,
    port: actualPort,
    redactor,
    recording: () => ({
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      recordedAt,
      upstream: redactor.text(new URL(upstream).origin),
      command: command?.map((word) => redactor.text(word)) ?? null,
      processes: structuredClone(processes),
      exchanges: [...exchanges].sort((a, b) => a.seq - b.seq),
    }),
    unreachable: () => [...new Set(exchanges.flatMap((e) => (e.error ? [e.error] : [])))],
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
