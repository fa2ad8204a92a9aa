// The cache audit's edges over hand-built conversations: which request a boundary reads from, how long its entry lives
// (the last breakpoint's ttl, to the millisecond), streams and notes, and body files that cannot be read.
import { describe, expect, it } from "vitest";
import { auditCache, resumeCacheFindings } from "../../checker/cache-audit.ts";
import { fakeRecordings, type FakeRequest } from "../fixtures/notifications/recordings.ts";

type Ttl = "5m" | "1h";
const control = (ttl: Ttl | undefined) => (ttl === undefined ? {} : { cache_control: ttl === "5m" ? { type: "ephemeral" } : { type: "ephemeral", ttl } });

// A system prompt above the model's minimum and alternating turns of 400 characters; `marks` puts breakpoints on messages.
function conversation(turns: string[], marks: Record<number, Ttl> = {}, systemTtl?: Ttl) {
  return {
    model: "claude-sonnet-4-5",
    system: [{ type: "text", text: "s".repeat(6000), ...control(systemTtl) }],
    messages: turns.map((t, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: [{ type: "text", text: t.repeat(400), ...control(marks[i]) }] })),
  };
}

const MINUTE = 60_000;
const costs = (requests: FakeRequest[]) => auditCache(fakeRecordings(requests)).streams.flatMap((s) => s.boundaries.map((c) => c.cost));

describe("auditCache: which entry a boundary could read", () => {
  it("measures against the request just before the boundary, not the stream's first", () => {
    // Req 1 calls a tool (no boundary); req 2 ends the turn 4 minutes later; req 3 resumes 2 minutes after that,
    // 6 minutes after req 1, with no message breakpoint. Only req 2's entry is alive and it is the longer one.
    const audit = auditCache(
      fakeRecordings([
        { stream: "main", stopReason: "tool_use", receivedAt: 1000, body: conversation(["a"], { 0: "5m" }, "5m") },
        { stream: "main", receivedAt: 1000 + 4 * MINUTE, body: conversation(["a", "b", "c"], { 2: "5m" }, "5m") },
        { stream: "main", receivedAt: 1000 + 6 * MINUTE, body: conversation(["a", "b", "c", "d", "e"], {}, "5m") },
      ]),
    );
    const [stream] = audit.streams;
    const [, req2, req3] = stream!.requests;
    expect(stream!.boundaries).toHaveLength(1);
    expect(stream!.boundaries[0]).toMatchObject({
      boundary: { kind: "resume", before: 2, after: 3 },
      read: req3!.cache.read.tokens,
      readable: req2!.cache.written.tokens,
      cost: req2!.cache.written.tokens - req3!.cache.read.tokens,
    });
    expect(stream!.boundaries[0]!.cost).toBeGreaterThan(0);
  });

  it("keeps a 1-hour entry readable ten minutes on", () => {
    const before: FakeRequest = { stream: "main", body: conversation(["a"], { 0: "1h" }, "1h") };
    const after: FakeRequest = { stream: "main", receivedAt: 1000 + 10 * MINUTE, body: conversation(["a", "b", "c"]) };
    const [cost] = costs([before, after]);
    expect(cost).toBeGreaterThan(0);
  });

  it("judges the entry by its last breakpoint's ttl, not an earlier one's", () => {
    // 1-hour breakpoints on the system prompt and the first message, a 5-minute one on the last: the full written
    // prefix is gone after ten minutes, so a resume then costs nothing a client could have saved.
    const before: FakeRequest = { stream: "main", body: conversation(["a", "b", "c"], { 0: "1h", 2: "5m" }, "1h") };
    const after: FakeRequest = { stream: "main", receivedAt: 1000 + 10 * MINUTE, body: conversation(["a", "b", "c", "d", "e"]) };
    expect(costs([before, after])).toEqual([0]);
  });

  it("treats an entry as expired at exactly its lifetime", () => {
    const before: FakeRequest = { stream: "main", receivedAt: 1000, body: conversation(["a"], { 0: "5m" }, "5m") };
    const onTheDot: FakeRequest = { stream: "main", receivedAt: 1000 + 5 * MINUTE, body: conversation(["a", "b", "c"]) };
    const justBefore: FakeRequest = { ...onTheDot, receivedAt: 1000 + 5 * MINUTE - 1 };
    expect(costs([before, onTheDot])).toEqual([0]);
    expect(costs([before, justBefore])[0]).toBeGreaterThan(0);
  });

  it("audits a boundary after a request that set no breakpoint at all", () => {
    // An uncached client: nothing was written, so nothing was readable and the notes say there were no breakpoints.
    const audit = auditCache(fakeRecordings([{ stream: "main", body: conversation(["a"]) }, { stream: "main", body: conversation(["a", "b", "c"]) }]));
    expect(audit.streams[0]!.boundaries.map((c) => [c.read, c.readable, c.cost])).toEqual([[0, 0, 0]]);
    expect(audit.notes).toEqual([
      "cache (main): 2 request(s), 0% of estimated input tokens read from cache; breakpoints: none",
      "cache: continuation 1 (main, prompt): req 1 → req 2 reads all 0 readable tokens",
    ]);
  });
});

