// comparePrefix over the shapes a Messages body can take: tools or system added, dropped or sent as a string, blocks that
// change kind, nested arrays and objects, cross-run run directories, and the rolling message breakpoint.
import { describe, expect, it } from "vitest";
import { canonicalJson, type Json } from "../../checker/json-value.ts";
import { comparePrefix, type PrefixOptions } from "../../checker/prefix.ts";
import { readMessagesBody, type MessagesBody } from "../../checker/request-body.ts";
import { afterResumeBody, beforeIdleBody } from "../fixtures/notifications/bodies.ts";

const labels: PrefixOptions = { beforeLabel: "req 6", afterLabel: "req 8" };

// Through the checker's own edge, as a logged body is read.
const body = (value: unknown): MessagesBody => readMessagesBody({ body: () => Buffer.from(JSON.stringify(value), "utf8") }, 0);
const copy = (b: MessagesBody): MessagesBody => structuredClone(b);
const bytes = (value: Json) => Buffer.byteLength(canonicalJson(value, 2));

const grep = { name: "Grep", description: "Searches file contents.", input_schema: { type: "object" } };
const user = (text: string) => ({ role: "user", content: [{ type: "text", text }] });

describe("comparePrefix: tools", () => {
  it("reports a tool B adds as a difference at its index, absent on A's side, with an absent header", () => {
    const a = beforeIdleBody();
    const b = afterResumeBody();
    b.tools = [...(b.tools ?? []), grep];
    const result = comparePrefix(a, b, labels);
    expect(result.difference).toEqual({
      block: "tools[2]",
      path: "tools[2]",
      beforeAbsent: true,
      afterAbsent: false,
      bytesBefore: 0,
      bytesAfter: bytes(grep),
      delta: -bytes(grep),
      diff: [
        "--- tools[2]\treq 6 (absent)",
        "+++ tools[2]\treq 8",
        "@@ -0,0 +1,7 @@",
        "+{",
        '+  "description": "Searches file contents.",',
        '+  "input_schema": {',
        '+    "type": "object"',
        "+  },",
        '+  "name": "Grep"',
        "+}",
      ].join("\n"),
    });
    expect(result.unitsCompared).toBe(3 + 2 + 8);
    // The unit A lacks carries no markers of A's.
    expect(result.markersBefore).toEqual([
      { path: "system[1]", value: '{"type":"ephemeral"}' },
      { path: "messages[7].content[0]", value: '{"type":"ephemeral"}' },
    ]);
  });

  it("reports a tool B drops as absent on B's side", () => {
    const a = beforeIdleBody();
    const b = afterResumeBody();
    b.tools = b.tools!.slice(0, 1);
    expect(comparePrefix(a, b, labels).difference).toMatchObject({ block: "tools[1]", path: "tools[1]", beforeAbsent: false, afterAbsent: true, bytesAfter: 0 });
  });

  it("compares a body that sends no tools with one that does, either way round", () => {
    // A request made with tools disabled, next to one that offers them.
    const withTools = afterResumeBody();
    const without = copy(withTools);
    delete without.tools;
    expect(comparePrefix(without, withTools, labels).difference).toMatchObject({ block: "tools[0]", beforeAbsent: true, afterAbsent: false });
    expect(comparePrefix(withTools, without, labels).difference).toMatchObject({ block: "tools[0]", beforeAbsent: false, afterAbsent: true });
  });

  it("names the field that changed inside a tool, whichever field sorts first", () => {
    // A renamed tool keeps its description: the name is the difference, not the first key.
    const a = beforeIdleBody();
    const b = copy(a);
    (b.tools![1] as { name: string }).name = "ReadFile";
    expect(comparePrefix(a, b, labels).difference).toMatchObject({ block: "tools[1]", path: "tools[1].name" });
  });

  it("names the same first difference whatever key order A was sent in", () => {
    // Two fields of one tool differ; the reported one must not depend on how A's client ordered its keys.
    const b = body({ tools: [{ name: "Bash2", description: "new" }], messages: [] });
    const nameFirst = body({ tools: [{ name: "Bash", description: "old" }], messages: [] });
    const descriptionFirst = body({ tools: [{ description: "old", name: "Bash" }], messages: [] });
    expect(comparePrefix(nameFirst, b, labels).difference?.path).toBe("tools[0].description");
    expect(comparePrefix(descriptionFirst, b, labels).difference?.path).toBe("tools[0].description");
  });
});

describe("comparePrefix: system", () => {
  const messages = [user("hi")];

  it("compares a string system prompt as one unit named system", () => {
    // Older releases and SDK callers send system as a plain string.
    const result = comparePrefix(body({ system: "You are Claude Code.", messages }), body({ system: "You are Claude.", messages }), labels);
    expect(result.unitsCompared).toBe(2);
    expect(result.difference).toMatchObject({ block: "system", path: "system", beforeAbsent: false, afterAbsent: false });
    expect(result.difference?.diff).toBe("--- system\treq 6\n+++ system\treq 8\n@@ -1,1 +1,1 @@\n-You are Claude Code.\n+You are Claude.");
  });

  it("compares a block-list system with a string one as one unit, not block by block", () => {
    const blocks = body({ system: [{ type: "text", text: "You are Claude Code." }], messages });
    const text = body({ system: "You are Claude Code.", messages });
    expect(comparePrefix(blocks, text, labels).difference).toMatchObject({ block: "system", path: "system", beforeAbsent: false, afterAbsent: false });
  });

  it("reports a system prompt only one side sends, as absent on the other", () => {
    const none = body({ messages });
    expect(comparePrefix(none, body({ system: [{ type: "text", text: "s" }], messages }), labels).difference).toMatchObject({
      block: "system",
      path: "system",
      beforeAbsent: true,
      afterAbsent: false,
    });
    expect(comparePrefix(body({ system: "s", messages }), none, labels).difference).toMatchObject({
      block: "system",
      path: "system",
      beforeAbsent: false,
      afterAbsent: true,
    });
  });

  it("counts no system unit when neither side sends one", () => {
    const result = comparePrefix(body({ messages }), body({ messages }), labels);
    expect(result.unitsCompared).toBe(1);
    expect(result.difference).toBeNull();
  });

  it("reports a system block B appends after A's", () => {
    const a = beforeIdleBody();
    const b = afterResumeBody();
    b.system = [...(b.system as Json[]), { type: "text", text: "Extra context." }];
    expect(comparePrefix(a, b, labels).difference).toMatchObject({ block: "system[2]", path: "system[2]", beforeAbsent: true });
  });
});

