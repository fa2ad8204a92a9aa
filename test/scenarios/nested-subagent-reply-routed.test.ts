// nested-subagent-reply-routed's check on a recorded 2.1.247 run that lost the child's answer, and on a recorded
// 2.1.332 run (test/fixtures/runs README), where the background
// child, resumed by its busy parent's SendMessage follow-up (child request #7), answers and the answer reaches the
// parent (sub request #8); and on edits of that run for the outcomes older releases give (the child's first task or
// its answer lost) and for the reported one no run showed (the answer reaching the root).
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("nested-subagent-reply-routed")!;
const FIXTURE = "nested-reply-routed-2.1.332";
const body = (seq: number) => `mock/requests/${String(seq).padStart(6, "0")}.body`;
const judge = (dir: string) => {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse({}));
  return { ...result, ids: result.findings.map((f) => f.id), wheres: result.findings.map((f) => f.where) };
};
// A copy of the recorded run with `from` replaced by `to` in the bodies of the requests named.
const edited = (seqs: number[], from: string, to: string) => {
  const dir = copyRun(recordedRun(FIXTURE));
  for (const seq of seqs) editFile(dir, body(seq), (text) => text.split(from).join(to));
  return dir;
};

describe("nested-subagent-reply-routed's check", () => {
  it("2.1.332: GREEN — the follow-up in child request #7, the answer in the parent's request #8", () => {
    expect(judge(recordedRun(FIXTURE))).toMatchObject({ verdict: "GREEN", ids: [], notes: ["follow-up in child request #7 (with the child's first task); answer in sub request #8"] });
  });

  it("2.1.247 (a RED run of a flaky release): RED nested-reply-lost — the child answered, no request carries the answer", () => {
    const result = judge(recordedRun("nested-reply-lost-2.1.247"));
    expect(result).toMatchObject({ verdict: "RED", ids: ["nested-reply-lost"], wheres: ["child request #6"] });
    expect(result.findings[0]!.title).toBe("the child answered the follow-up, and no agent's request carried the answer");
    expect(result.notes).toEqual(["follow-up in child request #6 (with the child's first task); answer in no request"]);
  });

  it("INCONCLUSIVE when no request but the root's and the parent's carries the follow-up (the child was never woken)", () => {
    // The parent's own requests (#6, #8) quote it too; they do not count.
    const result = judge(edited([7], "NEST_FOLLOW_UP_6J", "NEST_OTHER_6J"));
    expect(result).toMatchObject({ verdict: "INCONCLUSIVE", ids: [], reason: "no request of the child carried the parent's SendMessage follow-up" });
  });

  it("RED nested-child-task-lost when the woken child's request no longer holds its first task", () => {
    const result = judge(edited([7], "NEST_CHILD_6J first task", "NEST_CHILD_6J"));
    expect(result).toMatchObject({ verdict: "RED", ids: ["nested-child-task-lost"], wheres: ["request #7"] });
    expect(result.findings[0]!.title).toBe("the child, resumed by its parent's follow-up, no longer has its first task in its history");
    expect(result.notes).toEqual(["follow-up in child request #7 (without the child's first task); answer in sub request #8"]);
  });

  it("RED nested-reply-lost when the child kept its task and no request carries its answer", () => {
    const result = judge(edited([8], "<result>NEST_ANSWER_TWO_6J", "<result>something else"));
    expect(result).toMatchObject({ verdict: "RED", ids: ["nested-reply-lost"], wheres: ["child request #7"] });
    expect(result.notes).toEqual(["follow-up in child request #7 (with the child's first task); answer in no request"]);
  });

  it("RED nested-reply-misrouted when the answer reaches the root's stream instead of the parent's", () => {
    const dir = copyRun(recordedRun(FIXTURE));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((line) => (line.kind === "request" && line.seq === 8 ? { ...line, stream: "main" } : line)));
    const result = judge(dir);
    expect(result).toMatchObject({ verdict: "RED", ids: ["nested-reply-misrouted"], wheres: ["request #8"] });
    expect(result.findings[0]!.title).toBe("the child's answer reached the main stream, not its parent");
    expect(result.notes).toEqual(["follow-up in child request #7 (with the child's first task); answer in main request #8"]);
  });

  it("takes the first request that quotes the follow-up and the first that carries the answer", () => {
    // The answer also in the child's own request #7 (an earlier one): that is where the check says it arrived.
    const dir = edited([7], "NEST_FOLLOW_UP_6J answer again", "NEST_FOLLOW_UP_6J answer again <result>NEST_ANSWER_TWO_6J");
    const result = judge(dir);
    expect(result).toMatchObject({ verdict: "RED", ids: ["nested-reply-misrouted"] });
    expect(result.notes).toEqual(["follow-up in child request #7 (with the child's first task); answer in child request #7"]);
  });
});
