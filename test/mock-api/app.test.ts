import { describe, expect, it } from "vitest";
import { createMockApp } from "../../mock-api/app.ts";
import { MemoryRequestLog } from "./memory-request-log.ts";
import { mockScriptSchema, type MockScriptInput } from "../../mock-api/script.ts";

function setup(input: MockScriptInput = {}) {
  const log = new MemoryRequestLog();
  const app = createMockApp(mockScriptSchema.parse(input), log);
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  return { app, log, post };
}

const conversation = (first: string, assistantTurns: number) => {
  const messages: Array<{ role: string; content: unknown }> = [{ role: "user", content: first }];
  for (let i = 0; i < assistantTurns; i++) {
    messages.push({ role: "assistant", content: [{ type: "text", text: `a${i}` }] }, { role: "user", content: `u${i}` });
  }
  return { model: "claude-test", max_tokens: 10, messages };
};

describe("createMockApp without a socket", () => {
  it("answers each stream's step from the script and records the classification", async () => {
    const { log, post } = setup({
      streams: [{ stream: "main", firstUserContains: "MAIN" }],
      replies: {
        main: [{ content: [{ type: "text", text: "step zero" }] }, { content: [{ type: "tool_use", name: "Bash", input: { c: 1 } }] }],
      },
    });
    const first = await (await post("/v1/messages?beta=true", conversation("MAIN go", 0))).json();
    const second = await (await post("/v1/messages", conversation("MAIN go", 1))).json();
    const other = await (await post("/v1/messages", conversation("something else", 3))).json();
    expect(first.content).toEqual([{ type: "text", text: "step zero" }]);
    expect(second).toMatchObject({ stop_reason: "tool_use", content: [{ type: "tool_use", id: "toolu_mock_2_0", name: "Bash", input: { c: 1 } }] });
    expect(other.content).toEqual([{ type: "text", text: "ok" }]);
    expect(log.requests.map((r) => [r.seq, r.query, r.stream, r.step, r.messageCount, r.streaming, r.reply.kind, r.reply.summary])).toEqual([
      [1, "beta=true", "main", 0, 1, false, "json", 'text:"step zero"'],
      [2, "", "main", 1, 3, false, "json", "tool_use:Bash"],
      [3, "", "other", 3, 7, false, "json", 'text:"ok"'],
    ]);
    expect(log.requests.map((r) => log.responseEnd(r.seq)?.outcome)).toEqual(["complete", "complete", "complete"]);
  });

  it("streams SSE when the request asks for it", async () => {
    const { post, log } = setup();
    const response = await post("/v1/messages", { ...conversation("hi", 0), stream: true });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const text = await response.text();
    expect(text.startsWith('event: message_start\ndata: {"type":"message_start"')).toBe(true);
    expect(text.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
    expect(log.requests[0]).toMatchObject({ streaming: true, reply: { kind: "sse", stopReason: "end_turn" } });
  });

  it("logs a malformed body and answers 400 invalid_request_error", async () => {
    const { post, log } = setup();
    const response = await post("/v1/messages", "{not json");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(log.requests[0]).toMatchObject({ stream: null, step: null, reply: { status: 400, kind: "error" } });
    expect(log.body(1).toString()).toBe("{not json");
  });

  it("answers 400 to JSON that is not a Messages request", async () => {
    const { post } = setup();
    const response = await post("/v1/messages", { model: "m" });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toContain("messages");
  });

  it("answers unknown routes with an Anthropic-shaped 404 and logs them", async () => {
    const { app, log } = setup();
    const response = await app.request("/v1/complete?x=1", { method: "POST", body: "abc" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      type: "error",
      error: { type: "not_found_error", message: "mock: no route for POST /v1/complete" },
      request_id: "req_mock_000001",
    });
    expect(log.requests[0]).toMatchObject({ method: "POST", path: "/v1/complete", query: "x=1", reply: { kind: "not_found" } });
  });

  it("answers probes with 200, HEAD without a body, and logs them", async () => {
    const { app, log } = setup();
    const head = await app.request("/api/hello", { method: "HEAD" });
    const get = await app.request("/", { method: "GET" });
    expect([head.status, await head.text(), get.status, await get.json()]).toEqual([200, "", 200, {}]);
    expect(log.requests.map((r) => [r.method, r.path, r.reply.kind])).toEqual([
      ["HEAD", "/api/hello", "probe"],
      ["GET", "/", "probe"],
    ]);
    expect(log.responseEnd(1)?.outcome).toBe("complete");
  });

  it("counts tokens roughly from the body size", async () => {
    const { post } = setup();
    const response = await post("/v1/messages/count_tokens?beta=true", { model: "m", messages: [{ role: "user", content: "x".repeat(400) }] });
    const { input_tokens } = await response.json();
    expect(input_tokens).toBeGreaterThan(100);
    expect(input_tokens).toBeLessThan(200);
  });

  it("lower-cases header names and redacts credentials", async () => {
    const { post, log } = setup();
    await post("/v1/messages", conversation("x", 0), {
      "X-Api-Key": "sk-secret",
      Authorization: "Bearer secret",
      "Proxy-Authorization": "Basic secret",
      Cookie: "session=secret",
      "X-Claude-Code-Session-Id": "abc",
    });
    const headers = log.requests[0]!.headers;
    expect(headers).toMatchObject({
      "x-api-key": "[redacted]",
      authorization: "[redacted]",
      "proxy-authorization": "[redacted]",
      cookie: "[redacted]",
      "x-claude-code-session-id": "abc",
    });
    expect(JSON.stringify(log.lines)).not.toContain("secret");
  });

  it("writes the request entry before the response can be read", async () => {
    const { post, log } = setup();
    const seen: string[] = [];
    log.onEntry((line) => seen.push(line.kind));
    const response = await post("/v1/messages", { ...conversation("x", 0), stream: true });
    expect(seen).toEqual(["request"]);
    await response.text();
    expect(seen).toEqual(["request", "response-end"]);
  });

  it("records an aborted outcome when the client stops reading", async () => {
    const { post, log } = setup({ fallback: { content: [{ type: "text", text: "x" }], delayMs: 10_000 } });
    const response = await post("/v1/messages", { ...conversation("x", 0), stream: true });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(log.responseEnd(1)?.outcome).toBe("aborted");
  });

  it("errors the body on a scripted drop and records it as dropped", async () => {
    const { post, log } = setup({ fallback: { content: [{ type: "text", text: "x" }], fault: { kind: "drop", afterEvents: 2 } } });
    const response = await post("/v1/messages", { ...conversation("x", 0), stream: true });
    await expect(response.text()).rejects.toThrow(/scripted connection drop/);
    expect(log.requests[0]!.reply).toMatchObject({ fault: "drop after 2 events", stopReason: null });
    expect(log.responseEnd(1)?.outcome).toBe("dropped");
  });

  it("answers a scripted HTTP error with the default type for its status", async () => {
    const { post, log } = setup({ fallback: { fault: { kind: "http-error", status: 529 } } });
    const response = await post("/v1/messages", { ...conversation("x", 0), stream: true });
    expect(response.status).toBe(529);
    expect(await response.json()).toEqual({ type: "error", error: { type: "overloaded_error", message: "Overloaded" }, request_id: "req_mock_000001" });
    expect(response.headers.get("retry-after")).toBeNull();
    expect(log.requests[0]!.reply).toMatchObject({ status: 529, kind: "error", fault: "http-error 529" });
  });

  it("answers a mid-stream error on a non-streaming request as an HTTP error of that type", async () => {
    const { post } = setup({ fallback: { content: [{ type: "text", text: "x" }], fault: { kind: "mid-stream-error" } } });
    const response = await post("/v1/messages", conversation("x", 0));
    expect(response.status).toBe(529);
    expect((await response.json()).error.type).toBe("overloaded_error");
  });
});
