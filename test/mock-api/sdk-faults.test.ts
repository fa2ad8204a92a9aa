// The faults that break claude's histories, each parsed by the official TypeScript SDK the way sdk.test.ts checks
// the mock's fidelity: what the SDK makes of it is what a client built on it sees. (A mid-stream `event: error` and
// a 429's retry-after header as such are covered in sdk.test.ts; here they meet the SDK's retries.)
import Anthropic, { APIConnectionTimeoutError, APIError } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import type { MockScriptInput } from "../../mock-api/script.ts";
import { splitIntoChunks } from "../../mock-api/sse-plan.ts";
import { startTestMock, userMessage } from "./mock-fixture.ts";

const params = { model: "claude-mock-model", max_tokens: 100, messages: userMessage("go"), tools: [{ name: "Bash", input_schema: { type: "object" as const } }] };

// A client that retries as the SDK does by default (startTestMock's has retries off).
async function retryingMock(script: MockScriptInput, maxRetries: number) {
  const started = await startTestMock(script);
  return { ...started, client: new Anthropic({ baseURL: started.mock.url, apiKey: "test", maxRetries }) };
}

describe("scripted faults through the official SDK", () => {
  it("cuts a stream in the middle of a tool_use block: the SDK saw the block start and part of its input", async () => {
    const { client, readLog } = await startTestMock({
      fallback: {
        content: [{ type: "tool_use", name: "Bash", input: { command: "sleep 30; echo done" }, jsonChunks: 4 }],
        // message_start, ping, content_block_start (tool_use), the first input_json_delta: then the socket goes.
        fault: { kind: "drop", afterEvents: 4 },
      },
    });
    const stream = client.messages.stream(params);
    const chunks: string[] = [];
    const events: string[] = [];
    stream.on("inputJson", (partial) => chunks.push(partial));
    stream.on("streamEvent", (event) => events.push(event.type));
    const error = await stream.finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(APIError);
    expect(events).toEqual(["message_start", "content_block_start", "content_block_delta"]);
    expect(chunks).toEqual([splitIntoChunks(JSON.stringify({ command: "sleep 30; echo done" }), 4)[0]]);
    expect(stream.currentMessage?.content).toEqual([expect.objectContaining({ type: "tool_use", name: "Bash", id: "toolu_mock_1_0" })]);
    expect(readLog().requests[0]!.reply).toMatchObject({ fault: "drop after 4 events", stopReason: null });
  });

  it("answers 529 overloaded_error once, then the scripted reply to the SDK's retry of the same step", async () => {
    const { client, readLog } = await retryingMock(
      { fallback: { content: [{ type: "text", text: "after the storm" }], fault: { kind: "http-error", status: 529, message: "Overloaded" }, faultTimes: 1 } },
      2,
    );
    const message = await client.messages.stream(params).finalMessage();
    expect(message.content).toEqual([{ type: "text", text: "after the storm" }]);
    const requests = readLog().requests;
    expect(requests.map((r) => [r.step, r.reply.status, r.reply.fault])).toEqual([
      [0, 529, "http-error 529"],
      [0, 200, null],
    ]);
    expect(requests[1]!.headers["x-stainless-retry-count"]).toBe("1");
  });

  it("keeps answering 529 without faultTimes, so the SDK gives up with overloaded_error", async () => {
    const { client, readLog } = await retryingMock({ fallback: { fault: { kind: "http-error", status: 529, retryAfterSeconds: 0 } } }, 1);
    const error = await client.messages.create(params).catch((e: unknown) => e);
    expect([(error as APIError).status, (error as APIError).type]).toEqual([529, "overloaded_error"]);
    expect(readLog().requests).toHaveLength(2);
  });

  it("sends a 429 with the scripted retry-after, which the SDK waits out before its retry", async () => {
    const { client, readLog } = await retryingMock(
      { fallback: { content: [{ type: "text", text: "ok" }], fault: { kind: "http-error", status: 429, retryAfterSeconds: 1 }, faultTimes: 1 } },
      1,
    );
    const message = await client.messages.create(params);
    expect(message.content).toEqual([{ type: "text", text: "ok" }]);
    const [first, retry] = readLog().requests;
    expect(first!.reply).toMatchObject({ status: 429, kind: "error" });
    expect(retry!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(950);
  });

  it("an event: error after the text and before the tool_use ends the stream with the SDK's APIError", async () => {
    const { client } = await startTestMock({
      fallback: {
        content: [{ type: "text", text: "running it" }, { type: "tool_use", name: "Bash", input: { command: "ls" } }],
        fault: { kind: "mid-stream-error", afterBlocks: 1, errorType: "overloaded_error", message: "Overloaded" },
      },
    });
    const stream = client.messages.stream(params);
    const error = await stream.finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect([(error as APIError).type, (error as APIError).apiMessage]).toEqual(["overloaded_error", "Overloaded"]);
    expect(stream.currentMessage?.content).toEqual([{ type: "text", text: "running it" }]);
  });

  it("stalls before the headers long enough to trip the client's timeout", async () => {
    const { client, readLog } = await startTestMock({
      fallback: { content: [{ type: "text", text: "too late" }], fault: { kind: "stall", at: "before-headers", ms: 5000 } },
    });
    const started = performance.now();
    const error = await client.messages.stream(params, { timeout: 300 }).finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(readLog().requests[0]!.reply.fault).toBe("stall 5000 ms before headers");
  });

  it("stalls silently after message_start for the scripted time, then finishes the reply", async () => {
    const { client, readLog } = await startTestMock({
      fallback: { content: [{ type: "text", text: "slow but whole" }], fault: { kind: "stall", ms: 400 } },
    });
    const stream = client.messages.stream(params);
    const times: Array<[string, number]> = [];
    const started = performance.now();
    stream.on("streamEvent", (event) => times.push([event.type, performance.now() - started]));
    const message = await stream.finalMessage();
    expect(message.content).toEqual([{ type: "text", text: "slow but whole" }]);
    expect(times[0]![0]).toBe("message_start");
    // Nothing at all (no ping: the SDK hides pings, but its next event is the content) for the stall's length.
    expect(times[1]![1] - times[0]![1]).toBeGreaterThanOrEqual(380);
    expect(readLog().requests[0]!.reply).toMatchObject({ fault: "stall 400 ms", stopReason: "end_turn" });
  });

  it("a non-streaming request's timed stall holds the whole reply, tripping a shorter client timeout", async () => {
    const { client } = await startTestMock({ fallback: { content: [{ type: "text", text: "x" }], fault: { kind: "stall", ms: 2000 } } });
    const error = await client.messages.create(params, { timeout: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
  });
});
