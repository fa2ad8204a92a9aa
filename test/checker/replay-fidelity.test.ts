// Replay fidelity on hand-built request logs: what is normalised, which request each one is compared with, and the findings, notes and reach it gives.
import { describe, expect, it } from "vitest";
import { checkReplayFidelity, normaliseRequestBody, REPLAY_FINDINGS, type RecordedRequest } from "../../checker/replay-fidelity.ts";
import { unifiedDiff } from "../../checker/text-diff.ts";
import type { RequestEntry } from "../../mock-api/log-entry.ts";
import { finding } from "../../core/verdict.ts";

interface Sent {
  seq: number;
  body: string;
  summary: string;
  fault?: string | null;
  path?: string;
}

function entry({ seq, summary, fault = null, path = "/v1/messages" }: Sent): RequestEntry {
  return {
    kind: "request",
    seq,
    receivedAt: seq,
    method: "POST",
    path,
    query: "",
    headers: {},
    bodyFile: `requests/${seq}.body`,
    bodyBytes: 0,
    bodySha256: "",
    stream: "replay",
    step: 0,
    messageCount: 1,
    streaming: true,
    conformance: [],
    reply: { status: fault === null ? 200 : 400, kind: fault === null ? "sse" : "error", summary, fault, stopReason: fault === null ? "end_turn" : null },
    client: { remoteAddress: null, remotePort: null },
  };
}

// A replay's request log: the entries and their bodies, by seq.
function replay(sent: Sent[]) {
  const bodies = new Map(sent.map((s) => [s.seq, s.body]));
  return {
    requests: sent.map(entry),
    body: (seq: number) => {
      const text = bodies.get(seq);
      if (text === undefined) throw new Error(`no body ${seq}`);
      return Buffer.from(text, "utf8");
    },
  };
}

const msg = (text: string, extra: Record<string, unknown> = {}) => JSON.stringify({ model: "m", messages: [{ role: "user", content: text }], ...extra });
const recorded = (seq: number, body: string): RecordedRequest => ({ seq, label: `POST /v1/messages #${seq}`, body });
const served = (seq: number) => `replayed recorded #${seq}`;

describe("normaliseRequestBody", () => {
  it("pretty-prints JSON one space deep and blanks metadata.user_id", () => {
    const text = JSON.stringify({ metadata: { user_id: "user_abc_session_1", other: "kept" }, messages: [] });
    expect(normaliseRequestBody(text)).toBe('{\n "metadata": {\n  "user_id": "<user-id>",\n  "other": "kept"\n },\n "messages": []\n}');
  });

  it("adds no user_id to metadata without one, and leaves a body without metadata alone", () => {
    expect(normaliseRequestBody('{"metadata":{"other":"x"}}')).toBe('{\n "metadata": {\n  "other": "x"\n }\n}');
    expect(normaliseRequestBody('{"a":1}')).toBe('{\n "a": 1\n}');
    expect(normaliseRequestBody('{"metadata":null,"a":1}')).toBe('{\n "metadata": null,\n "a": 1\n}');
  });

  it("applies the cross-run rules and the replay's volatile rules, to JSON and to text that is not JSON", () => {
    // req_… ids only the cross-run rules blank; paths of two or more segments only the replay's rules do.
    const volatile = "req_0123456789ab at /home/me/project on 2026-11-30 cch=deadbeef";
    expect(normaliseRequestBody(volatile)).toBe("req_<id> at <path> on <date> cch=<cch>");
    expect(normaliseRequestBody(JSON.stringify({ text: volatile }))).toBe('{\n "text": "req_<id> at <path> on <date> cch=<cch>"\n}');
  });
});

