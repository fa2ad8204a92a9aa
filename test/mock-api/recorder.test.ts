import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startRecordingProxy, SseSplitter } from "../../mock-api/recorder.ts";
import { claudeVariables, findSecrets, keyKinds, readRecording, writeRecording, Redactor, type Recording } from "../../mock-api/recording.ts";
import { mockScriptSchema } from "../../mock-api/script.ts";
import { startMockServer } from "../../mock-api/server.ts";

const KEY = "sk-ant-api03-SENTINEL-key-0123456789";
const TOKEN = "sk-ant-oat01-SENTINEL-token-9876543210";
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-rec-"));

describe("the recording proxy", () => {
  it("forwards a streamed reply unchanged, records it as events, and keeps no secret", async () => {
    const mock = await startMockServer({ script: mockScriptSchema.parse({ fallback: { content: [{ type: "text", text: "hello" }] } }), logDir: tmp() });
    closers.push(() => mock.close());
    const proxy = await startRecordingProxy({ upstream: mock.url, env: { ANTHROPIC_API_KEY: KEY, CLAUDE_CODE_OAUTH_TOKEN: TOKEN } });
    closers.push(() => proxy.close());
    const body = JSON.stringify({ model: "m", max_tokens: 5, stream: true, messages: [{ role: "user", content: `hi ${TOKEN}` }] });
    const viaProxy = await fetch(`${proxy.url}/v1/messages?beta=true`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": KEY, authorization: `Bearer ${TOKEN}` }, body });
    const text = await viaProxy.text();
    expect(viaProxy.status).toBe(200);
    expect(text).toContain('"text":"hello"');
    await proxy.close();
    const recording = proxy.recording();
    const [exchange] = recording.exchanges;
    expect(exchange!.request.headers["x-api-key"]).toBe("[redacted]");
    expect(exchange!.request.body).toEqual({ text: body.replace(TOKEN, "[redacted:CLAUDE_CODE_OAUTH_TOKEN]") });
    // Re-framed from the recorded events, the reply is the bytes the client got.
    expect(exchange!.response!.sse!.map((e) => `event: ${e.event}\ndata: ${e.data}\n\n`).join("")).toBe(text);
    const file = path.join(tmp(), "recording.json");
    writeRecording(file, recording, proxy.redactor);
    const written = fs.readFileSync(file, "utf8");
    expect(written).not.toContain("SENTINEL");
    expect(readRecording(file)).toEqual(recording);
  });

  it("answers a request it cannot forward with a 502 API error the command sees, and says why", async () => {
    // A port nothing listens on: one just freed.
    const gone = await startRecordingProxy({ upstream: "http://127.0.0.1:1" });
    await gone.close();
    const upstream = `http://127.0.0.1:${gone.port}`;
    const proxy = await startRecordingProxy({ upstream });
    closers.push(() => proxy.close());
    const response = await fetch(`${proxy.url}/v1/messages`, { method: "POST", body: "{}" });
    expect(response.status).toBe(502);
    expect(await response.text()).toContain("ECONNREFUSED");
    expect(proxy.unreachable()).toEqual([`the upstream ${upstream} was not reachable: ECONNREFUSED`]);
  });

  it("refuses a port in use", async () => {
    const first = await startRecordingProxy({ upstream: "http://127.0.0.1:1" });
    closers.push(() => first.close());
    await expect(startRecordingProxy({ upstream: "http://127.0.0.1:1", port: first.port })).rejects.toThrow(`port ${first.port} on 127.0.0.1 is already in use`);
  });

  it("splits SSE frames that arrive in pieces", () => {
    const splitter = new SseSplitter();
    expect(splitter.push(new TextEncoder().encode("event: a\ndata: {\"x\""), 1)).toEqual([]);
    expect(splitter.push(new TextEncoder().encode(":1}\n\nevent: b\ndata: 2\n\n"), 2)).toEqual([
      { atMs: 2, event: "a", data: '{"x":1}' },
      { atMs: 2, event: "b", data: "2" },
    ]);
  });
});

describe("a recorded process's variables", () => {
  it("keep claude's own by name, a credential's value never, and nothing else of the environment", () => {
    const environ = { PATH: "/usr/bin", HOME: "/home/alice", USER: "alice", SHELL: "/bin/zsh", DISABLE_TELEMETRY: "1", ANTHROPIC_BASE_URL: "http://127.0.0.1:9", ANTHROPIC_API_KEY: KEY, CLAUDE_CODE_OAUTH_TOKEN: TOKEN, CLAUDE_CODE_MAX_OUTPUT_TOKENS: "9000", OTHER_TOOL_KEY: "x-123456789" };
    expect(claudeVariables(environ, new Redactor(environ))).toEqual({ ANTHROPIC_API_KEY: "[redacted]", CLAUDE_CODE_MAX_OUTPUT_TOKENS: "9000", CLAUDE_CODE_OAUTH_TOKEN: "[redacted]", DISABLE_TELEMETRY: "1", SHELL: "/bin/zsh" });
  });

  it("keep each sk-ant- credential's kind, the three letters claude reads, and nothing more of it", () => {
    const environ = { ANTHROPIC_API_KEY: KEY, CLAUDE_CODE_OAUTH_TOKEN: TOKEN, ANTHROPIC_AUTH_TOKEN: "not-an-anthropic-shape-123", OTHER_TOOL_KEY: "sk-ant-api03-elsewhere-0123456789", DISABLE_TELEMETRY: "1" };
    const kinds = keyKinds(environ);
    expect(kinds).toEqual({ ANTHROPIC_API_KEY: KEY.slice(7, 10), CLAUDE_CODE_OAUTH_TOKEN: TOKEN.slice(7, 10) });
    expect(findSecrets(kinds, new Redactor(environ).values())).toEqual([]);
  });
});

describe("a recording on disk", () => {
  const minimal: Recording = { format: "ccrepro-recording", version: 1, recordedAt: "2026-12-01T22:00:00.000Z", upstream: "u", command: null, processes: [], exchanges: [] };

  it("fails closed on a key-shaped string the redaction did not know, naming the file and the field, and deletes the file", () => {
    const file = path.join(tmp(), "recording.json");
    expect(() => writeRecording(file, { ...minimal, upstream: "sk-ant-unknown-0123456789" }, new Redactor())).toThrow(`${file}: $.upstream holds an Anthropic key or token`);
    expect(fs.existsSync(file)).toBe(false);
  });

  it("refuses a corrupted file, an unknown format version and a wrong shape with the file, the place and what to do", () => {
    const dir = tmp();
    const write = (name: string, text: string) => {
      fs.writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    expect(() => readRecording(write("a.json", "{not json"))).toThrow(/a\.json: the recording is not JSON .*: it is corrupted; record it again/);
    expect(() => readRecording(write("b.json", JSON.stringify({ ...minimal, version: 9 })))).toThrow("b.json: recording format version 9 is not one this ccrepro reads (it reads 1)");
    expect(() => readRecording(write("c.json", JSON.stringify({ ...minimal, exchanges: [{ seq: 0 }] })))).toThrow(/c\.json: the recording is corrupted at exchanges\.0\.seq/);
  });
});
