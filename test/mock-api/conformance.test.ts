// Each conformance rule, positive and negative. Conforming cases include request bodies recorded by the mock from
// real claude releases (test/fixtures/**/mock/requests/*.body: 2.1.150 to 2.1.332, tool loops with thinking enabled
// and cache breakpoints); violations are built by hand from those shapes.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkConformance, violationSchema } from "../../mock-api/conformance.ts";
import { signThinking } from "../../mock-api/thinking-signature.ts";

const fixtures = path.join(import.meta.dirname, "..", "fixtures");
const recordedBodies = fs
  .readdirSync(fixtures, { recursive: true, encoding: "utf8" })
  .filter((file) => /(^|\/)mock\/requests\/\d+\.body$/.test(file))
  .sort();
const readBody = (file: string) => JSON.parse(fs.readFileSync(path.join(fixtures, file), "utf8")) as Record<string, unknown>;
// A recorded tool loop with thinking enabled: messages 1, 3, 5 are assistant tool_use, 2, 4, 6 their results.
const TOOL_LOOP = "runs/notification-changed-2.1.281/mock/requests/000006.body";

type Msg = { role: string; content: unknown };
const request = (messages: Msg[], extra: Record<string, unknown> = {}) => ({ model: "m", max_tokens: 10, messages, ...extra });
const user = (content: unknown): Msg => ({ role: "user", content });
const assistant = (content: unknown): Msg => ({ role: "assistant", content });
const text = (t: string, extra: Record<string, unknown> = {}) => ({ type: "text", text: t, ...extra });
const toolUse = (id: string) => ({ type: "tool_use", id, name: "Bash", input: { command: "ls" } });
const toolResult = (id: string, extra: Record<string, unknown> = {}) => ({ type: "tool_result", tool_use_id: id, content: "done", ...extra });
const thinking = (signature?: string) => ({ type: "thinking", thinking: "hmm", ...(signature === undefined ? {} : { signature }) });
const rules = (body: unknown) => checkConformance(body).map((v) => v.rule);

describe("checkConformance on recorded requests", () => {
  it("finds the recorded bodies", () => {
    expect(recordedBodies.length).toBeGreaterThanOrEqual(10);
    expect(recordedBodies).toContain(TOOL_LOOP);
  });

  // Bodies pruned to a few keys (`--body-keys model`) are no whole requests; the one fixture recorded for its rejected
  // request (1.0.24 resumes a tool_use with no tool_result, anthropics/claude-code#5317's 400) breaks exactly that rule.
  const whole = recordedBodies.filter((file) => "messages" in readBody(file));
  const REJECTED: Record<string, string[]> = { "runs/interrupt-rejected-1.0.24/mock/requests/000006.body": ["tool-use-without-result"] };

  it.each(whole)("finds in %s the violations it was recorded for, and no other", (file) => {
    expect(checkConformance(readBody(file)).map((v) => v.rule)).toEqual(REJECTED[file] ?? []);
  });

  it("keeps the fixture recorded for its rejected request among the whole bodies", () => {
    expect(whole).toEqual(expect.arrayContaining(Object.keys(REJECTED)));
  });

  it("flags a recorded tool loop once its last tool_result is cut away (the interrupted-call shape)", () => {
    const body = readBody(TOOL_LOOP);
    const messages = body.messages as Msg[];
    const toolUseId = (messages[5]!.content as Array<{ id: string }>)[0]!.id;
    const cut = { ...body, messages: [...messages.slice(0, 6), user([text("go on")])] };
    const [v, ...rest] = checkConformance(cut);
    expect(rest).toEqual([]);
    expect(v).toEqual({
      rule: "tool-use-without-result",
      status: 400,
      errorType: "invalid_request_error",
      message:
        `messages.5: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${toolUseId}. ` +
        "Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
      messageVerified: true,
      messageIndex: 5,
      path: "$.messages[5]",
    });
    expect(violationSchema.parse(v)).toEqual(v);
  });
});

describe("tool-use-without-result", () => {
  it("names every unanswered id of the assistant message, comma-separated", () => {
    const body = request([user("go"), assistant([toolUse("toolu_a"), toolUse("toolu_b"), toolUse("toolu_c")]), user([toolResult("toolu_b")])]);
    const violations = checkConformance(body);
    expect(violations.map((v) => [v.rule, v.messageIndex])).toEqual([["tool-use-without-result", 1]]);
    expect(violations[0]!.message).toContain("immediately after: toolu_a, toolu_c. Each");
  });

  it("flags a tool_use followed by a plain user prompt", () => {
    expect(rules(request([user("go"), assistant([toolUse("toolu_a")]), user("next")]))).toEqual(["tool-use-without-result"]);
  });

  it("accepts answered calls, a result in a second consecutive user message, and a final assistant prefill", () => {
    expect(rules(request([user("go"), assistant([text("ok"), toolUse("toolu_a")]), user([toolResult("toolu_a"), text("more")])]))).toEqual([]);
    // Consecutive same-role messages are one turn to the API.
    expect(rules(request([user("go"), assistant([toolUse("toolu_a")]), user([toolResult("toolu_a")]), user("and then")]))).toEqual([]);
    expect(rules(request([user("go"), assistant([toolUse("toolu_a")]), assistant([toolUse("toolu_b")]), user([toolResult("toolu_a"), toolResult("toolu_b")])]))).toEqual([]);
    expect(rules(request([user("go"), assistant([toolUse("toolu_a")])]))).toEqual([]);
  });
});

