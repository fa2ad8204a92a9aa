import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FileRequestLog } from "../../mock-api/request-log.ts";
import { startTestMock } from "./mock-fixture.ts";

// A valid Messages request, several MB, written by hand so its bytes differ from anything JSON.stringify would give.
function unusualBody(): Buffer {
  const filler = "ÿ😀𝄞\\u0000\\n\\\\ \\ud83d\\ude00 \u2028 ".repeat(120_000);
  const text = `{ "stream" : false ,\n\t"messages":[ {"content" : "${filler}", "role":"user"} ],\r\n "max_tokens":5,"model":"m" , "z":{"b":1,"a":[ ]}  }  `;
  return Buffer.from(text, "utf8");
}

describe("the file request log", () => {
  it("stores a multi-MB body with unusual bytes exactly as received", async () => {
    const { mock, readLog } = await startTestMock();
    const body = unusualBody();
    expect(body.byteLength).toBeGreaterThan(4_000_000);
    const response = await fetch(`${mock.url}/v1/messages`, {
      method: "POST",
      body: new Uint8Array(body),
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const log = readLog();
    expect(log.body(1).equals(body)).toBe(true);
    expect(log.requests[0]).toMatchObject({
      bodyFile: "requests/000001.body",
      bodyBytes: body.byteLength,
      bodySha256: createHash("sha256").update(body).digest("hex"),
      reply: { kind: "json" },
    });
  });

  it("stores bytes that are not UTF-8 as they came", async () => {
    const { mock, readLog } = await startTestMock();
    const body = Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0xc3, 0x28]);
    const response = await fetch(`${mock.url}/v1/messages`, { method: "POST", body: new Uint8Array(body) });
    expect(response.status).toBe(400);
    expect(readLog().body(1).equals(body)).toBe(true);
  });

  it("gives 200 concurrent requests 200 distinct, complete entries, each with its own body", async () => {
    const { mock, readLog } = await startTestMock();
    const bodies = Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({ model: "m", max_tokens: 5, stream: i % 2 === 0, messages: [{ role: "user", content: `request-${i}` }] }),
    );
    await Promise.all(
      bodies.map(async (body) => {
        const response = await fetch(`${mock.url}/v1/messages`, { method: "POST", body });
        await response.text();
      }),
    );
    await mock.close();
    const log = readLog();
    expect(log.requests.map((r) => r.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(new Set(log.requests.map((r) => r.bodyFile)).size).toBe(200);
    expect(new Set(log.requests.map((r) => log.body(r.seq).toString())).size).toBe(200);
    expect(new Set(log.requests.map((r) => log.body(r.seq).toString()))).toEqual(new Set(bodies));
    expect([...log.responseEnds.values()].filter((end) => end.outcome === "complete")).toHaveLength(200);
  });

  it("tells listeners about each line as it is written", async () => {
    const { mock, client } = await startTestMock();
    const kinds: string[] = [];
    mock.log.onEntry((line) => kinds.push(`${line.kind}:${line.seq}`));
    await client.messages.create({ model: "m", max_tokens: 5, messages: [{ role: "user", content: "x" }] });
    expect(kinds).toEqual(["request:1", "response-end:1"]);
  });

  it("continues after the highest seq already in the directory", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-log-test-"));
    const first = new FileRequestLog(dir);
    const request = (seq: number) => ({
      seq,
      receivedAt: 0,
      method: "POST",
      path: "/",
      query: "",
      headers: {},
      stream: null,
      step: null,
      messageCount: null,
      streaming: null,
      reply: { status: 200, kind: "probe" as const, summary: "", fault: null, stopReason: null },
      client: { remoteAddress: null, remotePort: null },
    });
    first.recordRequest(request(first.nextSeq()), Buffer.from("one"));
    first.recordRequest(request(first.nextSeq()), Buffer.from("two"));
    const second = new FileRequestLog(dir);
    expect(second.nextSeq()).toBe(3);
    expect(fs.readFileSync(path.join(dir, "requests", "000002.body"), "utf8")).toBe("two");
  });
});