describe("checkReplayFidelity", () => {
  it("lists the three finding ids it can give", () => {
    expect(REPLAY_FINDINGS).toEqual(["replay-diverged", "replay-unmatched", "replay-missing"]);
  });

  it("is reached and finds nothing when every recorded request was replayed equal after normalisation", () => {
    const rec = replay([
      { seq: 1, body: msg("first", { metadata: { user_id: "replay-user" } }), summary: served(1) },
      // Not a Messages request: neither compared nor counted.
      { seq: 2, body: "{}", summary: "count", path: "/v1/messages/count_tokens" },
      { seq: 3, body: msg("second at 2026-12-06"), summary: served(2) },
    ]);
    const out = checkReplayFidelity(rec, [recorded(1, msg("first", { metadata: { user_id: "recorded-user" } })), recorded(2, msg("second at 2026-11-30"))]);
    expect(out).toEqual({
      reached: { ok: true },
      findings: [],
      notes: ["replay fidelity: 2 of 2 replayed requests equal their recorded ones after normalisation; 2 of 2 recorded requests replayed"],
    });
  });

  it("counts the recorded requests replayed stream by stream when the recording's streams are known", () => {
    const rec = replay([
      { seq: 1, body: msg("main"), summary: served(1) },
      { seq: 2, body: msg("sub"), summary: served(2) },
    ]);
    const streamed = [recorded(1, msg("main")), recorded(2, msg("sub")), recorded(3, msg("title"))].map((r, i) => ({ ...r, stream: ["main", "subagent-1", "title"][i]! }));
    expect(checkReplayFidelity(rec, streamed).notes.at(-1)).toBe("recorded requests replayed by stream: main 1 of 1, subagent-1 1 of 1, title 0 of 1");
  });

  it("reports only the first divergence, with the diff of the recorded request it was answered for", () => {
    const rec = replay([
      { seq: 1, body: msg("same"), summary: served(1) },
      { seq: 2, body: msg("changed once"), summary: served(2) },
      { seq: 3, body: msg("changed twice"), summary: served(3) },
    ]);
    const out = checkReplayFidelity(rec, [recorded(1, msg("same")), recorded(2, msg("original one")), recorded(3, msg("original two"))]);
    expect(out.findings).toEqual([
      finding({
        id: "replay-diverged",
        title: "a replayed request differs from the recorded one it was answered for (first divergence shown)",
        where: "request #2 (recorded #2)",
        diff: unifiedDiff(normaliseRequestBody(msg("original one")), normaliseRequestBody(msg("changed once")), { beforeName: "recorded #2", afterName: "replayed #2" }),
        red: true,
      }),
    ]);
    expect(out.findings[0]!.diff).toContain('-   "content": "original one"');
    expect(out.findings[0]!.diff).toContain('+   "content": "changed once"');
    expect(out.reached).toEqual({ ok: true });
    // The first divergence named by its kind, in one line above the diff.
    expect(out.notes).toEqual([
      "replay fidelity: 1 of 3 replayed requests equal their recorded ones after normalisation; 3 of 3 recorded requests replayed",
      "first divergence: replayed #2 against recorded #2: the prompt changed",
    ]);
  });

  it("compares a request with the recorded one named in its reply, not the one at its own position", () => {
    const rec = replay([{ seq: 5, body: msg("B"), summary: served(2) }]);
    const out = checkReplayFidelity(rec, [recorded(2, msg("B")), recorded(1, msg("A"))]);
    // Equal to recorded #2, which it was answered for; recorded #1 was never made, but without a finding that is no evidence.
    expect(out.findings).toEqual([]);
    expect(out.reached).toEqual({ ok: false, reason: "the replay made 1 of the 2 recorded requests" });
    expect(out.notes).toEqual(["replay fidelity: 1 of 1 replayed requests equal their recorded ones after normalisation; 1 of 2 recorded requests replayed"]);
  });

  it("reports an unmatched request with its reply and the diff against the nearest recorded one, and what was never replayed", () => {
    const summary = "ccrepro replay: this request matches no recorded one (nearest: recorded #2, which differs in the last user message)";
    const rec = replay([
      { seq: 1, body: msg("one"), summary: served(1) },
      { seq: 2, body: msg("two, reworded"), summary, fault: "replay-unmatched nearest #2" },
    ]);
    const out = checkReplayFidelity(rec, [recorded(1, msg("one")), recorded(2, msg("two")), recorded(3, msg("three"))]);
    expect(out.findings).toEqual([
      finding({
        id: "replay-unmatched",
        title: "the replay sent a request that matches no recorded one; the mock answered it with an API error",
        where: "request #2",
        detail: [summary],
        diff: unifiedDiff(normaliseRequestBody(msg("two")), normaliseRequestBody(msg("two, reworded")), { beforeName: "recorded #2", afterName: "replayed #2" }),
        red: true,
      }),
      finding({ id: "replay-missing", title: "the replay never made some recorded requests", where: "recorded #2, recorded #3", red: true }),
    ]);
    // Findings were made, so the missing requests are evidence and the run counts as reached.
    expect(out.reached).toEqual({ ok: true });
    expect(out.notes).toEqual([
      "replay fidelity: 1 of 2 replayed requests equal their recorded ones after normalisation; 1 of 3 recorded requests replayed",
      "first divergence: replayed #2 against the nearest, recorded #2: the prompt changed",
    ]);
  });

  it("gives an unmatched request no diff when the mock named no nearest recorded request, or one the recording lacks", () => {
    const rec = replay([
      { seq: 1, body: msg("x"), summary: "no match", fault: "replay-unmatched" },
      { seq: 2, body: msg("y"), summary: "no match either", fault: "replay-unmatched nearest #9" },
      { seq: 3, body: msg("z"), summary: "no fault at all", fault: null },
    ]);
    const out = checkReplayFidelity(rec, [recorded(1, msg("x"))]);
    expect(out.findings).toEqual([
      { id: "replay-unmatched", title: expect.any(String), where: "request #1", detail: ["no match"], data: {}, red: true },
      { id: "replay-unmatched", title: expect.any(String), where: "request #2", detail: ["no match either"], data: {}, red: true },
      { id: "replay-unmatched", title: expect.any(String), where: "request #3", detail: ["no fault at all"], data: {}, red: true },
      { id: "replay-missing", title: expect.any(String), where: "recorded #1", detail: [], data: {}, red: true },
    ]);
    expect(out.findings.some((f) => "diff" in f)).toBe(false);
  });

  it("reports a divergence next to an unmatched request, and the divergence only once", () => {
    const rec = replay([
      { seq: 1, body: msg("unmatched"), summary: "no match", fault: "replay-unmatched nearest #1" },
      { seq: 2, body: msg("a2"), summary: served(1) },
      { seq: 3, body: msg("b2"), summary: served(2) },
    ]);
    const out = checkReplayFidelity(rec, [recorded(1, msg("a")), recorded(2, msg("b"))]);
    expect(out.findings.map((f) => [f.id, f.where])).toEqual([
      ["replay-unmatched", "request #1"],
      ["replay-diverged", "request #2 (recorded #1)"],
    ]);
  });

  it("stops short without findings: not reached, saying how many of the recorded requests were made", () => {
    const rec = replay([{ seq: 1, body: msg("a"), summary: served(1) }]);
    const out = checkReplayFidelity(rec, [recorded(1, msg("a")), recorded(2, msg("b")), recorded(3, msg("c"))]);
    expect(out).toEqual({
      reached: { ok: false, reason: "the replay made 1 of the 3 recorded requests" },
      findings: [],
      notes: ["replay fidelity: 1 of 1 replayed requests equal their recorded ones after normalisation; 1 of 3 recorded requests replayed"],
    });
  });

  it("is not reached when the replay made no Messages request at all", () => {
    const none = replay([{ seq: 1, body: "{}", summary: "probe", path: "/" }]);
    expect(checkReplayFidelity(none, [])).toEqual({
      reached: { ok: false, reason: "the replay made no Messages request" },
      findings: [],
      notes: ["replay fidelity: 0 of 0 replayed requests equal their recorded ones after normalisation; 0 of 0 recorded requests replayed"],
    });
    // With recorded requests, it says how many of them were made.
    expect(checkReplayFidelity(none, [recorded(1, msg("a"))]).reached).toEqual({ ok: false, reason: "the replay made 0 of the 1 recorded requests" });
  });

  it("reads the served seq only from a whole reply summary, and every digit of it and of the nearest seq", () => {
    const recordedList = Array.from({ length: 12 }, (_, i) => recorded(i + 1, msg(`r${i + 1}`)));
    const rec = replay([
      { seq: 1, body: msg("r12"), summary: served(12) },
      { seq: 2, body: msg("r2"), summary: `not ${served(2)}` },
      { seq: 3, body: msg("r3"), summary: `${served(3)} again` },
      { seq: 4, body: msg("r11 reworded"), summary: "no match", fault: "replay-unmatched nearest #11" },
    ]);
    const out = checkReplayFidelity(rec, recordedList);
    expect(out.findings.map((f) => [f.id, f.where])).toEqual([
      ["replay-unmatched", "request #2"],
      ["replay-unmatched", "request #3"],
      ["replay-unmatched", "request #4"],
      ["replay-missing", Array.from({ length: 11 }, (_, i) => `recorded #${i + 1}`).join(", ")],
    ]);
    expect(out.findings[2]!.diff).toBe(unifiedDiff(normaliseRequestBody(msg("r11")), normaliseRequestBody(msg("r11 reworded")), { beforeName: "recorded #11", afterName: "replayed #4" }));
    expect(out.notes).toEqual([
      "replay fidelity: 1 of 4 replayed requests equal their recorded ones after normalisation; 1 of 12 recorded requests replayed",
      "first divergence: replayed #2: an extra request, like none recorded",
    ]);
  });

  it("counts a recorded request served twice (a retry) once", () => {
    const rec = replay([
      { seq: 1, body: msg("a"), summary: served(1) },
      { seq: 2, body: msg("a"), summary: served(1) },
    ]);
    const out = checkReplayFidelity(rec, [recorded(1, msg("a"))]);
    expect(out.reached).toEqual({ ok: true });
    expect(out.notes).toEqual(["replay fidelity: 2 of 2 replayed requests equal their recorded ones after normalisation; 1 of 1 recorded requests replayed"]);
  });

  it("names the kind of the first divergence: model, system text, tools, a tool result, a missing request", () => {
    const body = (extra: Record<string, unknown>) => JSON.stringify({ model: "m", system: "s", tools: [{ name: "Bash" }], messages: [{ role: "user", content: "p" }], ...extra });
    const kindOf = (replayedBody: string) =>
      checkReplayFidelity(replay([{ seq: 1, body: replayedBody, summary: "no match", fault: "replay-unmatched nearest #1" }]), [recorded(1, body({}))]).notes[1];
    expect(kindOf(body({ model: "n" }))).toBe("first divergence: replayed #1 against the nearest, recorded #1: the model changed");
    expect(kindOf(body({ system: "t", tools: [] }))).toBe("first divergence: replayed #1 against the nearest, recorded #1: the system text changed, the tools changed");
    expect(kindOf(body({ messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "other" }] }] }))).toBe("first divergence: replayed #1 against the nearest, recorded #1: a tool result changed");
    const short = checkReplayFidelity(replay([{ seq: 1, body: msg("a"), summary: "no match", fault: "replay-unmatched" }]), [recorded(1, msg("b"))]);
    expect(short.notes[1]).toBe("first divergence: replayed #1: an extra request, like none recorded");
  });
});
