// Conformance on every request: recorded in the log, and answered with the API's 400 in strict mode.
// The conforming history is a request body recorded by the mock from claude 2.1.281 (a three-step tool loop).
import fs from "node:fs";
import path from "node:path";
import { BadRequestError } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { createMockApp } from "../../mock-api/app.ts";
import { logLineSchema } from "../../mock-api/log-entry.ts";
import { MemoryRequestLog } from "./memory-request-log.ts";
import { mockScriptSchema, type MockScriptInput } from "../../mock-api/script.ts";
import { startTestMock } from "./mock-fixture.ts";

const fixtures = path.join(import.meta.dirname, "..", "fixtures", "runs", "notification-changed-2.1.281", "mock");
const recordedBody = fs.readFileSync(path.join(fixtures, "requests", "000006.body"), "utf8");

function setup(input: MockScriptInput = {}) {
  const log = new MemoryRequestLog();
  const app = createMockApp(mockScriptSchema.parse(input), log);
  const post = (body: unknown) =>
    app.request("/v1/messages?beta=true", { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { log, post };
}

// The interrupted-call shape: a tool_use whose result never came, then a new prompt.
const orphaned = {
  model: "claude-test",
  max_tokens: 10,
  messages: [
    { role: "user", content: "run ls" },
    { role: "assistant", content: [{ type: "tool_use", id: "toolu_orphan", name: "Bash", input: { command: "ls" } }] },
    { role: "user", content: [{ type: "text", text: "are you there?" }] },
  ],
};
const ORPHAN_MESSAGE =
  "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_orphan. " +
  "Each `tool_use` block must have a corresponding `tool_result` block in the next message.";
const script = { fallback: { content: [{ type: "text" as const, text: "scripted" }] } };

describe("strict mode", () => {
  it("answers a request that breaks only a disputed rule as scripted, and still logs the violation", async () => {
    const { post, log } = setup({ ...script, strict: true });
    const response = await post({ model: "claude-test", max_tokens: 10, messages: [{ role: "assistant", content: "one" }, { role: "user", content: "summarise" }] });
    expect(response.status).toBe(200);
    expect(log.requests[0]!.conformance.map((v) => v.rule)).toEqual(["first-message-not-user"]);
  });

  it("answers an orphaned tool_use with the API's 400 invalid_request_error, and logs why", async () => {
    const { post, log } = setup({ ...script, strict: true });
    const response = await post(orphaned);
    expect(response.status).toBe(400);
    expect(response.headers.get("request-id")).toBe("req_mock_000001");
    expect(await response.json()).toEqual({
      type: "error",
      error: { type: "invalid_request_error", message: ORPHAN_MESSAGE },
      request_id: "req_mock_000001",
    });
    const entry = log.requests[0]!;
    expect(entry).toMatchObject({ stream: "other", step: 1, messageCount: 3, reply: { status: 400, kind: "error", fault: "strict: tool-use-without-result" } });
    expect(entry.conformance).toEqual([expect.objectContaining({ rule: "tool-use-without-result", messageIndex: 1, message: ORPHAN_MESSAGE })]);
  });

  it("answers a streaming request's violation the same way: the API rejects before any stream starts", async () => {
    const { post } = setup({ ...script, strict: true });
    const response = await post({ ...orphaned, stream: true });
    expect([response.status, response.headers.get("content-type")]).toEqual([400, "application/json"]);
  });

  it("answers a conforming request, here one recorded from claude 2.1.281, as scripted with 200", async () => {
    const { post, log } = setup({ ...script, strict: true });
    const response = await post(recordedBody);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"text":"scripted"');
    expect(log.requests[0]!.conformance).toEqual([]);
  });

  it("without strict, answers the orphaned tool_use as scripted and only records the finding", async () => {
    const { post, log } = setup(script);
    const response = await post(orphaned);
    expect(response.status).toBe(200);
    expect((await response.json()).content).toEqual([{ type: "text", text: "scripted" }]);
    expect(log.requests[0]!.conformance.map((v) => v.rule)).toEqual(["tool-use-without-result"]);
    expect(log.requests[0]!.reply.fault).toBeNull();
  });

  it("surfaces the strict 400 through the official SDK as a BadRequestError with the API's message and request id", async () => {
    const { client } = await startTestMock({ ...script, strict: true });
    const error = await client.messages.create(orphaned as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    const bad = error as BadRequestError;
    expect([bad.status, bad.type, bad.apiMessage, bad.requestID]).toEqual([400, "invalid_request_error", ORPHAN_MESSAGE, "req_mock_000001"]);
  });
});

describe("the conformance field of the request log", () => {
  it("reads index lines recorded before the field existed as conforming", () => {
    const recorded = fs.readFileSync(path.join(fixtures, "index.jsonl"), "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line));
    const requestLine = recorded.find((line) => line.kind === "request");
    expect(requestLine).not.toHaveProperty("conformance");
    expect(logLineSchema.parse(requestLine)).toMatchObject({ kind: "request", conformance: [] });
  });

  it("records no findings for requests that are not Messages requests", async () => {
    const log = new MemoryRequestLog();
    const app = createMockApp(mockScriptSchema.parse({ strict: true }), log);
    await app.request("/v1/messages/count_tokens", { method: "POST", body: JSON.stringify(orphaned) });
    expect(log.requests[0]!.conformance).toEqual([]);
  });
});

describe("signed thinking", () => {
  it("serves the mock's signature of the text, and in strict mode answers a block sent back changed with the API's 400", async () => {
    const { post } = setup({ strict: true, fallback: { content: [{ type: "thinking", thinking: "plan it", signed: true }, { type: "text", text: "ok" }] } });
    const served = (await (await post({ model: "claude-test", max_tokens: 10, messages: [{ role: "user", content: "go" }] })).json()) as { content: { type: string; signature?: string }[] };
    const block = served.content[0]!;
    expect(block.signature).toMatch(/^ccrepro-signed\./);
    const replay = (thought: string) => ({
      model: "claude-test",
      max_tokens: 10,
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: [{ ...block, thinking: thought }, { type: "text", text: "ok" }] },
        { role: "user", content: "next" },
      ],
    });
    expect((await post(replay("plan it"))).status).toBe(200);
    const refused = await post(replay("plan it, edited"));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { type: "invalid_request_error", message: "messages.1.content.0: Invalid `signature` in `thinking` block" } });
  });
});
