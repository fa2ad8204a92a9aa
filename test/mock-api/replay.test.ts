import { describe, expect, it } from "vitest";
import { createMockApp } from "../../mock-api/app.ts";
import type { RecordedExchange } from "../../mock-api/recording.ts";
import { recordedStreams, replayKeyOf, replayScriptOf } from "../../mock-api/replay-script.ts";
import { MemoryRequestLog } from "./memory-request-log.ts";
import { mockScriptSchema } from "../../mock-api/script.ts";

const body = (last: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: "claude-test", max_tokens: 10, stream: true, system: "cwd /tmp/run-abc/work on 2026-11-30", tools: [{ name: "Bash" }], messages: [{ role: "user", content: last }], ...extra });

function exchange(seq: number, requestBody: string, reply: string): RecordedExchange {
  return {
    seq,
    label: "messages",
    startMs: seq,
    process: null,
    request: { method: "POST", path: "/v1/messages", query: "beta=true", headers: {}, body: { text: requestBody } },
    response: {
      status: 200,
      headers: { "content-type": "text/event-stream; charset=utf-8" },
      firstByteMs: 1,
      endMs: 2,
      outcome: "complete",
      sse: [
        { atMs: 1, event: "message_start", data: `{"type":"message_start","message":{"id":"m${seq}"}}` },
        { atMs: 1, event: "content_block_delta", data: JSON.stringify({ type: "content_block_delta", delta: { type: "text_delta", text: reply } }) },
        { atMs: 2, event: "message_delta", data: '{"type":"message_delta","delta":{"stop_reason":"end_turn"}}' },
      ],
      body: null,
    },
    error: null,
  };
}

function setup(exchanges: RecordedExchange[]) {
  const log = new MemoryRequestLog();
  const app = createMockApp(mockScriptSchema.parse({ replay: replayScriptOf(exchanges) }), log);
  const post = (text: string) => app.request("/v1/messages?beta=true", { method: "POST", headers: { "content-type": "application/json" }, body: text });
  return { log, post };
}

describe("the mock's replay mode", () => {
  it("matches by content, not position, and serves the recorded events byte for byte", async () => {
    const { log, post } = setup([exchange(1, body("first"), "one"), exchange(2, body("second"), "two")]);
    // Asked in the other order, and with another working directory and date: each still gets its own reply.
    const second = await (await post(body("second").replace("/tmp/run-abc/work", "/tmp/run-xyz/work").replace("2026-11-30", "2026-12-01"))).text();
    const first = await (await post(body("first"))).text();
    expect(second).toBe(
      'event: message_start\ndata: {"type":"message_start","message":{"id":"m2"}}\n\n' +
        'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"two"}}\n\n' +
        'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"}}\n\n',
    );
    expect(first).toContain('"text":"one"');
    expect(log.requests.map((r) => [r.reply.summary, r.reply.fault, r.reply.stopReason])).toEqual([
      ["replayed recorded #2", "replay-out-of-order: served #2 before #1", "end_turn"],
      ["replayed recorded #1", null, "end_turn"],
    ]);
  });

  it("breaks ties by position and serves the last copy again to a retry", async () => {
    const { post } = setup([exchange(1, body("same"), "a"), exchange(2, body("same"), "b")]);
    const replies = [];
    for (let i = 0; i < 3; i++) replies.push(await (await post(body("same"))).text());
    expect(replies.map((r) => /"text":"(\w)"/.exec(r)?.[1])).toEqual(["a", "b", "b"]);
  });

  it("answers a request that matches nothing with an API error naming the nearest recorded one and how it differs", async () => {
    const { log, post } = setup([exchange(1, body("first"), "one")]);
    const response = await post(body("something else"));
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      "ccrepro replay: this request matches no recorded one (nearest: recorded #1, which differs in the last user message or tool result)",
    );
    expect(log.requests[0]!.reply.fault).toBe("replay-unmatched nearest #1");
  });

  it("keys a tool result apart from a user message of the same text, and a model apart from another", () => {
    const toolResult = JSON.stringify({ model: "m", messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "x" }] }] });
    const text = JSON.stringify({ model: "m", messages: [{ role: "user", content: "x" }] });
    expect(replayKeyOf("/v1/messages", toolResult).last).not.toBe(replayKeyOf("/v1/messages", text).last);
    expect(replayKeyOf("/v1/messages", text.replace('"m"', '"n"')).model).toBe("n");
  });
});

describe("the streams of a recording", () => {
  const conversation = (first: string, ...later: Array<{ role: string; content: unknown }>) => JSON.stringify({ model: "m", messages: [{ role: "user", content: first }, ...later] });
  const agentCall = { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Agent", input: { prompt: "SUB do the work", description: "worker" } }] };
  const labelled = (e: RecordedExchange, label: RecordedExchange["label"], process: number | null = 0): RecordedExchange => ({ ...e, label, process });
  const exchanges = [
    labelled(exchange(1, conversation("<session>\nMAIN go\n</session>"), "a title"), "title"),
    labelled(exchange(2, conversation("Warmup"), "warm"), "messages"),
    labelled(exchange(3, conversation("MAIN go"), "calls the agent"), "messages"),
    labelled(exchange(4, conversation("<system-reminder>ctx</system-reminder>\nSUB do the work"), "works"), "messages"),
    labelled(exchange(5, conversation("MAIN go", agentCall, { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "launched" }] }), "waits"), "messages"),
    labelled(exchange(6, conversation("<summary>MAIN go, launched</summary>"), "after a compaction"), "messages"),
    labelled(exchange(7, conversation("OTHER process"), "its own"), "messages", 1),
  ];

  it("keeps main (compacted too), each subagent and the side requests apart, and the replay's log names each request's stream", async () => {
    expect([...recordedStreams(exchanges)]).toEqual([
      [1, "title"],
      [2, "side"],
      [3, "main"],
      [4, "subagent-1"],
      [5, "main"],
      [6, "main"],
      [7, "main"],
    ]);
    const { log, post } = setup(exchanges);
    await post(conversation("<system-reminder>ctx</system-reminder>\nSUB do the work"));
    await post(conversation("MAIN go"));
    await post(conversation("never recorded"));
    expect(log.requests.map((r) => r.stream)).toEqual(["subagent-1", "main", "replay"]);
  });
});
