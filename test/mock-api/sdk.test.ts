import { APIError } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { startTestMock, userMessage } from "./mock-fixture.ts";

const params = (text: string) => ({ model: "claude-mock-model", max_tokens: 100, messages: userMessage(text) });

describe("the mock through the official SDK", () => {
  it("streams text whose final message is exactly what the script said", async () => {
    const { client, readLog } = await startTestMock({
      replies: { other: [{ content: [{ type: "text", text: "Hello from the mock 😀" }], usage: { input_tokens: 42, output_tokens: 7, cache_read_input_tokens: 3 } }] },
    });
    const stream = client.messages.stream(params("hi"));
    const deltas: string[] = [];
    stream.on("text", (text) => deltas.push(text));
    const message = await stream.finalMessage();
    expect(message).toMatchObject({
      id: "msg_mock_000001",
      model: "claude-mock-model",
      role: "assistant",
      content: [{ type: "text", text: "Hello from the mock 😀" }],
      stop_reason: "end_turn",
      usage: { input_tokens: 42, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 3 },
    });
    expect(deltas.join("")).toBe("Hello from the mock 😀");
    const log = readLog();
    expect(log.requests[0]).toMatchObject({ seq: 1, streaming: true, reply: { kind: "sse", stopReason: "end_turn" } });
    expect(log.requests[0]!.client.remoteAddress).toBe("127.0.0.1");
    expect(log.requests[0]!.client.remotePort).toBeGreaterThan(0);
    expect(log.responseEnds.get(1)?.outcome).toBe("complete");
  });

  it("streams a tool_use input in chunks that reassemble to the script's input, naming the offered tool", async () => {
    const input = { prompt: "do the thing 😀 \"quoted\" \\ back", nested: { list: [1, 2, { deep: null }] }, flag: true };
    const { client } = await startTestMock({
      replies: { other: [{ content: [{ type: "tool_use", name: ["Agent", "Task"], input, jsonChunks: 5 }] }] },
    });
    const stream = client.messages.stream({
      ...params("spawn"),
      tools: [{ name: "Task", description: "t", input_schema: { type: "object" } }],
    });
    const chunks: string[] = [];
    stream.on("inputJson", (partial) => chunks.push(partial));
    const message = await stream.finalMessage();
    expect(chunks).toHaveLength(5);
    expect(message.stop_reason).toBe("tool_use");
    expect(message.content).toEqual([{ type: "tool_use", id: "toolu_mock_1_0", name: "Task", input }]);
  });

  it("streams thinking with its signature before the text", async () => {
    const { client } = await startTestMock({
      replies: {
        other: [{ content: [{ type: "thinking", thinking: "Let me think.", signature: "sig-123" }, { type: "text", text: "Done." }] }],
      },
    });
    const message = await client.messages.stream(params("think")).finalMessage();
    expect(message.content).toEqual([
      { type: "thinking", thinking: "Let me think.", signature: "sig-123" },
      { type: "text", text: "Done." },
    ]);
  });

  it("answers a non-streaming request with the full Message", async () => {
    const { client } = await startTestMock({
      replies: { other: { "*": { content: [{ type: "text", text: "plain" }, { type: "tool_use", id: "toolu_given", name: "Read", input: { p: 1 } }], stopReason: "pause_turn" } } },
    });
    const message = await client.messages.create(params("x"));
    expect(message).toEqual({
      id: "msg_mock_000001",
      type: "message",
      role: "assistant",
      model: "claude-mock-model",
      content: [
        { type: "text", text: "plain" },
        { type: "tool_use", id: "toolu_given", name: "Read", input: { p: 1 } },
      ],
      stop_reason: "pause_turn",
      stop_sequence: null,
      usage: { input_tokens: 100, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  it("counts tokens", async () => {
    const { client, readLog } = await startTestMock();
    const { input_tokens } = await client.messages.countTokens({ model: "m", messages: userMessage("count me") });
    expect(input_tokens).toBeGreaterThan(0);
    expect(readLog().requests[0]).toMatchObject({ path: "/v1/messages/count_tokens", reply: { kind: "count_tokens" } });
  });

  it.each([
    { status: 429, type: "rate_limit_error", retryAfter: "7" },
    { status: 500, type: "api_error", retryAfter: null },
    { status: 529, type: "overloaded_error", retryAfter: null },
  ])("surfaces a scripted $status as the SDK's APIError of type $type", async ({ status, type, retryAfter }) => {
    const { client, readLog } = await startTestMock({
      fallback: { fault: { kind: "http-error", status, message: "scripted", ...(retryAfter ? { retryAfterSeconds: 7 } : {}) } },
    });
    const error = await client.messages.stream(params("x")).finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    const apiError = error as APIError;
    expect([apiError.status, apiError.type, apiError.apiMessage]).toEqual([status, type, "scripted"]);
    expect(apiError.headers?.get("retry-after") ?? null).toBe(retryAfter);
    expect(apiError.requestID).toBe("req_mock_000001");
    expect(readLog().requests[0]!.reply).toMatchObject({ status, kind: "error", fault: `http-error ${status}` });
  });

  it("gives a 429 a retry-after header even when the script names none", async () => {
    const { client } = await startTestMock({ fallback: { fault: { kind: "http-error", status: 429 } } });
    const error = (await client.messages.create(params("x")).catch((e: unknown) => e)) as APIError;
    expect([error.status, error.headers?.get("retry-after")]).toEqual([429, "1"]);
  });

  it("surfaces a mid-stream error after the partial text, with no final message", async () => {
    const { client, readLog } = await startTestMock({
      fallback: {
        content: [{ type: "text", text: "partial answer" }, { type: "text", text: "never sent" }],
        fault: { kind: "mid-stream-error", afterBlocks: 1, errorType: "overloaded_error", message: "Overloaded" },
      },
    });
    const stream = client.messages.stream(params("x"));
    const deltas: string[] = [];
    stream.on("text", (text) => deltas.push(text));
    const error = await stream.finalMessage().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).type).toBe("overloaded_error");
    expect(deltas.join("")).toBe("partial answer");
    expect(readLog().requests[0]!.reply).toMatchObject({ kind: "sse", stopReason: null, fault: "mid-stream-error after 1 blocks" });
  });
});
