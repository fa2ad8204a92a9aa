// The request inspector's data: changes against the stream's previous request and cache breakpoints, on a recorded run.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { bodyChanges, cacheBreakpoints, inspectorData, requestInspector } from "../../report/request-inspector.ts";

// A RED subagent-resume-notification-header run on 2.1.281, recorded with ccrepro; bodies kept for requests 6 and 8
// only (see test/fixtures/runs/README.md).
const RED_RUN = path.resolve(import.meta.dirname, "../fixtures/runs/notification-changed-2.1.281");

describe("bodyChanges", () => {
  it("names the smallest parts that differ: edited values, added items and keys, and parts that lost a key", () => {
    const before = { system: [{ text: "a", cache_control: { type: "ephemeral" } }], messages: [{ role: "user", content: "hi" }], max_tokens: 10 };
    const after = { system: [{ text: "a" }], messages: [{ role: "user", content: "hello" }, { role: "assistant", content: "x" }], max_tokens: 10, stream: true };
    expect(bodyChanges(before, after)).toEqual({ changed: ["/system/0", "/messages/0/content"], added: ["/messages/1", "/stream"] });
    expect(bodyChanges(after, after)).toEqual({ changed: [], added: [] });
    // A value that became an object is a change of the value, not a descent.
    expect(bodyChanges({ a: "x" }, { a: { b: 1 } })).toEqual({ changed: ["/a"], added: [] });
    expect(bodyChanges({ "a/b": 1 }, { "a/b": 2 })).toEqual({ changed: ["/a~1b"], added: [] });
  });

  it("cacheBreakpoints lists every object carrying cache_control, in body order", () => {
    const body = { system: [{ text: "s" }, { text: "t", cache_control: { type: "ephemeral" } }], messages: [{ content: [{ text: "u", cache_control: { type: "ephemeral", ttl: "1h" } }] }] };
    expect(cacheBreakpoints(body)).toEqual([
      { path: "/system/1", cacheControl: { type: "ephemeral" } },
      { path: "/messages/0/content/0", cacheControl: { type: "ephemeral", ttl: "1h" } },
    ]);
  });
});

describe("the inspector on a recorded run", () => {
  const rec = loadRecordings(RED_RUN);
  const data = new Map(inspectorData(rec).map((d) => [d.seq, d]));

  it("compares each request with the previous one of its own stream, and marks the resumed notification that changed", () => {
    // Stream sub: 2, 4, 5, 6, 8; main: 1, 3, 7, 9.
    expect([...data.values()].map((d) => [d.seq, d.previous])).toEqual([[1, null], [2, null], [3, 1], [4, 2], [5, 4], [6, 5], [7, 3], [8, 6], [9, 7]]);
    const eight = data.get(8)!;
    // The subagent's notification (message 4's tool result) changed across the resume: the RED finding's diff.
    expect(eight.changes).toEqual({ changed: ["/messages/4/content/0/content", "/messages/6/content/0"], added: ["/messages/7", "/messages/8"] });
    // The client moved its last breakpoint to the newest message; the system prompt keeps its two.
    expect(eight.breakpoints).toEqual(["/messages/8/content/0", "/system/1", "/system/2"]);
    // Request 6's predecessor was pruned: nothing to compare with, said so rather than everything marked new.
    expect(data.get(6)!.changes).toBeNull();
    expect(data.get(5)!.body.kind).toBe("missing");
  });

  it("gives each request the id the swimlane opens, with its data inline and script-safe", () => {
    const html = requestInspector(rec, "c0r0-");
    for (const r of rec.requests) expect(html).toContain(`id="c0r0-req-${r.seq}"`);
    // The bodies hold markup-like text; only the inspector's own script elements may close.
    expect(html.match(/<script type="application\/json" class="request-data">/g)).toHaveLength(rec.requests.length);
    expect(html.match(/<\/script/gi)).toHaveLength(rec.requests.length);
  });
});
