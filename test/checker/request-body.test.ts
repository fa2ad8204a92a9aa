// Reading a logged body: a Messages request parses; anything else is a damaged run and says which request.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readMessagesBody } from "../../checker/request-body.ts";
import { loadRequestLog } from "../../harness/recordings.ts";
import { requestIndexOf } from "../../mock-api/log-entry.ts";

const rec = (text: string) => ({ body: () => Buffer.from(text, "utf8") });

describe("readMessagesBody", () => {
  it("parses a Messages request and keeps fields it does not check", () => {
    const body = readMessagesBody(rec('{"system":"s","messages":[{"role":"user","content":"hi"}],"metadata":{"user_id":"u"}}'), 3);
    expect(body.messages).toEqual([{ role: "user", content: "hi" }]);
    expect(body["metadata"]).toEqual({ user_id: "u" });
  });

  it("names the request when the bytes are not JSON or not a Messages request", () => {
    expect(() => readMessagesBody(rec("{oops"), 4)).toThrow(/^request 4: the logged body is not JSON/);
    expect(() => readMessagesBody(rec('{"messages":[{"content":"no role"}]}'), 5)).toThrow(/^request 5: the logged body is not a Messages request/);
  });

  it("parses each logged body once: the log hands out one Buffer per body, read from disk once", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-body-"));
    const reply = { status: 200, kind: "sse", summary: "text", fault: null, stopReason: "end_turn" };
    const entry = { kind: "request", seq: 1, receivedAt: 0, method: "POST", path: "/v1/messages", query: "", headers: {}, bodyFile: "req-1.json", bodyBytes: 0, bodySha256: "", stream: "main", step: 0, messageCount: 1, streaming: true, reply, client: { remoteAddress: null, remotePort: null } };
    fs.writeFileSync(requestIndexOf(dir), `${JSON.stringify(entry)}\n`);
    fs.writeFileSync(path.join(dir, "req-1.json"), '{"messages":[{"role":"user","content":"first"}]}');
    const bodies = new Map<string, Buffer>();
    const log = loadRequestLog(dir, dir, bodies);
    const bytes = log.body(1);
    expect(bytes.toString()).toContain("first");
    fs.writeFileSync(path.join(dir, "req-1.json"), '{"messages":[{"role":"user","content":"second"}]}');
    expect(log.body(1)).toBe(bytes);
    const parsed = readMessagesBody(log, 1);
    expect(readMessagesBody(log, 1)).toBe(parsed);
    expect(parsed.messages[0]!.content).toBe("first");
    // A fresh log reads the file again; only a log given the same map keeps what it read.
    expect(readMessagesBody(loadRequestLog(dir), 1).messages[0]!.content).toBe("second");
    expect(loadRequestLog(dir, dir, bodies).body(1)).toBe(bytes);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
