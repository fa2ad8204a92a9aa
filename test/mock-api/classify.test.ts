import { describe, expect, it } from "vitest";
import { classifyRequest, pickReply } from "../../mock-api/classify.ts";
import { messagesRequestSchema, type MessagesRequest } from "../../mock-api/messages-request.ts";
import { mockScriptSchema, type MockScriptInput } from "../../mock-api/script.ts";

const request = (body: Record<string, unknown>): MessagesRequest =>
  messagesRequestSchema.parse({ model: "m", messages: [], ...body });
const user = (content: unknown) => ({ role: "user", content });
const assistant = (text: string) => ({ role: "assistant", content: [{ type: "text", text }] });
const script = (input: MockScriptInput) => mockScriptSchema.parse(input);

describe("classifyRequest", () => {
  const rules = script({
    streams: [
      { stream: "sub", firstUserContains: "SUB_MARKER", hasTool: "Bash" },
      { stream: "main", firstUserContains: "MAIN_MARKER" },
      { stream: "late", anyUserContains: "LATE" },
      { stream: "sys", systemContains: "SYS_MARKER", lacksTool: "Bash" },
      { stream: "counted", path: "/v1/other" },
    ],
  });

  it("takes the first rule whose conditions all hold, reading every text block of the first user message", () => {
    const body = request({
      messages: [user([{ type: "text", text: "intro" }, { type: "text", text: "SUB_MARKER go" }])],
      tools: [{ name: "Bash" }],
    });
    expect(classifyRequest(rules, body, "/v1/messages").stream).toBe("sub");
    // Without the tool the sub rule fails on hasTool, and no later rule matches the marker.
    expect(classifyRequest(rules, request({ messages: body.messages }), "/v1/messages").stream).toBe("other");
  });

  it("matches a marker only in the first user message for firstUserContains, in any for anyUserContains", () => {
    const messages = [user("hello"), assistant("hi"), user("MAIN_MARKER LATE")];
    expect(classifyRequest(rules, request({ messages }), "/v1/messages").stream).toBe("late");
  });

  it("reads the system prompt as a string or as text blocks, and checks lacksTool", () => {
    expect(classifyRequest(rules, request({ system: "x SYS_MARKER" }), "/v1/messages").stream).toBe("sys");
    const blocks = request({ system: [{ type: "text", text: "SYS_MARKER" }], tools: [{ name: "Read" }] });
    expect(classifyRequest(rules, blocks, "/v1/messages").stream).toBe("sys");
    const withBash = request({ system: "SYS_MARKER", tools: [{ name: "Bash" }] });
    expect(classifyRequest(rules, withBash, "/v1/messages").stream).toBe("other");
  });

  it("matches the path exactly", () => {
    expect(classifyRequest(rules, request({}), "/v1/other").stream).toBe("counted");
  });

  it("ignores text inside non-text blocks such as tool results", () => {
    const messages = [user([{ type: "tool_result", tool_use_id: "t", content: "MAIN_MARKER" }])];
    expect(classifyRequest(rules, request({ messages }), "/v1/messages").stream).toBe("other");
  });

  it("counts assistant messages as the step, whatever else is in the conversation", () => {
    const messages = [user("a"), assistant("b"), user("c"), { role: "system", content: "note" }, assistant("d"), user("e")];
    expect(classifyRequest(rules, request({ messages }), "/v1/messages").step).toBe(2);
  });

  it("uses the script's default stream when no rule matches", () => {
    expect(classifyRequest(script({ defaultStream: "rest" }), request({}), "/v1/messages")).toEqual({ stream: "rest", step: 0 });
  });
});

describe("pickReply", () => {
  const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
  const s = script({
    replies: { list: [text("l0"), text("l1")], keyed: { "1": text("k1"), "*": text("any") }, exact: { "0": text("e0") } },
    fallback: text("fallback"),
  });
  const replyText = (stream: string, step: number) => {
    const block = pickReply(s, { stream, step }).content[0];
    return block?.type === "text" ? block.text : undefined;
  };

  it("indexes a list by step and falls back past its end", () => {
    expect([replyText("list", 0), replyText("list", 1), replyText("list", 2)]).toEqual(["l0", "l1", "fallback"]);
  });

  it("prefers the exact step key, then '*', then the fallback", () => {
    expect([replyText("keyed", 1), replyText("keyed", 5), replyText("exact", 3)]).toEqual(["k1", "any", "fallback"]);
  });

  it("uses the fallback for an unknown stream; an empty script answers a short text", () => {
    expect(replyText("nope", 0)).toBe("fallback");
    const empty = script({});
    expect(pickReply(empty, classifyRequest(empty, request({ messages: [user("x")] }), "/v1/messages")).content).toEqual([
      { type: "text", text: "ok" },
    ]);
  });
});
