// The notification-stability check end to end over hand-built seed-002 runs, and its human output.
import { describe, expect, it } from "vitest";
import { NOTIFICATION_FINDINGS, checkNotificationStability, type NotificationCheckOptions } from "../../checker/notification-check.ts";
import { judge } from "../../core/verdict.ts";
import { SHORT_HEADER, T1, afterResumeBody, beforeIdleBody, mainBody, type SubBodyOptions } from "../fixtures/notifications/bodies.ts";
import { fakeRecordings, type FakeRequest } from "../fixtures/notifications/recordings.ts";

// Seed 002's request order: the subagent goes idle after req 6 and T2's notification wakes it for req 8.
function seed002(before: SubBodyOptions, after: SubBodyOptions, wakes = true): FakeRequest[] {
  return [
    { stream: "main", stopReason: "tool_use", body: mainBody(1) },
    { stream: "main", body: mainBody(2) },
    { stream: "sub", stopReason: "tool_use", body: {} },
    { stream: "sub", stopReason: "tool_use", body: {} },
    { stream: "sub", stopReason: "tool_use", body: {} },
    { stream: "sub", stopReason: wakes ? "end_turn" : "tool_use", body: beforeIdleBody(before) },
    { stream: "main", body: mainBody(3) },
    { stream: "sub", body: afterResumeBody(after) },
    { stream: "main", body: mainBody(4) },
  ];
}

const subResumes: NotificationCheckOptions = { kinds: ["resume"], streams: ["sub"] };
const run = (before: SubBodyOptions, after: SubBodyOptions, options = subResumes) => checkNotificationStability(fakeRecordings(seed002(before, after)), options);
const ids = (result: ReturnType<typeof run>) => result.findings.map((f) => `${f.id}${f.red ? "" : " (info)"}`);

describe("checkNotificationStability", () => {
  it("finds nothing when the absorbed notification keeps its bytes across the resume", () => {
    const result = run({}, {});
    expect(result.findings).toEqual([]);
    expect(result.reached).toEqual({ ok: true });
    expect(result.notes).toEqual([
      "continuation 1 (sub, task notification): req 6 → req 8, 1 notification compared, 12 prefix blocks compared; message cache_control rolled messages[7].content[0] → messages[9].content[0]",
    ]);
    expect(judge(result).verdict).toBe("GREEN");
  });

  it("reports the seed-002 header flip: long preamble to the short header, delta 446, and nothing else in the prefix", () => {
    const result = run({}, { header: SHORT_HEADER });
    expect(ids(result)).toEqual(["notification-changed"]);
    const [f] = result.findings;
    expect(f?.where).toBe("continuation 1 (sub, task notification): req 6 → req 8, messages[5].content[0].text");
    expect(f?.data).toMatchObject({ taskId: T1, headerBefore: "system-notification-preamble", headerAfter: "non-user-source", delta: 446, byteDelta: 446 });
    const { charsBefore, charsAfter } = f?.data as { charsBefore: number; charsAfter: number };
    expect(f?.detail[0]).toBe(`system-notification-preamble (${charsBefore} chars) → non-user-source (${charsAfter} chars), delta 446`);
    expect(f?.diff).toContain("-[SYSTEM NOTIFICATION - NOT USER INPUT]");
    expect(f?.diff).toContain("+[MESSAGE FROM NON-USER SOURCE - NOT USER INPUT]");
    expect(judge(result).verdict).toBe("RED");
  });

  it("reports a notification missing after the resume instead of ignoring it", () => {
    const result = run({}, { header: null });
    expect(ids(result)).toEqual(["notification-dropped", "prefix-changed"]);
    expect(result.findings[0]?.detail[1]).toBe(`req 8 has no notification for task ${T1}`);
    expect(result.findings[1]?.data).toMatchObject({ block: "messages[5]" });
  });

  it("reports a changed tool description as prefix-changed naming the tool", () => {
    const result = run({}, { bashDescription: "Runs a command." });
    expect(ids(result)).toEqual(["prefix-changed"]);
    expect(result.findings[0]?.title).toContain("first at tools[0]");
    expect(result.findings[0]?.where).toBe("continuation 1 (sub, task notification): req 6 → req 8, tools[0].description");
    expect(result.findings[0]?.diff).toContain("+Runs a command.");
  });

  it("reports a moved cache_control marker as informational only", () => {
    const result = run({ systemMarker: 1 }, { systemMarker: 0 });
    expect(ids(result)).toEqual(["cache-control-moved (info)"]);
    expect(result.findings[0]?.detail).toEqual(['removed system[1] {"type":"ephemeral"}', 'added system[0] {"type":"ephemeral"}']);
    expect(judge(result).verdict).toBe("GREEN");
  });

  it("compares raw bytes within a run: a changed path inside the notification is notification-changed", () => {
    const moved = seed002({}, {});
    moved[7] = { ...moved[7]!, body: JSON.parse(JSON.stringify(afterResumeBody()).replaceAll("/RUNS/20261130T160102Z-42", "/RUNS/other")) };
    const result = checkNotificationStability(fakeRecordings(moved), subResumes);
    // The path also sits in the tool result that started the task: the prefix changed there too.
    expect(ids(result)).toEqual(["notification-changed", "prefix-changed"]);
    expect(result.findings[0]?.detail[1]).toContain("compared raw");
  });

  it("compares raw bytes within a run: a billing cch= that changes between two requests is prefix-changed", () => {
    // No recorded release changed it within one run (test/fixtures/runs); a rule may only be added with such a measurement.
    expect(ids(run({ cch: "1a2b3" }, { cch: "4c5d6" }))).toEqual(["prefix-changed"]);
  });

  it("is inconclusive when the subagent was never resumed", () => {
    const result = checkNotificationStability(fakeRecordings(seed002({}, {}, false)), subResumes);
    expect(result.reached).toEqual({ ok: false, reason: expect.stringContaining("no continuation on stream sub") });
    expect(judge(result).verdict).toBe("INCONCLUSIVE");
  });

  it("is inconclusive when no notification was absorbed before the resume", () => {
    const result = run({ header: null }, { header: null });
    expect(result.findings).toEqual([]);
    expect(result.reached).toEqual({ ok: false, reason: "no task-notification was present before any continuation on stream sub (before: req 6)" });
  });

  it("emits only ids from its closed list", () => {
    const movedRun = seed002({}, {});
    const after = afterResumeBody();
    after.messages.splice(1, 0, { role: "user", content: "inserted" }, { role: "assistant", content: "ok" });
    movedRun[7] = { ...movedRun[7]!, body: after };
    const all = [run({}, { header: SHORT_HEADER, bashDescription: "x", systemMarker: 0 }), run({}, { header: null }), checkNotificationStability(fakeRecordings(movedRun), subResumes)]
      .flatMap((r) => r.findings.map((f) => f.id));
    expect(new Set(all)).toEqual(new Set(NOTIFICATION_FINDINGS));
  });

  it("checks every stream and both kinds by default", () => {
    const result = run({}, {}, {});
    expect(result.notes.map((n) => /^.*?req \d+ → req \d+/.exec(n)?.[0])).toEqual([
      "continuation 1 (main, prompt): req 2 → req 7",
      "continuation 1 (sub, task notification): req 6 → req 8",
      "continuation 2 (main, prompt): req 7 → req 9",
    ]);
  });
});
