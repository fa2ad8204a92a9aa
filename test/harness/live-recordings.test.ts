// LiveRecordings: waits wake when the mock's request log or the hook log grows, time out, and honour an abort.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { LiveRecordings } from "../../harness/live-recordings.ts";
import { runLayout } from "../../harness/run-layout.ts";
import { FileRequestLog } from "../../mock-api/request-log.ts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-live-"));
const open: LiveRecordings[] = [];
let n = 0;

function live() {
  const run = runLayout(path.join(root, `run-${(n += 1)}`));
  const recordings = new LiveRecordings(run.root, run.mockLog);
  open.push(recordings);
  return { run, recordings };
}

function recordRequest(log: FileRequestLog, body: string) {
  log.recordRequest(
    {
      seq: log.nextSeq(),
      receivedAt: Date.now(),
      method: "POST",
      path: "/v1/messages",
      query: "beta=true",
      headers: {},
      stream: "main",
      step: 0,
      messageCount: 1,
      streaming: true,
      reply: { status: 200, kind: "sse", summary: "text", fault: null, stopReason: "end_turn" },
      client: { remoteAddress: "127.0.0.1", remotePort: 1 },
    },
    Buffer.from(body),
  );
}

afterEach(() => {
  for (const recordings of open.splice(0)) recordings.close();
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe("LiveRecordings.waitUntil", () => {
  it("wakes when the mock records a request, with the body readable", async () => {
    const { run, recordings } = live();
    const waiting = recordings.waitUntil((rec) => rec.requests.length === 1, 5000, new AbortController().signal);
    const log = new FileRequestLog(run.mockLog);
    const started = Date.now();
    setTimeout(() => recordRequest(log, '{"messages":[]}'), 50);
    expect(await waiting).toBe("ok");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(recordings.body(1).toString()).toBe('{"messages":[]}');
  });

  it("wakes when a hook call is indexed", async () => {
    const { run, recordings } = live();
    fs.mkdirSync(run.hooksDir, { recursive: true });
    const waiting = recordings.waitUntil((rec) => rec.hooks.some((h) => h.event === "Stop"), 5000, new AbortController().signal);
    fs.writeFileSync(path.join(run.hooksDir, "1-1-Stop.json"), '{"hook_event_name":"Stop"}');
    fs.appendFileSync(run.hooksLog, `${JSON.stringify({ t: Date.now(), event: "Stop", durationMs: 1, payloadFile: "hooks/1-1-Stop.json" })}\n`);
    expect(await waiting).toBe("ok");
    expect(recordings.hooks[0]?.payload).toEqual({ hook_event_name: "Stop" });
  });

  it("times out when nothing happens", async () => {
    const { recordings } = live();
    expect(await recordings.waitUntil(() => false, 200, new AbortController().signal)).toBe("timeout");
  });

  it("ends at once on an abort, whether it comes during the wait or came before it", async () => {
    const { recordings } = live();
    const during = new AbortController();
    const waiting = recordings.waitUntil(() => false, 10_000, during.signal);
    setTimeout(() => during.abort(), 50);
    expect(await waiting).toBe("aborted");
    const started = Date.now();
    expect(await recordings.waitUntil(() => false, 10_000, AbortSignal.abort())).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(1000);
    // A predicate that already holds still wins: what was recorded is not lost to the abort.
    expect(await recordings.waitUntil(() => true, 10_000, AbortSignal.abort())).toBe("ok");
  });
});

describe("a wait condition that throws", () => {
  it("rejects the wait instead of escaping from a watcher callback", async () => {
    const { run, recordings } = live();
    const log = new FileRequestLog(run.mockLog);
    const waiting = recordings.waitUntil(
      (rec) => {
        if (rec.requests.length > 0) throw new Error("scenario bug");
        return false;
      },
      5000,
      new AbortController().signal,
    );
    recordRequest(log, "{}");
    await expect(waiting).rejects.toThrow("scenario bug");
  });
});
