import { describe, expect, it } from "vitest";
import { renderMessage } from "../../mock-api/reply-message.ts";
import { replySchema, type Reply } from "../../mock-api/script.ts";
import { splitIntoChunks, ssePlan, type PlanStep } from "../../mock-api/sse-plan.ts";

const reply = (input: Record<string, unknown>): Reply => replySchema.parse(input);
const planOf = (r: Reply) => ssePlan(renderMessage(r, { seq: 7, model: "model-x", request: { model: "model-x", messages: [], tools: [{ name: "Task" }] } }), r);
const shape = (plan: PlanStep[]) =>
  plan.map((step) => {
    if (step.kind !== "event") return step.kind;
    const delta = step.event.data.delta as { type?: string } | undefined;
    return step.event.type === "content_block_delta" ? `delta:${delta?.type}` : step.event.type;
  });

describe("ssePlan", () => {
  it("sends message_start, a ping, each block, message_delta and message_stop in the API's order", () => {
    const r = reply({
      content: [
        { type: "thinking", thinking: "t", signature: "sig" },
        { type: "text", text: "hello" },
        { type: "tool_use", name: ["Agent", "Task"], input: { a: 1 }, jsonChunks: 3 },
      ],
    });
    expect(shape(planOf(r))).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "delta:thinking_delta",
      "delta:signature_delta",
      "content_block_stop",
      "content_block_start",
      "delta:text_delta",
      "content_block_stop",
      "content_block_start",
      "delta:input_json_delta",
      "delta:input_json_delta",
      "delta:input_json_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
  });

  it("streams a thinking block's text in its chunks, whose deltas join to the text, then its signature once", () => {
    const plan = planOf(reply({ content: [{ type: "thinking", thinking: "plan it\nthen do it", signed: true, chunks: 4 }] }));
    const deltas = plan.flatMap((s) => (s.kind === "event" && s.event.type === "content_block_delta" ? [s.event.data.delta as { type: string; thinking?: string }] : []));
    expect(deltas.map((d) => d.type)).toEqual(["thinking_delta", "thinking_delta", "thinking_delta", "thinking_delta", "signature_delta"]);
    expect(deltas.map((d) => d.thinking ?? "").join("")).toBe("plan it\nthen do it");
  });

  it("starts the message empty, with the request's model, and reports stop reason and usage at the end", () => {
    const plan = planOf(reply({ content: [{ type: "tool_use", name: "Bash", input: {} }], usage: { output_tokens: 9 } }));
    const data = plan.flatMap((step) => (step.kind === "event" ? [step.event.data] : []));
    expect(data[0]).toMatchObject({
      type: "message_start",
      message: { id: "msg_mock_000007", model: "model-x", content: [], stop_reason: null, usage: { output_tokens: 1 } },
    });
    expect(data[2]).toMatchObject({ content_block: { type: "tool_use", id: "toolu_mock_7_0", name: "Bash", input: {} } });
    expect(data.at(-2)).toEqual({
      type: "message_delta",
      delta: { stop_reason: "tool_use", stop_sequence: null },
      usage: { input_tokens: 100, output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  it("places the delay after message_start and its ping", () => {
    expect(shape(planOf(reply({ content: [], delayMs: 500, pingIntervalMs: 100 })))).toEqual([
      "message_start",
      "ping",
      "wait",
      "message_delta",
      "message_stop",
    ]);
  });

  it("ends with an error event after the scripted number of blocks, without message_stop", () => {
    const r = reply({
      content: [
        { type: "text", text: "a" },
        { type: "text", text: "b" },
      ],
      fault: { kind: "mid-stream-error", afterBlocks: 1 },
    });
    const plan = planOf(r);
    expect(shape(plan)).toEqual(["message_start", "ping", "content_block_start", "delta:text_delta", "content_block_stop", "error"]);
    expect(plan.at(-1)).toMatchObject({ event: { data: { error: { type: "overloaded_error", message: "Overloaded" } } } });
  });

  it("stalls right after message_start", () => {
    expect(shape(planOf(reply({ content: [{ type: "text", text: "x" }], fault: { kind: "stall" } })))).toEqual(["message_start", "stall"]);
  });

  it("holds a timed stall silently right after message_start, before its ping and any scripted delay, then streams on", () => {
    const plan = planOf(reply({ content: [{ type: "text", text: "x" }], delayMs: 50, pingIntervalMs: 10, fault: { kind: "stall", ms: 300 } }));
    expect(shape(plan)).toEqual(["message_start", "wait", "ping", "wait", "content_block_start", "delta:text_delta", "content_block_stop", "message_delta", "message_stop"]);
    // One interval as long as the wait: no ping during the stall.
    expect(plan[1]).toEqual({ kind: "wait", ms: 300, intervalMs: 300 });
    expect(plan[3]).toEqual({ kind: "wait", ms: 50, intervalMs: 10 });
  });

  it("stalls after the given number of events: inside a thinking block, after its deltas and before its signature", () => {
    const content = [{ type: "thinking" as const, thinking: "plan it", chunks: 2 }, { type: "text" as const, text: "x" }];
    expect(shape(planOf(reply({ content, fault: { kind: "stall", afterEvents: 5 } })))).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "delta:thinking_delta",
      "delta:thinking_delta",
      "stall",
    ]);
    const timed = shape(planOf(reply({ content, fault: { kind: "stall", afterEvents: 5, ms: 200 } })));
    expect(timed.slice(5, 8)).toEqual(["wait", "delta:signature_delta", "content_block_stop"]);
  });

  it("leaves a stall before the headers to the app: the stream itself runs as scripted", () => {
    const plan = planOf(reply({ content: [], fault: { kind: "stall", at: "before-headers", ms: 300 } }));
    expect(shape(plan)).toEqual(["message_start", "ping", "message_delta", "message_stop"]);
  });

  it("drops after exactly N events, counting events and not waits", () => {
    const content = [{ type: "text", text: "x" }];
    expect(shape(planOf(reply({ content, fault: { kind: "drop" } })))).toEqual(["drop"]);
    expect(shape(planOf(reply({ content, delayMs: 50, fault: { kind: "drop", afterEvents: 3 } })))).toEqual([
      "message_start",
      "ping",
      "wait",
      "content_block_start",
      "drop",
    ]);
    // More events than the stream has: everything is sent, then the socket goes instead of a clean end.
    expect(shape(planOf(reply({ content, fault: { kind: "drop", afterEvents: 99 } }))).at(-1)).toBe("drop");
  });
});

describe("splitIntoChunks", () => {
  it("gives exactly the requested number of pieces that join back to the text, never splitting a surrogate pair", () => {
    const text = '{"a":"😀😀😀","b":"\\u0000"}';
    for (const count of [1, 2, 5, 7, 40]) {
      const chunks = splitIntoChunks(text, count);
      expect(chunks).toHaveLength(count);
      expect(chunks.join("")).toBe(text);
      // A lone surrogate does not survive a UTF-8 round trip.
      for (const chunk of chunks) expect(Buffer.from(chunk, "utf8").toString("utf8")).toBe(chunk);
    }
  });
});
