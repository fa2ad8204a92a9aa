// The turn grammar's edges: what counts as zero work and as a human result, which events wake a settled session, where
// a stretch of root work ends, whose turn assistant output belongs to, and prompts a session never had.
import { describe, expect, it } from "vitest";
import { checkTurnGrammar, checkTurnStructure, promptAnswer, promptAnswered } from "../../checker/turns.ts";
import { buildTurnTimeline } from "../../checker/turn-timeline.ts";
import { assistant, init, result, session, settledPrompt, taskNotification } from "../fixtures/turns/session.ts";

const ids = (s: Parameters<typeof checkTurnStructure>[0]) => checkTurnStructure(s).map((f) => f.id);

// A result with every field chosen by hand; `numTurns` undefined leaves num_turns out.
function rawResult(numTurns: number | undefined, tokens: number, text: string, origin: string | null) {
  return {
    type: "result",
    subtype: "success",
    is_error: false,
    ...(numTurns === undefined ? {} : { num_turns: numTurns }),
    result: text,
    usage: { input_tokens: tokens, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    session_id: "s",
    ...(origin === null ? {} : { origin: { kind: origin } }),
  };
}

const taskProgress = () => ({ type: "system", subtype: "task_progress", task_id: "bwne9754n", status: "running" });
const toolResult = () => ({ type: "user", message: { content: [{ type: "tool_result" }] }, parent_tool_use_id: null });

describe("zero work", () => {
  it("needs no turns, no tokens and no text at once; an unknown turn count is not zero", () => {
    // Task-notification turns ending while the prompt waits, each short of zero work in one way, then the answer.
    const s = session("s1", [
      { t: 1, push: "hi" },
      { t: 10, out: rawResult(0, 0, "", "task-notification") },
      { t: 20, out: rawResult(1, 0, "", "task-notification") },
      { t: 30, out: rawResult(0, 30, "", "task-notification") },
      { t: 40, out: rawResult(0, 0, "Compacted", "task-notification") },
      { t: 50, out: rawResult(undefined, 0, "", "task-notification") },
      { t: 900, out: assistant("hello") },
      { t: 950, out: result(1, "hello") },
    ]);
    const head = "prompt #1 got a result it did not ask for before its answer: origin=task-notification";
    expect(checkTurnStructure(s).map((f) => [f.data["line"], f.data["zeroWork"], f.title])).toEqual([
      [0, true, `${head} num_turns=0 usage=0 (zero work)`],
      [1, false, `${head} num_turns=1 usage=0`],
      [2, false, `${head} num_turns=0 usage=30`],
      [3, false, `${head} num_turns=0 usage=0`],
      [4, false, `${head} num_turns=? usage=0`],
    ]);
  });

  it("settles its prompt after an init when no human result follows it before the next push", () => {
    // A resumed session's local command: init, then a result with no model work; the next prompt is answered normally.
    const s = session("s1", [
      { t: 1, push: "/clear" },
      { t: 5, out: init() },
      { t: 20, out: result(0, "") },
      { t: 30, push: "hi" },
      { t: 500, out: assistant("hello") },
      { t: 550, out: result(1, "hello") },
    ]);
    expect(ids(s)).toEqual([]);
    expect(promptAnswer(buildTurnTimeline(s), 1)?.line).toBe(3);
  });

  it("settles its prompt when only a task-notification turn follows it before the next push", () => {
    // A local command settles, then a background task's own turn runs and ends; neither is the prompt's answer.
    const s = session("s1", [
      { t: 1, push: "/clear" },
      { t: 20, out: result(0, "") },
      { t: 100, out: taskNotification("completed") },
      { t: 101, out: init() },
      { t: 150, out: assistant("the task finished") },
      { t: 160, out: result(1, "the task finished", "task-notification") },
      { t: 300, push: "hi" },
      { t: 800, out: assistant("hello") },
      { t: 850, out: result(1, "hello") },
    ]);
    expect(ids(s)).toEqual([]);
    expect(promptAnswer(buildTurnTimeline(s), 1)?.line).toBe(6);
  });
});

describe("human results", () => {
  it("takes a result stamped with origin human as the prompt's answer", () => {
    // Releases that stamp every result: a human turn's end says so.
    const s = session("s1", [
      { t: 1, push: "hi" },
      { t: 5, out: init() },
      { t: 900, out: assistant("hello") },
      { t: 950, out: result(1, "hello", "human") },
    ]);
    expect(checkTurnStructure(s)).toEqual([]);
    expect(promptAnswer(buildTurnTimeline(s), 0)?.line).toBe(2);
  });
});

describe("root work after a settle", () => {
  it("is neither woken nor split by a background task's progress events", () => {
    // A background task reports progress while the settled session talks on: the progress neither excuses the output
    // nor starts a second stretch.
    const s = session("s1", [
      ...settledPrompt,
      { t: 300, out: assistant("unsolicited") },
      { t: 400, out: taskProgress() },
      { t: 500, out: assistant("still going") },
    ]);
    const findings = checkTurnStructure(s);
    expect(findings.map((f) => [f.id, f.data["settledAt"], f.data["workLines"]])).toEqual([
      ["root-work-after-settle", 1, [2, 4]],
    ]);
  });

  it("does not count a progress event alone as a wake-up", () => {
    const s = session("s1", [
      ...settledPrompt,
      { t: 400, out: taskProgress() },
      { t: 500, out: assistant("unsolicited") },
    ]);
    expect(checkTurnStructure(s).map((f) => [f.id, f.data["settledAt"], f.data["workLines"]])).toEqual([
      ["root-work-after-settle", 1, [3]],
    ]);
  });

  it("belongs to a task-notification turn when that turn's result comes after tool calls, not straight after it", () => {
    // The notification turn checks the task's output with a tool before it answers.
    const s = session("s1", [
      ...settledPrompt,
      { t: 6000, out: assistant("checking the task") },
      { t: 6001, out: toolResult() },
      { t: 6002, out: assistant("the task finished") },
      { t: 6010, out: result(2, "the task finished", "task-notification") },
    ]);
    expect(ids(s)).toEqual([]);
  });

  it("counts output straight after a task-notification turn's result as root work after that result", () => {
    // The notification turn ended, yet the model talks on with nothing pushed and nothing woken.
    const s = session("s1", [
      ...settledPrompt,
      { t: 5000, out: taskNotification("completed") },
      { t: 6000, out: assistant("the task finished") },
      { t: 6010, out: result(1, "the task finished", "task-notification") },
      { t: 7000, out: assistant("unsolicited") },
    ]);
    expect(checkTurnStructure(s).map((f) => [f.id, f.data["settledAt"], f.data["workLines"]])).toEqual([
      ["root-work-after-settle", 4, [5]],
    ]);
  });

  it("is not reported before anything settled, even with no push or init recorded", () => {
    // A recording whose start was lost: output with nothing before it has no settled turn to work after.
    const s = session("s1", [
      { t: 100, out: assistant("hello") },
      { t: 200, out: assistant("still here") },
    ]);
    expect(checkTurnStructure(s)).toEqual([]);
  });
});

describe("prompts a session never had", () => {
  it("are unanswered, not an error", () => {
    // A scenario waiting for its second prompt's answer while the session has so far seen only the first.
    const s = session("s1", [
      { t: 1, push: "hi" },
      { t: 900, out: assistant("hello") },
      { t: 950, out: result(1, "hello") },
    ]);
    expect(promptAnswer(buildTurnTimeline(s), 1)).toBeNull();
    expect(promptAnswered(s, 1)).toBe(false);
    expect(checkTurnGrammar(s, { prompt: 1 }).reached.ok).toBe(false);
    expect(checkTurnGrammar(s, { prompt: 0 })).toEqual({ reached: { ok: true }, findings: [], notes: [] });
  });
});

describe("a result with nothing before it", () => {
  it("is unattributed even with no init to wake the session: no prompt was settled that it could settle again", () => {
    const s = session("s1", [
      { t: 10, out: result(0, "") },
      { t: 100, push: "hi" },
      { t: 900, out: assistant("hello") },
      { t: 950, out: result(1, "hello") },
    ]);
    expect(checkTurnStructure(s).map((f) => [f.id, f.data["line"]])).toEqual([["unattributed-result", 0]]);
  });
});
