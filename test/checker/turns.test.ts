// The turn grammar on hand-written streams: one stream per rule, plus the shapes that must stay silent.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { checkTurnStructure, promptAnswer, promptAnswered } from "../../checker/turns.ts";
import { buildTurnTimeline } from "../../checker/turn-timeline.ts";
import { assistant, init, result, session, settledPrompt, taskNotification, unsettledPrompt } from "../fixtures/turns/session.ts";

const ids = (s: Parameters<typeof checkTurnStructure>[0]) => checkTurnStructure(s).map((f) => f.id);

// Stdout lines: 0 tn, 1 tn, 2 init, 3 result(0, task-notification), 4 init, 5 assistant, 6 result(1).
const seed000 = session("s2", [
  { t: 2, push: "SECOND_MSG: reply with exactly the word: second" },
  { t: 11, out: taskNotification("stopped") },
  { t: 11, out: taskNotification("stopped") },
  { t: 63, out: init() },
  { t: 63, out: result(0, "", "task-notification") },
  { t: 72, out: init() },
  { t: 2079, out: assistant("second") },
  { t: 2490, out: result(1, "second") },
]);

describe("checkTurnStructure", () => {
  it("finds nothing in the control shape: one push, one result", () => {
    const s = session("s1", [
      { t: 1, push: "hi" },
      { t: 5, out: init() },
      { t: 900, out: assistant("hello") },
      { t: 950, out: result(1, "hello") },
    ]);
    expect(checkTurnStructure(s)).toEqual([]);
    expect(promptAnswer(buildTurnTimeline(s), 0)?.line).toBe(2);
  });

  it("reports the seed-000 task-notification result that settles the pushed prompt early", () => {
    const findings = checkTurnStructure(seed000);
    expect(findings.map((f) => f.id)).toEqual(["prompt-settled-by-extra-result"]);
    const [f] = findings;
    expect(f?.red).toBe(false);
    expect(f?.data).toMatchObject({ origin: "task-notification", numTurns: 0, tokens: 0, zeroWork: true, line: 3, answerLine: 6 });
    expect(f?.data["usage"]).toMatchObject({ input_tokens: 0, output_tokens: 0 });
    expect(f?.where).toBe("session s2, stdout lines 3, 6; prompt #1 pushed +0.002s");
    expect(f?.title).toContain("origin=task-notification num_turns=0 usage=0");
    expect(f?.detail.some((l) => l.includes("num_turns=0 origin=task-notification usage=0"))).toBe(true);
    // The prompt still got its answer: the run reached the point where the bug shows.
    expect(promptAnswer(buildTurnTimeline(seed000), 0)?.line).toBe(6);
    expect(promptAnswered(seed000, 0)).toBe(true);
  });

  it("marks only the findings the scenario names as red", () => {
    const findings = checkTurnStructure(seed000, { redIds: ["prompt-settled-by-extra-result"] });
    expect(findings.map((f) => f.red)).toEqual([true]);
  });

  it("reads the seed-000 shape the same way from a recorded run directory", () => {
    const runDir = fileURLToPath(new URL("../fixtures/turns/seed-000-run", import.meta.url));
    const [resumed] = loadRecordings(path.resolve(runDir)).sessions;
    expect(resumed).toBeDefined();
    const findings = checkTurnStructure(resumed!);
    expect(findings.map((f) => [f.id, f.data["line"], f.data["origin"]])).toEqual([
      ["prompt-settled-by-extra-result", 5, "task-notification"],
    ]);
  });

  it("treats an unstamped zero-work result before the answer as extra, not as the settlement", () => {
    // An older release: the same resume settlement without origin.
    const s = session("s2", [
      { t: 2, push: "second?" },
      { t: 11, out: taskNotification("stopped") },
      { t: 63, out: init() },
      { t: 63, out: result(0, "") },
      { t: 72, out: init() },
      { t: 2079, out: assistant("second") },
      { t: 2490, out: result(1, "second") },
    ]);
    const findings = checkTurnStructure(s);
    expect(findings.map((f) => f.id)).toEqual(["prompt-settled-by-extra-result"]);
    expect(findings[0]?.data).toMatchObject({ origin: null, numTurns: 0, zeroWork: true, line: 2, answerLine: 5 });
  });

  it("accepts a zero-work result as the settlement when no other result follows before the next push", () => {
    // A locally handled command (e.g. /clear) settles without model work; the next prompt is answered normally.
    const s = session("s1", [
      { t: 1, push: "/clear" },
      { t: 20, out: result(0, "") },
      { t: 30, push: "hi" },
      { t: 40, out: init() },
      { t: 500, out: assistant("hello") },
      { t: 550, out: result(1, "hello") },
    ]);
    expect(ids(s)).toEqual([]);
    const timeline = buildTurnTimeline(s);
    expect(promptAnswer(timeline, 0)).toBeNull();
    expect(promptAnswer(timeline, 1)?.line).toBe(3);
  });

  it("settles queued prompts first in, first out", () => {
    const s = session("s1", [
      { t: 1, push: "one" },
      { t: 2, push: "two" },
      { t: 10, out: init() },
      { t: 100, out: assistant("1") },
      { t: 110, out: result(1, "1") },
      { t: 120, out: init() },
      { t: 200, out: assistant("2") },
      { t: 210, out: result(1, "2") },
    ]);
    expect(ids(s)).toEqual([]);
    expect(promptAnswer(buildTurnTimeline(s), 1)?.line).toBe(5);
  });

  it("reports a prompt settled twice and the root work that reopened it", () => {
    const s = session("s1", [
      { t: 1, push: "hi" },
      { t: 5, out: init() },
      { t: 100, out: assistant("hello") },
      { t: 110, out: result(1, "hello") },
      { t: 300, out: assistant("more") },
      { t: 310, out: result(1, "more") },
    ]);
    const findings = checkTurnStructure(s);
    expect(findings.map((f) => f.id)).toEqual(["turn-settled-twice", "root-work-after-settle"]);
    expect(findings[0]?.data).toMatchObject({ prompt: 1, lines: [2, 4] });
    expect(findings[1]?.data).toMatchObject({ settledAt: 2, workLines: [3] });
  });

  it("reports root work after a settle as one stretch, tool results inside it included", () => {
    const s = session("s1", [
      { t: 1, push: "hi" },
      { t: 5, out: init() },
      { t: 100, out: assistant("hello") },
      { t: 110, out: result(1, "hello") },
      { t: 300, out: assistant("unsolicited") },
      { t: 301, out: { type: "user", message: { content: [{ type: "tool_result" }] }, parent_tool_use_id: null } },
      { t: 302, out: assistant("still going") },
    ]);
    const findings = checkTurnStructure(s);
    expect(findings.map((f) => f.id)).toEqual(["root-work-after-settle"]);
    expect(findings[0]?.data).toMatchObject({ settledAt: 2, workLines: [3, 5] });
  });

  it("does not count subagent output after a settle as root work", () => {
    const s = session("s1", [
      { t: 1, push: "hi" },
      { t: 5, out: init() },
      { t: 100, out: assistant("started an agent") },
      { t: 110, out: result(1, "started an agent") },
      { t: 300, out: assistant("agent working", "toolu_agent") },
    ]);
    expect(ids(s)).toEqual([]);
  });

  it("accepts a task-notification wake-up after a settle", () => {
    const s = session("s1", [
      { t: 1, push: "hi" },
      { t: 5, out: init() },
      { t: 100, out: assistant("started") },
      { t: 110, out: result(1, "started") },
      { t: 5000, out: taskNotification("completed") },
      { t: 5001, out: init() },
      { t: 6000, out: assistant("the task finished") },
      { t: 6010, out: result(1, "the task finished", "task-notification") },
    ]);
    expect(ids(s)).toEqual([]);
  });

  it("counts a task_notification alone as a wake-up, even before its turn's result is recorded", () => {
    const s = session("s1", [
      ...settledPrompt,
      { t: 5000, out: taskNotification("completed") },
      { t: 6000, out: assistant("the task finished") },
    ]);
    expect(ids(s)).toEqual([]);
  });

  it("accepts assistant output whose turn ends in a task-notification result, even with no init before it", () => {
    const s = session("s1", [
      ...settledPrompt,
      { t: 6000, out: assistant("the task finished") },
      { t: 6010, out: result(1, "the task finished", "task-notification") },
    ]);
    expect(ids(s)).toEqual([]);
  });

  it("reports a result with no origin that answers no prompt", () => {
    // A wake-up whose result an older release left unstamped: an orchestrator would take it for a human turn.
    const s = session("s1", [
      ...settledPrompt,
      { t: 5001, out: init() },
      { t: 6000, out: assistant("the task finished") },
      { t: 6010, out: result(1, "the task finished") },
    ]);
    const findings = checkTurnStructure(s);
    expect(findings.map((f) => f.id)).toEqual(["unattributed-result"]);
    expect(findings[0]?.data).toMatchObject({ line: 4, origin: null, numTurns: 1 });
  });

  it("reports a result before any push as unattributed", () => {
    const s = session("s2", [
      { t: 63, out: init() },
      { t: 63, out: result(0, "") },
      { t: 7000, push: "late" },
      { t: 7010, out: init() },
      { t: 8000, out: assistant("ok") },
      { t: 8010, out: result(1, "ok") },
    ]);
    expect(ids(s)).toEqual(["unattributed-result"]);
  });

  it("reports a prompt that no human result settled", () => {
    const s = session("s1", unsettledPrompt);
    const findings = checkTurnStructure(s);
    expect(findings.map((f) => f.id)).toEqual(["prompt-settled-by-extra-result", "prompt-never-settled"]);
    expect(findings[1]?.data).toMatchObject({ prompt: 1, promptText: "hi", lines: [1] });
    expect(promptAnswer(buildTurnTimeline(s), 0)).toBeNull();
    expect(promptAnswered(s, 0)).toBe(false);
  });

  it("orders a push after a result recorded in the same millisecond", () => {
    // The harness waited for the result, then pushed: the result belongs to the first prompt.
    const s = session("s1", [
      { t: 1, push: "one" },
      { t: 100, out: result(1, "1") },
      { t: 100, push: "two" },
      { t: 200, out: result(1, "2") },
    ]);
    expect(ids(s)).toEqual([]);
    expect(buildTurnTimeline(s).entries.map((e) => e.kind)).toEqual(["push", "result", "push", "result"]);
  });
});
