// resume-orphaned-background-task's check on runs recorded from real releases (test/fixtures/runs/README.md: orphan-red-2.1.234,
// orphan-red-2.1.332 after a SIGKILL stop, orphan-control-2.1.234 with background=false), and on edits of them that take
// the orphan away. The points it must reach (a session missing, the prompt never answered): test/scenarios/checks.test.ts.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("resume-orphaned-background-task")!;
const check = (dir: string, params: Record<string, string> = {}) => {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id), red: result.findings.filter((f) => f.red).map((f) => f.id) };
};

describe("resume-orphaned-background-task's check", () => {
  it.each([
    ["orphan-red-2.1.234", "brbx2p05s", "+0.016s"],
    ["orphan-red-2.1.332", "bmh4w29zr", "+0.006s"],
  ])("%s (SIGKILL): RED prompt-settled-by-extra-result, the zero-work result on line 2 before the answer on line 5", (fixture, task, pushed) => {
    const result = check(recordedRun(fixture));
    expect(result).toMatchObject({ verdict: "RED", red: ["prompt-settled-by-extra-result"] });
    expect(result.findings[0]!.where).toBe(`session s2, stdout lines 2, 5; prompt #1 pushed ${pushed}`);
    expect(result.notes).toEqual([`premise: session s2 reported task ${task} stopped (stdout line 0)`]);
  });

  it("orphan-control-2.1.234 (background=false): GREEN, the first result is the answer", () => {
    expect(check(recordedRun("orphan-control-2.1.234"), { background: "false" })).toMatchObject({ verdict: "GREEN", ids: [], notes: [] });
  });

  it("the control variant judges without the premise: the RED run read with background=false stays RED, with no premise note", () => {
    expect(check(recordedRun("orphan-red-2.1.234"), { background: "false" })).toMatchObject({ verdict: "RED", red: ["prompt-settled-by-extra-result"], notes: [] });
  });

  it("is INCONCLUSIVE when nothing was orphaned (no task_started), its findings kept but not red", () => {
    const dir = copyRun(recordedRun("orphan-red-2.1.234"));
    editJsonLines(dir, "sessions/s1/stdout.jsonl", (lines) => lines.filter((line) => !(line.raw as string).includes('"task_started"')));
    const result = check(dir);
    expect(result).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session s1 never started a background task, so nothing was orphaned" });
    expect(result.ids).toEqual(["prompt-settled-by-extra-result"]);
    expect(result.red).toEqual([]);
  });

  it("is INCONCLUSIVE on the control run read as the default (background=true): no task was started", () => {
    expect(check(recordedRun("orphan-control-2.1.234"))).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session s1 never started a background task, so nothing was orphaned", ids: [] });
  });
});