describe("tool-result-without-use", () => {
  it("flags a result whose call is not in the previous assistant message, indexed by the block", () => {
    const body = request([user("go"), assistant([toolUse("toolu_a")]), user([toolResult("toolu_a"), toolResult("toolu_x")])]);
    expect(checkConformance(body)).toEqual([
      expect.objectContaining({
        rule: "tool-result-without-use",
        messageIndex: 2,
        path: "$.messages[2].content[1]",
        message:
          "messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_x. " +
          "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
      }),
    ]);
  });

  it("flags a result in the first message and one answering a call two turns back", () => {
    expect(rules(request([user([toolResult("toolu_a")])]))).toEqual(["tool-result-without-use"]);
    const twoBack = request([user("go"), assistant([toolUse("toolu_a")]), user([toolResult("toolu_a")]), assistant("done"), user([toolResult("toolu_a")])]);
    expect(checkConformance(twoBack).map((v) => [v.rule, v.messageIndex])).toEqual([["tool-result-without-use", 4]]);
  });
});

describe("thinking-dropped-in-tool-loop", () => {
  const loop = (first: unknown[]) => [
    user("go"),
    assistant([thinking("sig-1"), text("a"), toolUse("toolu_1")]),
    user([toolResult("toolu_1")]),
    assistant("first answer"),
    user("again"),
    assistant(first),
    user([toolResult("toolu_2")]),
  ];
  const enabled = { thinking: { type: "enabled", budget_tokens: 1024 } };

  it("flags the turn's first assistant message when its thinking block was dropped", () => {
    const [v, ...rest] = checkConformance(request(loop([text("b"), toolUse("toolu_2")]), enabled));
    expect(rest).toEqual([]);
    expect(v).toMatchObject({ rule: "thinking-dropped-in-tool-loop", messageIndex: 5, path: "$.messages[5].content[0].type" });
    expect(v!.message).toMatch(/^messages\.5\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `text`\. When `thinking` is enabled/);
  });

  it("judges the first assistant message of a multi-step loop", () => {
    const messages = [...loop([thinking("sig-2"), toolUse("toolu_2")]), assistant([toolUse("toolu_3")]), user([toolResult("toolu_3")])];
    expect(rules(request(messages, enabled))).toEqual([]);
    messages[5] = assistant([toolUse("toolu_2")]);
    expect(checkConformance(request(messages, enabled)).map((v) => [v.rule, v.messageIndex])).toEqual([["thinking-dropped-in-tool-loop", 5]]);
  });

  it("accepts kept or redacted thinking, thinking off, a finished turn, and a history that never had thinking", () => {
    expect(rules(request(loop([thinking("sig-2"), toolUse("toolu_2")]), enabled))).toEqual([]);
    expect(rules(request(loop([{ type: "redacted_thinking", data: "x" }, toolUse("toolu_2")]), enabled))).toEqual([]);
    expect(rules(request(loop([toolUse("toolu_2")])))).toEqual([]);
    expect(rules(request(loop([toolUse("toolu_2")]), { thinking: { type: "disabled" } }))).toEqual([]);
    expect(rules(request([...loop([toolUse("toolu_2")]), assistant("done"), user("thanks")], enabled))).toEqual([]);
    const neverThought = request([user("go"), assistant([toolUse("toolu_1")]), user([toolResult("toolu_1")])], enabled);
    expect(rules(neverThought)).toEqual([]);
  });
});

describe("thinking-signature-missing", () => {
  it("flags a thinking block sent back without its signature", () => {
    const body = request([user("go"), assistant([thinking(), text("a")]), user("next")]);
    expect(checkConformance(body)).toEqual([
      expect.objectContaining({ rule: "thinking-signature-missing", message: "messages.1.content.0.thinking.signature: Field required", path: "$.messages[1].content[0].signature" }),
    ]);
    expect(rules(request([user("go"), assistant([thinking("sig"), text("a")]), user("next")]))).toEqual([]);
  });
});

