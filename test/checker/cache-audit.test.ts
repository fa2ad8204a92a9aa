// The cache audit over a recorded run (real release, pruned fixture) and over hand-built conversations.
//
// notification-changed-2.1.281 and notification-green-2.1.332 were recorded by `ccrepro bisect
// subagent-resume-notification-header --old 2.1.281 --new 2.1.332` and keep the bodies of requests 6 and 8 only
// (test/fixtures/runs/README.md); the audit replays those two and says the others are missing.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { auditCache, resumeCacheFindings } from "../../checker/cache-audit.ts";
import { loadRecordings } from "../../harness/recordings.ts";
import { fakeRecordings, type FakeRequest } from "../fixtures/notifications/recordings.ts";

const recorded = (name: string) => loadRecordings(fileURLToPath(new URL(`../fixtures/runs/${name}`, import.meta.url)));

describe("auditCache on recorded runs", () => {
  it("2.1.281: the subagent's resume boundary costs the messages before the header flip", () => {
    const audit = auditCache(recorded("notification-changed-2.1.281"));
    expect(audit.missingBodies).toEqual([1, 2, 3, 4, 5, 7, 9]);
    const sub = audit.streams.find((s) => s.stream === "sub")!;
    expect(sub.requests.map((r) => r.seq)).toEqual([6, 8]);
    expect(sub.placements).toEqual(["system[1] system[2] messages[-1].content[0]", "system[1] system[2] messages[-1].content[0]"]);
    const [cost] = sub.boundaries;
    expect(cost!.boundary).toMatchObject({ kind: "resume", before: 6, after: 8 });
    expect(cost!.firstDifference).toBe("messages[4].content[0]");
    expect(cost!.stop).toBe("no-breakpoint-before-change");
    expect(cost!.cost).toBe(cost!.readable - cost!.read);
    expect(cost!.cost).toBeGreaterThan(1000);
    const findings = resumeCacheFindings(audit);
    expect(findings.map((f) => f.boundary.after)).toEqual([8]);
    expect(audit.notes.some((n) => n.includes("continuation 1 (sub, task notification): req 6 → req 8 costs ~"))).toBe(true);
  });

  it("2.1.332: the same boundary costs nothing", () => {
    const audit = auditCache(recorded("notification-green-2.1.332"));
    const sub = audit.streams.find((s) => s.stream === "sub")!;
    expect(sub.boundaries.map((c) => c.cost)).toEqual([0]);
    expect(resumeCacheFindings(audit)).toEqual([]);
  });
});

// Hand-built conversations: a system prompt above the minimum, one breakpoint on the last message.
const system = [{ type: "text", text: "s".repeat(6000), cache_control: { type: "ephemeral" } }];
const msg = (role: string, text: string, cache = false) => ({ role, content: [{ type: "text", text, ...(cache ? { cache_control: { type: "ephemeral" } } : {}) }] });
const conversation = (turns: string[], cacheAt = turns.length - 1) => ({
  model: "claude-sonnet-4-5",
  system,
  messages: turns.map((t, i) => msg(i % 2 === 0 ? "user" : "assistant", t.repeat(400), i === cacheAt)),
});

describe("resumeCacheFindings: the rule", () => {
  const turn: FakeRequest = { stream: "main", body: conversation(["a"]) };
  it("no finding when the resumed request extends the previous one and keeps a breakpoint in reach", () => {
    const audit = auditCache(fakeRecordings([turn, { stream: "main", body: conversation(["a", "b", "c"]) }]));
    expect(audit.streams[0]!.reusedFraction).toBeGreaterThan(0.3);
    expect(resumeCacheFindings(audit)).toEqual([]);
  });

  it("a finding when the resumed request is identical but carries no breakpoint that reaches the previous entry", () => {
    const noBreakpoint = { ...conversation(["a", "b", "c"], -1) };
    const findings = resumeCacheFindings(auditCache(fakeRecordings([turn, { stream: "main", body: noBreakpoint }])));
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toContain("continuation 1 (main, prompt): req 1 → req 2");
  });

  it("no finding when the previous entry had expired before the resume (no client could read it)", () => {
    const late: FakeRequest = { stream: "main", body: conversation(["A", "b", "c"]), receivedAt: 1000 + 6 * 60_000 };
    expect(resumeCacheFindings(auditCache(fakeRecordings([turn, late])))).toEqual([]);
  });

  it("a finding when a message before the previous breakpoint changed", () => {
    const changed: FakeRequest = { stream: "main", body: conversation(["A", "b", "c"]) };
    const [finding] = resumeCacheFindings(auditCache(fakeRecordings([turn, changed])));
    expect(finding!.message).toContain("changed-block at messages[0].content[0]");
  });
});