describe("auditCache: streams and notes", () => {
  it("lists streams in the order of their first model request, whatever a non-model request was tagged", () => {
    // A count_tokens probe logged first under the subagent's stream does not make that stream come first.
    const audit = auditCache(
      fakeRecordings([
        { stream: "sub", path: "/v1/messages/count_tokens", body: conversation(["x"]) },
        { stream: "main", body: conversation(["a"]) },
        { stream: "sub", body: conversation(["b"]) },
      ]),
    );
    expect(audit.streams.map((s) => s.stream)).toEqual(["main", "sub"]);
    expect(audit.missingBodies).toEqual([]);
  });

  it("reports 0% reuse, not NaN, for a stream whose requests send no prompt, and no missing-body note when none is missing", () => {
    const audit = auditCache(fakeRecordings([{ stream: "main", body: { model: "claude-sonnet-4-5", messages: [] } }]));
    expect(audit.streams[0]!.reusedFraction).toBe(0);
    expect(audit.notes).toEqual(["cache (main): 1 request(s), 0% of estimated input tokens read from cache; breakpoints: none"]);
  });

  it("words a costly boundary with no differing block as such, in the note and the finding", () => {
    // B re-sends A's prompt and extends it, but drops its breakpoints: A's entry is alive and unchanged, yet out of reach.
    const rec = fakeRecordings([
      { stream: "main", body: conversation(["a"], { 0: "5m" }, "5m") },
      { stream: "main", body: conversation(["a", "b", "c"]) },
    ]);
    const audit = auditCache(rec);
    const [c] = audit.streams[0]!.boundaries;
    expect(c).toMatchObject({ read: 0, firstDifference: null, stop: "out-of-lookback" });
    expect(audit.notes[1]).toBe(`cache: continuation 1 (main, prompt): req 1 → req 2 costs ~${c!.cost} tokens: reads 0 of ${c!.readable} readable (first difference none, out-of-lookback)`);
    expect(resumeCacheFindings(audit).map((f) => f.message)).toEqual([
      `continuation 1 (main, prompt): req 1 → req 2: the resumed request reads ~0 tokens from cache where ~${c!.readable} were readable (out-of-lookback)`,
    ]);
  });
});

describe("auditCache: body files", () => {
  it("stops on a body file it cannot read for a reason other than its absence", () => {
    // A missing file is an expected gap in a pruned fixture; a permission error is a broken run and must not be hidden.
    const rec = fakeRecordings([{ stream: "main", body: conversation(["a"]) }]);
    const denied = Object.assign(new Error("EACCES: permission denied, open 'requests/1.json'"), { code: "EACCES" });
    expect(() => auditCache({ ...rec, body: () => { throw denied; } })).toThrow(denied);
  });

  it("leaves out a body whose file is absent and says so", () => {
    const rec = fakeRecordings([{ stream: "main", body: conversation(["a"]) }, { stream: "main", body: conversation(["a", "b", "c"]) }]);
    const absent = Object.assign(new Error("ENOENT: no such file or directory"), { code: "ENOENT" });
    const audit = auditCache({ ...rec, body: (seq) => (seq === 1 ? (() => { throw absent; })() : rec.body(seq)) });
    expect(audit.missingBodies).toEqual([1]);
    expect(audit.notes.at(-1)).toBe("cache: 1 request bodies not recorded (req 1); the replay leaves them out");
  });
});