describe("comparePrefix: inside messages", () => {
  const msg = (content: unknown) => body({ messages: [{ role: "user", content }] });

  it("stops at a block that changed kind instead of naming one of its fields", () => {
    const text = msg([{ type: "text", text: "ls" }]);
    const toolUse = body({ messages: [{ role: "user", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: {} }] }] });
    expect(comparePrefix(text, toolUse, labels).difference?.path).toBe("messages[0].content[0]");
    // Same fields, other type: an image re-sent as a document.
    const source = { type: "base64", media_type: "application/pdf", data: "JVBERi0=" };
    expect(comparePrefix(msg([{ type: "image", source }]), msg([{ type: "document", source }]), labels).difference?.path).toBe("messages[0].content[0]");
    // Same type, a field fewer: the block is rendered differently as a whole.
    const failed = msg([{ type: "tool_result", tool_use_id: "toolu_1", content: "boom", is_error: true }]);
    const plain = msg([{ type: "tool_result", tool_use_id: "toolu_1", content: "boom" }]);
    expect(comparePrefix(failed, plain, labels).difference?.path).toBe("messages[0].content[0]");
  });

  it("stops at a content list that B re-sends as a plain string", () => {
    expect(comparePrefix(msg([{ type: "text", text: "hi" }]), msg("hi"), labels).difference?.path).toBe("messages[0].content");
  });

  it("names the block B inserts after an unchanged one", () => {
    const first = { type: "text", text: "hi" };
    const d = comparePrefix(msg([first]), msg([first, { type: "text", text: "there" }]), labels).difference;
    expect(d).toMatchObject({ block: "messages[0]", path: "messages[0].content[1]", beforeAbsent: true, afterAbsent: false, bytesBefore: 0 });
  });

  it("names a tool call's input that B re-sends as null", () => {
    const call = (input: unknown) => body({ messages: [user("go"), { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input }] }] });
    expect(comparePrefix(call({ command: "ls" }), call(null), labels).difference?.path).toBe("messages[1].content[0].input");
  });

  it("sizes the differing values without their cache_control markers", () => {
    // The marked tool_result that closes A gains is_error in B; both copies carry the marker.
    const a = beforeIdleBody();
    const b = copy(a);
    const last = (b.messages[7]!.content as { [key: string]: Json }[])[0]!;
    last["is_error"] = true;
    const d = comparePrefix(a, b, labels).difference;
    const { cache_control: _, ...bare } = last;
    const bareBefore = { type: "tool_result", tool_use_id: "toolu_mock_0005", content: "Command running in background with ID: bgmn9bfv1" };
    expect(d).toMatchObject({ path: "messages[7].content[0]", bytesBefore: bytes(bareBefore), bytesAfter: bytes(bare as Json) });
    expect(d?.delta).toBe(bytes(bareBefore) - bytes(bare as Json));
  });
});

describe("comparePrefix: across runs", () => {
  it("blanks each run's own directory when told the two requests come from different runs", () => {
    const dir = (run: string) => body({ system: [{ type: "text", text: `Working directory: /RUNS/${run}/iso/work` }], messages: [user("hi")] });
    const a = dir("20261130T160102Z-42");
    const b = dir("20261201T090000Z-7");
    const runPaths = [
      { prefix: "/RUNS/20261130T160102Z-42", placeholder: "<run>" },
      { prefix: "/RUNS/20261201T090000Z-7", placeholder: "<run>" },
    ];
    expect(comparePrefix(a, b, { ...labels, acrossRuns: { runPaths } }).difference).toBeNull();
    expect(comparePrefix(a, b, labels).difference?.path).toBe("system[0].text");
  });
});

describe("comparePrefix: the rolling message breakpoint", () => {
  it("reports A's message marker as removed when B marks none of its new messages", () => {
    const a = beforeIdleBody();
    const b = afterResumeBody();
    delete (b.messages[9]!.content as { cache_control?: Json }[])[0]!.cache_control;
    const result = comparePrefix(a, b, labels);
    expect(result.rolled).toEqual({ from: [], to: [] });
    expect(result.markerChanges).toEqual({ added: [], removed: [{ path: "messages[7].content[0]", value: '{"type":"ephemeral"}' }], changed: [] });
  });

  it("does not call a new message's marker a roll when A's message marker stays", () => {
    const a = beforeIdleBody();
    const b = afterResumeBody();
    (b.messages[7]!.content as { cache_control?: Json }[])[0]!.cache_control = { type: "ephemeral" };
    const result = comparePrefix(a, b, labels);
    expect(result.rolled).toEqual({ from: [], to: [] });
    expect(result.markerChanges).toEqual({ added: [], removed: [], changed: [] });
  });
});
