// The mock's usage under `usage: "cache-model"`: computed per stream from the requests it has seen, through app.request()
// and through the official SDK's stream parser.
import { describe, expect, it } from "vitest";
import { createMockApp } from "../../mock-api/app.ts";
import { simulateConversation, type CacheBody } from "../../mock-api/prompt-cache.ts";
import { MemoryRequestLog } from "./memory-request-log.ts";
import { mockScriptSchema, type MockScriptInput } from "../../mock-api/script.ts";
import { startTestMock } from "./mock-fixture.ts";

// Long enough (≈ 2500 estimated tokens) to pass the 1024-token minimum of a sonnet-4-5 model.
const SYSTEM = [{ type: "text", text: "You are a test. ".repeat(600), cache_control: { type: "ephemeral" } }];
const mark = (text: string) => [{ type: "text", text, cache_control: { type: "ephemeral" } }];

// Turn n of a conversation whose breakpoint moves to the last user message each turn, as claude does.
function turn(marker: string, n: number): CacheBody & { max_tokens: number } {
  const messages: CacheBody["messages"][number][] = [];
  for (let i = 0; i <= n; i++) {
    messages.push({ role: "user", content: i === n ? mark(`${marker} question ${i}`) : [{ type: "text", text: `${marker} question ${i}` }] });
    if (i < n) messages.push({ role: "assistant", content: [{ type: "text", text: `answer ${i}` }] });
  }
  return { model: "claude-sonnet-4-5", max_tokens: 10, system: SYSTEM, messages };
}

const SCRIPT: MockScriptInput = { streams: [{ stream: "main", firstUserContains: "MAIN" }], usage: "cache-model", replies: { main: { "*": { content: [{ type: "text", text: "ok" }], usage: { output_tokens: 9 } } } } };

function setup(input: MockScriptInput) {
  const app = createMockApp(mockScriptSchema.parse(input), new MemoryRequestLog());
  return async (body: unknown) => {
    const response = await app.request("/v1/messages", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return ((await response.json()) as { usage: Record<string, number> }).usage;
  };
}

describe('usage: "cache-model"', () => {
  it("bills the first turn as a cache write and each later turn as a read of what the previous one wrote", async () => {
    const post = setup(SCRIPT);
    const bodies = [turn("MAIN", 0), turn("MAIN", 1), turn("MAIN", 2)];
    const usages = [];
    for (const body of bodies) usages.push(await post(body));
    const expected = simulateConversation(bodies.map((body) => ({ body, receivedAt: 0 })));
    expect(usages[0]).toMatchObject({ cache_read_input_tokens: 0, output_tokens: 9 });
    expect(usages[0]!.cache_creation_input_tokens).toBeGreaterThan(2000);
    // Each later turn reads exactly the prefix the previous turn wrote, and writes only its new messages.
    expect(usages[1]!.cache_read_input_tokens).toBe(expected[0]!.written.tokens);
    expect(usages[2]!.cache_read_input_tokens).toBe(expected[1]!.written.tokens);
    expect(usages[2]!.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(usages[2]!.cache_creation_input_tokens).toBeLessThan(100);
    usages.forEach((usage, i) => {
      expect(usage).toMatchObject(expected[i]!.usage);
      expect(usage.input_tokens! + usage.cache_creation_input_tokens! + usage.cache_read_input_tokens!).toBe(expected[i]!.total.tokens);
    });
  });

  it("keeps one cache per stream: another stream's identical prefix is not read", async () => {
    const post = setup({ ...SCRIPT, streams: [{ stream: "main", firstUserContains: "MAIN" }, { stream: "side", firstUserContains: "SIDE" }] });
    await post(turn("MAIN", 0));
    const side = await post(turn("SIDE", 0));
    expect(side.cache_read_input_tokens).toBe(0);
    const again = await post(turn("MAIN", 1));
    expect(again.cache_read_input_tokens).toBeGreaterThan(2000);
  });

  it("leaves the scripted usage alone by default", async () => {
    const post = setup({ ...SCRIPT, usage: undefined });
    await post(turn("MAIN", 0));
    expect(await post(turn("MAIN", 1))).toEqual({ input_tokens: 100, output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
  });

  it("reaches the official SDK's streamed message: message_start and message_delta carry the modelled usage", async () => {
    const { client } = await startTestMock(SCRIPT);
    await client.messages.stream(turn("MAIN", 0) as never).finalMessage();
    const stream = client.messages.stream(turn("MAIN", 1) as never);
    const starts: number[] = [];
    stream.on("streamEvent", (event) => {
      if (event.type === "message_start") starts.push(event.message.usage.cache_read_input_tokens ?? -1);
    });
    const message = await stream.finalMessage();
    const expected = simulateConversation([turn("MAIN", 0), turn("MAIN", 1)].map((body) => ({ body, receivedAt: 0 })))[1]!.usage;
    expect(message.usage).toMatchObject({ ...expected, output_tokens: 9 });
    expect(starts).toEqual([expected.cache_read_input_tokens]);
  });
});
