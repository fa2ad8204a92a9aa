// What readMessagesBody accepts and refuses, the reasons its errors give, and that it remembers a parse per Buffer, not per content.
import { describe, expect, it } from "vitest";
import { readMessagesBody } from "../../checker/request-body.ts";

const log = (buffers: Record<number, Buffer>) => ({ body: (seq: number) => buffers[seq]! });

describe("readMessagesBody", () => {
  it("accepts a system string or block list, a tool list, and string or block content", () => {
    const text = JSON.stringify({ system: [{ type: "text", text: "s" }], tools: [{ name: "Bash" }], messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }, { role: "assistant", content: "ok" }] });
    const body = readMessagesBody(log({ 1: Buffer.from(text) }), 1);
    expect(body).toEqual(JSON.parse(text));
    expect(readMessagesBody(log({ 2: Buffer.from('{"system":"s","messages":[]}') }), 2)).toEqual({ system: "s", messages: [] });
  });

  it("says why bytes that are not JSON were refused, with the parser's reason", () => {
    let reason: unknown;
    try {
      JSON.parse("{oops");
    } catch (error) {
      reason = (error as Error).message;
    }
    expect(() => readMessagesBody(log({ 7: Buffer.from("{oops") }), 7)).toThrow(`request 7: the logged body is not JSON (${String(reason)})`);
  });

  it.each([
    ["no messages", "{}"],
    ["messages not a list", '{"messages":{}}'],
    ["a system that is a number", '{"system":1,"messages":[]}'],
    ["tools that are no list", '{"tools":"Bash","messages":[]}'],
    ["content that is a number", '{"messages":[{"role":"user","content":1}]}'],
    ["a role that is not a string", '{"messages":[{"role":null,"content":"x"}]}'],
    ["JSON that is no object", "[1]"],
  ])("refuses %s and names the field that failed", (_what, text) => {
    expect(() => readMessagesBody(log({ 3: Buffer.from(text) }), 3)).toThrow(/^request 3: the logged body is not a Messages request \(✖ .+\)$/s);
  });

  it("names the failing path in the reason", () => {
    expect(() => readMessagesBody(log({ 3: Buffer.from('{"messages":[{"role":"user","content":1}]}') }), 3)).toThrow(/→ at messages\[0\]\.content/);
  });

  it("parses two Buffers of the same bytes apart, and a refused body again each time", () => {
    const text = '{"messages":[{"role":"user","content":"same"}]}';
    const a = readMessagesBody(log({ 1: Buffer.from(text) }), 1);
    const b = readMessagesBody(log({ 1: Buffer.from(text) }), 1);
    expect(a).toEqual(b);
    expect(a).not.toBe(b);
    const bad = Buffer.from("{}");
    expect(() => readMessagesBody(log({ 1: bad }), 1)).toThrow(/not a Messages request/);
    expect(() => readMessagesBody(log({ 1: bad }), 1)).toThrow(/not a Messages request/);
  });

  it("reads the body of the seq asked for", () => {
    const rec = log({ 1: Buffer.from('{"messages":[{"role":"user","content":"one"}]}'), 2: Buffer.from('{"messages":[{"role":"user","content":"two"}]}') });
    expect(readMessagesBody(rec, 2).messages[0]!.content).toBe("two");
    expect(readMessagesBody(rec, 1).messages[0]!.content).toBe("one");
  });
});
