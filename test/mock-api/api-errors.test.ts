// The errors the mock serves are the API's own (https://docs.anthropic.com/en/api/errors, /en/api/rate-limits,
// /en/docs/build-with-claude/streaming): status, error type and message, request_id in the body and the request-id
// header, retry-after and the anthropic-ratelimit-* family on a 429, 413 above 32 MB, an SSE error after a 200.
import { describe, expect, it } from "vitest";
import { createMockApp } from "../../mock-api/app.ts";
import { MAX_REQUEST_BYTES } from "../../mock-api/anthropic-error.ts";
import { MemoryRequestLog } from "./memory-request-log.ts";
import { mockScriptSchema, type MockScriptInput } from "../../mock-api/script.ts";
import { conversation, drop, httpError, midStreamError, text, toolCall } from "../../kit/index.ts";

function setup(input: MockScriptInput) {
  const log = new MemoryRequestLog();
  const app = createMockApp(mockScriptSchema.parse(input), log);
  const post = (body: unknown) => app.request("/v1/messages", { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { log, post };
}

const request = (prompt: string, extra: Record<string, unknown> = {}) => ({ model: "claude-test", max_tokens: 10, messages: [{ role: "user", content: prompt }], tools: [{ name: "Bash", input_schema: { type: "object" } }], ...extra });
const events = (raw: string) => [...raw.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe("the mock's errors are the API's", () => {
  it.each([
    [400, "invalid_request_error"],
    [500, "api_error"],
    [529, "overloaded_error"],
  ])("%s is %s with the request id in body and header", async (status, type) => {
    const { post } = setup(conversation({ main: { marker: "M", replies: [httpError(status)] } }));
    const response = await post(request("M go"));
    expect(response.status).toBe(status);
    const body = await response.json();
    expect(body).toMatchObject({ type: "error", error: { type }, request_id: "req_mock_000001" });
    expect(body.error.message.length).toBeGreaterThan(0);
    expect(response.headers.get("request-id")).toBe("req_mock_000001");
    expect(response.headers.get("retry-after")).toBeNull();
  });

  it("gives a 429 retry-after and the rate-limit headers, resets in RFC 3339 at now + retry-after", async () => {
    const { post } = setup(conversation({ main: { marker: "M", replies: [httpError(429, { retryAfterSeconds: 61 })] } }));
    const before = Date.now();
    const response = await post(request("M go"));
    expect(response.status).toBe(429);
    expect((await response.json()).error.type).toBe("rate_limit_error");
    expect(response.headers.get("retry-after")).toBe("61");
    expect(response.headers.get("anthropic-ratelimit-requests-remaining")).toBe("0");
    const reset = response.headers.get("anthropic-ratelimit-requests-reset")!;
    expect(reset).toMatch(RFC3339);
    expect(Date.parse(reset) - before).toBeGreaterThan(59_000);
    expect(Date.parse(reset) - before).toBeLessThanOrEqual(61_000);
    for (const family of ["tokens", "input-tokens", "output-tokens"]) expect(response.headers.get(`anthropic-ratelimit-${family}-reset`)).toMatch(RFC3339);
  });

  it("fails once, or k times, then answers", async () => {
    const { post, log } = setup(conversation({ main: { marker: "M", replies: [httpError(529, { times: 2, then: text("ok") })] } }));
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await post(request("M go"))).status);
    expect(statuses).toEqual([529, 529, 200]);
    expect(log.requests.map((r) => r.reply.fault)).toEqual(["http-error 529", "http-error 529", null]);
  });

  it("fails only for the named model", async () => {
    const { post } = setup(conversation({ main: { marker: "M", replies: [httpError(529, { model: "opus", then: text("ok") })] } }));
    expect((await post(request("M go", { model: "claude-opus-4" }))).status).toBe(529);
    expect((await post(request("M go", { model: "claude-sonnet-4" }))).status).toBe(200);
  });

  it("fails only requests that carry a block of the named type, in a tool result's content too", async () => {
    const { post, log } = setup(conversation({ main: { marker: "M", replies: [httpError(400, { carrying: "image", message: "Could not process image", then: text("ok") })] } }));
    const image = { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } };
    const withImage = (content: unknown[]) => request("M go", { messages: [{ role: "user", content: [{ type: "text", text: "M go" }, ...content] }] });
    const refused = await post(withImage([{ type: "tool_result", tool_use_id: "toolu_1", content: [image] }]));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { type: "invalid_request_error", message: "Could not process image" } });
    expect((await post(withImage([image]))).status).toBe(400);
    expect((await post(withImage([{ type: "tool_result", tool_use_id: "toolu_1", content: "no image here" }]))).status).toBe(200);
    expect((await post(request("M go"))).status).toBe(200);
    expect(log.requests.map((r) => r.reply.fault)).toEqual(["http-error 400", "http-error 400", null, null]);
  });

  it("adds scripted headers", async () => {
    const { post } = setup(conversation({ main: { marker: "M", replies: [httpError(500, { headers: { "x-should-retry": "false" } })] } }));
    expect((await post(request("M go"))).headers.get("x-should-retry")).toBe("false");
  });

  it("answers a body above 32 MB with 413 request_too_large", async () => {
    const { post } = setup(conversation({ main: { marker: "M", replies: [text("ok")] } }));
    const response = await post(request(`M ${"x".repeat(MAX_REQUEST_BYTES)}`));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { type: "request_too_large" }, request_id: "req_mock_000001" });
  });

  it("streams an error event after a 200 and partial output, with nothing after it", async () => {
    const reply = { content: [{ type: "text" as const, text: "partial" }, { type: "tool_use" as const, name: "Bash", input: { command: "true" } }] };
    const { post } = setup(conversation({ main: { marker: "M", replies: [midStreamError(reply, { afterBlocks: 2 })] } }));
    const response = await post(request("M go", { stream: true }));
    expect(response.status).toBe(200);
    const raw = await response.text();
    expect(events(raw).slice(-2)).toEqual(["content_block_stop", "error"]);
    expect(raw).toContain('data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}');
  });

  it("cuts the stream right after a tool_use block: no message_delta, no message_stop", async () => {
    const { post, log } = setup(conversation({ main: { marker: "M", replies: [drop(toolCall("Bash", { command: "true" }), { afterBlocks: 1 })] } }));
    const response = await post(request("M go", { stream: true }));
    const reader = response.body!.getReader();
    let raw = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        raw += new TextDecoder().decode(value);
      }
    } catch {
      // The scripted drop errors the body.
    }
    expect(events(raw)).toEqual(["message_start", "ping", "content_block_start", "content_block_delta", "content_block_stop"]);
    expect(log.requests[0]!.reply.fault).toBe("drop after 1 blocks");
  });
});
