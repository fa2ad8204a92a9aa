// The timeline a session's recording becomes, and how it prints.
import { describe, expect, it } from "vitest";
import { formatTimeline } from "../../checker/timeline-format.ts";
import { buildTurnTimeline } from "../../checker/turn-timeline.ts";
import { assistant, init, result, session, taskNotification } from "../fixtures/turns/session.ts";

const s = session(
  "s2",
  [
    { t: 1002, push: "SECOND_MSG" },
    { t: 1011, out: taskNotification("stopped") },
    { t: 1063, out: init() },
    { t: 1063, out: result(0, "", "task-notification") },
    { t: 1072, out: { type: "system", subtype: "status" } },
    { t: 3079, out: assistant("second") },
    { t: 3080, out: assistant("x".repeat(300), "toolu_01ALJZ3sZyNEEoSzVwmEGqZi") },
    { t: 3490, out: result(1, "second") },
    { t: 3500, stdin: { type: "control_request", request: { subtype: "interrupt" } } },
  ],
  1000,
);

describe("buildTurnTimeline", () => {
  it("classifies every line and numbers turns by the results before them", () => {
    const timeline = buildTurnTimeline(s);
    expect(timeline.start).toBe(1000);
    expect(timeline.entries.map((e) => `${e.kind}:${e.turn}`)).toEqual([
      "push:1",
      "task:1",
      "init:1",
      "result:1",
      "other:2",
      "assistant:2",
      "assistant:2",
      "result:2",
      "stdin:3",
    ]);
    expect(timeline.entries[3]).toMatchObject({ kind: "result", line: 2, origin: "task-notification", numTurns: 0, tokens: 0 });
    expect(timeline.entries[6]).toMatchObject({ parentToolUseId: "toolu_01ALJZ3sZyNEEoSzVwmEGqZi" });
    expect(timeline.entries[8]).toMatchObject({ kind: "stdin", label: "control_request/interrupt" });
  });
});

describe("formatTimeline", () => {
  it("prints one aligned line per entry, under 110 characters", () => {
    const lines = formatTimeline(buildTurnTimeline(s));
    expect(lines).toHaveLength(9);
    expect(lines[0]).toBe('    +0.002s  s2  push               t1    in0  prompt #1 "SECOND_MSG"');
    expect(lines[3]).toBe('    +0.063s  s2  result             t1      2  num_turns=0 origin=task-notification usage=0 ""');
    expect(lines[7]).toContain('num_turns=1 origin=- usage=50 "second"');
    expect(lines[6]).toMatch(/subagent .* parent=toolu_01ALJZ3s "x+…"$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(110);
    // The gist column starts at the same place on every line.
    const gistAt = lines[0]!.indexOf("prompt #1");
    expect(lines[3]!.indexOf("num_turns")).toBe(gistAt);
  });

  it("shows only the cited lines with their context, marking the gaps", () => {
    const lines = formatTimeline(buildTurnTimeline(s), { around: [2], context: 1 });
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe("  …");
    expect(lines[1]).toContain("init");
    expect(lines[2]).toContain("num_turns=0");
    expect(lines[3]).toContain("status");
    expect(lines[4]).toBe("  …");
  });

  it("measures time from the start it is given", () => {
    const [first] = formatTimeline(buildTurnTimeline(s), { start: 0 });
    expect(first).toContain("+1.002s");
  });
});
