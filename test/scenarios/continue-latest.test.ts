// continue-latest's check on recorded runs of the releases beside the ones its end-to-end test runs (2.1.89, the last
// that continued a `-p` session, and 2.1.100, the last that did not; test/fixtures/runs/README.md says how), and on
// edits of them that change which conversation the continued request carries.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("continue-latest")!;
const check = (dir: string) => scenario.check(loadRecordings(dir), scenario.params.parse({}));
const ids = (dir: string) => check(dir).findings.map((f) => f.id);

describe("continue-latest's check", () => {
  it("2.1.89: GREEN, the continued request carries the second session's turn and keeps its id", () => {
    const result = check(recordedRun("continue-green-2.1.89"));
    expect(result.verdict).toBe("GREEN");
    expect(result.notes.join("\n")).toMatch(/\(the second's\)/);
  });

  it("2.1.100: RED continued-nothing, the continued request holds only the new prompt", () => {
    const result = check(recordedRun("continue-red-2.1.100"));
    expect(result).toMatchObject({ verdict: "RED" });
    expect(result.findings.map((f) => f.id)).toEqual(["continued-nothing"]);
    expect(result.findings[0]!.where).toMatch(/^request #3 /);
  });

  it("is RED continued-wrong-session when the continued request is the first conversation's", () => {
    const dir = copyRun(recordedRun("continue-green-2.1.89"));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((line) => (line.seq === 3 && line.kind === "request" ? { ...line, stream: "first" } : line)));
    expect(ids(dir)).toEqual(["continued-wrong-session"]);
  });

  it("is INCONCLUSIVE when the continued session sent only side requests", () => {
    const dir = copyRun(recordedRun("continue-red-2.1.100"));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((line) => (line.seq === 3 && line.kind === "request" ? { ...line, stream: "side" } : line)));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", findings: [] });
  });
});
