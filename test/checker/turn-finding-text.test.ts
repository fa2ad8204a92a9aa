// What each turn finding says, word for word: its title, the stdout lines its `where` cites and its data, as a person
// reading a RED or informational finding sees them.
import { describe, expect, it } from "vitest";
import { checkTurnStructure } from "../../checker/turns.ts";
import { assistant, init, result, session, settledPrompt, taskNotification, unsettledPrompt } from "../fixtures/turns/session.ts";

const cited = (s: Parameters<typeof checkTurnStructure>[0]) =>
  checkTurnStructure(s).map((f) => ({ id: f.id, title: f.title, where: f.where, lines: f.data["lines"] }));

describe("turn finding text", () => {
  it("cites the extra result alone, and the prompt's push, when the prompt never got its answer", () => {
    // A task-notification turn ends while the pushed prompt waits, and the recording stops before any human result.
    const s = session("s1", unsettledPrompt);
    expect(cited(s)).toEqual([
      {
        id: "prompt-settled-by-extra-result",
        title: "prompt #1 got a result it did not ask for before its answer: origin=task-notification num_turns=0 usage=0 (zero work)",
        where: "session s1, stdout line 1; prompt #1 pushed +0.001s",
        lines: [1],
      },
      {
        id: "prompt-never-settled",
        title: "prompt #1 was never settled by a human result",
        where: "session s1, stdout line 1; prompt #1 pushed +0.001s",
        lines: [1],
      },
    ]);
  });

  it("cites only the push of a prompt that got no result at all", () => {
    // The run was cut off mid-turn: the prompt was pushed, the model started, no result was ever written.
    // The `where` has no stdout line to name; the push's time is what locates the prompt.
    const s = session("s1", [
      { t: 1500, push: "hi" },
      { t: 2000, out: init() },
      { t: 3000, out: assistant("thinking") },
    ]);
    const findings = checkTurnStructure(s);
    expect(cited(s)).toEqual([
      {
        id: "prompt-never-settled",
        title: "prompt #1 was never settled by a human result",
        where: "session s1, stdout line prompt #1 pushed +1.500s",
        lines: [],
      },
    ]);
    expect(findings[0]?.data).toEqual({ session: "s1", lines: [], prompt: 1, promptText: "hi", pushedAt: 1500 });
  });

  it("names one stdout line, in the singular, for a result that answers nothing pushed", () => {
    // A task_notification woke the settled session and its turn ended in a result an older release left unstamped.
    const s = session("s1", [
      ...settledPrompt,
      { t: 5000, out: taskNotification("completed") },
      { t: 6000, out: assistant("the task finished") },
      { t: 6010, out: result(1, "the task finished") },
    ]);
    const findings = checkTurnStructure(s);
    expect(cited(s)).toEqual([
      {
        id: "unattributed-result",
        title: "result answers no pushed prompt and cannot be told from a human turn's end: origin=none num_turns=1 usage=50",
        where: "session s1, stdout line 4",
        lines: [4],
      },
    ]);
    expect(findings[0]?.data).toMatchObject({ line: 4, origin: null, numTurns: 1, tokens: 50, text: "the task finished" });
  });

  it("opens a new stretch of root work after each settlement, citing the result that settled it", () => {
    // The model answers, then keeps talking without a push: its second result settles the prompt again, and it
    // talks on after that too. Each stretch belongs to the result right before it.
    const s = session("s1", [
      { t: 1, push: "hi" },
      { t: 100, out: assistant("hello") },
      { t: 110, out: result(1, "hello") },
      { t: 300, out: assistant("more") },
      { t: 310, out: result(1, "more") },
      { t: 500, out: assistant("and more") },
    ]);
    const findings = checkTurnStructure(s);
    expect(cited(s)).toEqual([
      {
        id: "turn-settled-twice",
        title: "prompt #1 settled twice: lines 1 and 3 (second: origin=none num_turns=1 usage=50)",
        where: "session s1, stdout lines 1, 3; prompt #1 pushed +0.001s",
        lines: [1, 3],
      },
      {
        id: "root-work-after-settle",
        title: "root assistant output after result at line 1 settled, with no push or wake-up before it",
        where: "session s1, stdout lines 1, 2",
        lines: [1, 2],
      },
      {
        id: "root-work-after-settle",
        title: "root assistant output after result at line 3 settled, with no push or wake-up before it",
        where: "session s1, stdout lines 3, 4",
        lines: [3, 4],
      },
    ]);
    expect(findings.slice(1).map((f) => [f.data["settledAt"], f.data["workLines"]])).toEqual([
      [1, [2]],
      [3, [4]],
    ]);
  });
});