describe("thinking-signature-invalid", () => {
  const signed = (thought: string, signature = signThinking(thought)) => ({ type: "thinking", thinking: thought, signature });
  it("flags a mock-signed thinking block whose text or signature changed, and passes one sent back as served", () => {
    expect(rules(request([user("go"), assistant([signed("plan"), text("a")]), user("next")]))).toEqual([]);
    expect(checkConformance(request([user("go"), assistant([signed("plan ", signThinking("plan")), text("a")]), user("next")]))).toEqual([
      expect.objectContaining({ rule: "thinking-signature-invalid", message: "messages.1.content.0: Invalid `signature` in `thinking` block", path: "$.messages[1].content[0]" }),
    ]);
    expect(rules(request([user("go"), assistant([text("a"), signed("plan", signThinking("other"))]), user("next")]))).toEqual(["thinking-signature-invalid"]);
  });
  it("leaves a signature the mock did not make alone: a scripted fixed one cannot be told from a changed one", () => {
    expect(rules(request([user("go"), assistant([signed("plan", "mock-signature"), text("a")]), user("next")]))).toEqual([]);
  });
});

describe("cache-control-limit", () => {
  const cc = { cache_control: { type: "ephemeral" } };
  it("counts breakpoints in tools, system, messages and tool_result content together", () => {
    const body = request([user([text("a", cc), text("b", cc)]), assistant([toolUse("toolu_1")]), user([toolResult("toolu_1", { content: [text("r", cc)] })])], {
      system: [text("s", cc)],
      tools: [{ name: "Bash", input_schema: {}, ...cc }],
    });
    expect(checkConformance(body)).toEqual([
      expect.objectContaining({ rule: "cache-control-limit", message: "A maximum of 4 blocks with cache_control may be provided. Found 5.", messageIndex: null, path: "$" }),
    ]);
  });

  it("accepts exactly four, and ignores cache_control: null", () => {
    const body = request([user([text("a", cc), text("b", cc), text("c", { cache_control: null })])], { system: [text("s", cc)], tools: [{ name: "T", ...cc }] });
    expect(rules(body)).toEqual([]);
  });
});

describe("empty text blocks and empty messages", () => {
  it("flags an empty and a whitespace-only text block with the API's two texts", () => {
    const body = request([user([text("")]), assistant([text("  \n")]), user("x")]);
    expect(checkConformance(body).map((v) => [v.rule, v.message, v.path])).toEqual([
      ["empty-text-block", "messages: text content blocks must be non-empty", "$.messages[0].content[0]"],
      ["whitespace-text-block", "messages: text content blocks must contain non-whitespace text", "$.messages[1].content[0]"],
    ]);
  });

  it("flags empty content except in the final assistant message", () => {
    expect(checkConformance(request([user("go"), assistant([]), user("x")])).map((v) => v.message)).toEqual([
      "messages.1: all messages must have non-empty content except for the optional final assistant message",
    ]);
    expect(rules(request([user("")]))).toEqual(["empty-message-content"]);
    expect(rules(request([user("go"), assistant("")]))).toEqual([]);
    expect(rules(request([user("go"), assistant([text("fine")])]))).toEqual([]);
  });
});

describe("first-message-not-user", () => {
  it("flags a conversation that starts with the assistant", () => {
    expect(checkConformance(request([assistant("hi"), user("go")]))).toEqual([
      expect.objectContaining({ rule: "first-message-not-user", message: 'messages: first message must use the "user" role', messageIndex: 0, path: "$.messages[0]" }),
    ]);
    expect(rules(request([user("go"), assistant("hi")]))).toEqual([]);
  });
});

describe("duplicate-tool-names", () => {
  it("flags a tool name offered twice, pointing at the second", () => {
    const body = request([user("go")], { tools: [{ name: "Bash" }, { name: "Read" }, { name: "Bash" }] });
    expect(checkConformance(body)).toEqual([expect.objectContaining({ rule: "duplicate-tool-names", message: "tools: Tool names must be unique.", path: "$.tools[2]" })]);
    expect(rules(request([user("go")], { tools: [{ name: "Bash" }, { name: "Read" }, { type: "web_search_20250305" }] }))).toEqual([]);
  });
});

describe("request-shape", () => {
  it("reports a body without a messages list as the mock's own (unverified) wording", () => {
    expect(checkConformance({ model: "m" })).toEqual([expect.objectContaining({ rule: "request-shape", messageVerified: false, path: "$.messages" })]);
    expect(checkConformance(request([{ role: "user", content: 5 }]))[0]).toMatchObject({ rule: "request-shape", path: "$.messages[0].content" });
  });

  it("tolerates fields it does not read", () => {
    expect(rules({ ...request([user("go")]), metadata: { user_id: "u" }, context_management: {}, stream: true })).toEqual([]);
  });
});
