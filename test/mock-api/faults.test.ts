import { APIConnectionError, APIError } from "@anthropic-ai/sdk";
import { describe, expect, it, vi } from "vitest";
import type { MockServer } from "../../mock-api/server.ts";
import type { ResponseEndEntry } from "../../mock-api/log-entry.ts";
import { startTestMock, userMessage } from "./mock-fixture.ts";

const body = (stream: boolean) => JSON.stringify({ model: "m", max_tokens: 5, stream, messages: userMessage("x") });
const params = { model: "m", max_tokens: 5, messages: userMessage("x") };

function responseEnd(mock: MockServer, seq: number): Promise<ResponseEndEntry["outcome"]> {
  return new Promise((resolve) => {
    const stop = mock.log.onEntry((line) => {
      if (line.kind === "response-end" && line.seq === seq) {
        stop();
        resolve(line.outcome);
      }
    });
  });
}

describe("scripted delays and faults", () => {
  it("sends pings while a streaming reply is delayed, before any content", async () => {
    const { mock } = await startTestMock({
      fallback: { content: [{ type: "text", text: "late" }], delayMs: 450, pingIntervalMs: 100 },
    });
    const started = performance.now();
    const raw = await (await fetch(`${mock.url}/v1/messages`, { method: "POST", body: body(true) })).text();
    expect(performance.now() - started).toBeGreaterThanOrEqual(440);
    const events = [...raw.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    // One ping right after message_start, then one every 100 ms of the 450 ms delay.
    expect(events.slice(0, 6)).toEqual(["message_start", "ping", "ping", "ping", "ping", "ping"]);
    expect(events.slice(6)).toEqual(["content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"]);
  });

  it("sends nothing at all during a timed stall after message_start, then the whole reply", async () => {
    const { mock } = await startTestMock({ fallback: { content: [{ type: "text", text: "late" }], pingIntervalMs: 50, fault: { kind: "stall", ms: 300 } } });
    const started = performance.now();
    const response = await fetch(`${mock.url}/v1/messages`, { method: "POST", body: body(true) });
    const raw = await response.text();
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    // One ping only, the one the API sends after message_start: none came during the 300 ms, though the reply's
    // ping interval (for its delays) is 50 ms.
    expect([...raw.matchAll(/^event: (\S+)$/gm)].map((m) => m[1])).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
  });

  it("holds a non-streaming reply back entirely until the delay passed", async () => {
    const { client } = await startTestMock({ fallback: { content: [{ type: "text", text: "late" }], delayMs: 300 } });
    const started = performance.now();
    const message = await client.messages.create(params);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(message.content).toEqual([{ type: "text", text: "late" }]);
  });

  it("stalls after message_start until the client gives up, and records the stall as dropped", async () => {
    const { mock, client } = await startTestMock({ fallback: { content: [{ type: "text", text: "x" }], fault: { kind: "stall" } } });
    const ended = responseEnd(mock, 1);
    const stream = client.messages.stream(params, { signal: AbortSignal.timeout(300) });
    const events: string[] = [];
    stream.on("streamEvent", (event) => events.push(event.type));
    await expect(stream.finalMessage()).rejects.toThrow(/abort/i);
    expect(events).toEqual(["message_start"]);
    expect(await ended).toBe("dropped");
  });

  it("ends stalled responses when the server closes, and logs them before close() resolves", async () => {
    const { mock, client, readLog } = await startTestMock({
      streams: [{ stream: "stall", firstUserContains: "STALL" }],
      replies: { stall: { "*": { fault: { kind: "stall" } } } },
    });
    // A finished exchange first, so a stalled request reuses a kept-alive connection as a CLI would.
    await client.messages.create(params);
    const stall = { ...params, messages: userMessage("STALL") };
    const started: string[] = [];
    const streams = [client.messages.stream(stall), client.messages.stream(stall)];
    for (const stream of streams) stream.on("streamEvent", (event) => started.push(event.type));
    const settle = (promise: Promise<unknown>) => promise.then(() => "resolved", () => "rejected");
    const clientOutcomes = Promise.all([...streams.map((s) => settle(s.finalMessage())), settle(client.messages.create(stall))]);
    await vi.waitFor(() => {
      expect(started).toEqual(["message_start", "message_start"]);
      expect(readLog().requests).toHaveLength(4);
    });
    await mock.close();
    // Read at once: close() must not resolve before the cut responses' lines are written.
    const outcomes = [2, 3, 4].map((seq) => readLog().responseEnds.get(seq)?.outcome);
    expect(await clientOutcomes).toEqual(["rejected", "rejected", "rejected"]);
    expect(outcomes).toEqual(["dropped", "dropped", "dropped"]);
  });

  it("drops the connection before any byte when afterEvents is 0", async () => {
    const { mock, client, readLog } = await startTestMock({ fallback: { fault: { kind: "drop" } } });
    const ended = responseEnd(mock, 1);
    const error = await client.messages.stream(params).finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(await ended).toBe("dropped");
    expect(readLog().requests[0]!.reply).toMatchObject({ fault: "drop after 0 events", stopReason: null });
    const plain = await client.messages.create(params).catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(APIConnectionError);
  });

  it("drops the connection mid-stream after the scripted number of events", async () => {
    const { mock, client } = await startTestMock({
      fallback: { content: [{ type: "text", text: "cut short" }], fault: { kind: "drop", afterEvents: 4 } },
    });
    const ended = responseEnd(mock, 1);
    const stream = client.messages.stream(params);
    const text: string[] = [];
    stream.on("text", (delta) => text.push(delta));
    const error = await stream.finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(APIError);
    // message_start, ping, content_block_start, the text delta: then the socket goes.
    expect(text).toEqual(["cut short"]);
    expect(await ended).toBe("dropped");
  });

  it("records a client that goes away mid-stream as aborted", async () => {
    const { mock, client } = await startTestMock({ fallback: { content: [{ type: "text", text: "x" }], delayMs: 10_000 } });
    const ended = responseEnd(mock, 1);
    const controller = new AbortController();
    const stream = client.messages.stream(params, { signal: controller.signal });
    stream.on("streamEvent", (event) => {
      if (event.type === "message_start") controller.abort();
    });
    await expect(stream.finalMessage()).rejects.toThrow();
    expect(await ended).toBe("aborted");
  });
});
