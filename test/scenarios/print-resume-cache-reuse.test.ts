// print-resume-cache-reuse's check on runs recorded from real releases (test/fixtures/runs/README.md says how): 2.1.68,
// which #34629 calls working (a small loss on resume, reads that grow), 2.1.69 (#34629: reads stuck at tools + system),
// 2.1.94 (the first fixed release), and edits of them. More edges of the same check: test/scenarios/checks.test.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("print-resume-cache-reuse")!;
const check = (dir: string) => {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse({}));
  return { ...result, ids: result.findings.map((f) => f.id) };
};

describe("print-resume-cache-reuse's check", () => {
  it("2.1.68: RED resume-reads-less-than-readable at both resumes, but the reads grow, so no resume-reads-never-grow", () => {
    const result = check(recordedRun("print-resume-small-2.1.68"));
    expect(result.verdict).toBe("RED");
    expect(result.ids).toEqual(["resume-reads-less-than-readable", "resume-reads-less-than-readable"]);
    expect(result.findings.map((f) => f.data)).toEqual([{ cost: 229 }, { cost: 79 }]);
    expect(result.findings[0]!.detail).toEqual([
      "process resume 1 (main, prompt): req 2 → req 3: the resumed request reads ~4245 tokens from cache where ~4474 were readable (changed-block at messages[0].content[0])",
    ]);
    expect(result.findings.every((f) => f.red)).toBe(true);
    expect(result.findings[1]).toMatchObject({
      title: "a resumed request reads less of the previous conversation from the cache than a correct client makes readable",
      where: "process resume 2 (main, prompt): req 3 → req 4",
    });
  });

  it("2.1.69: RED resume-reads-never-grow, the last resume reading what the first did (#34629's symptom)", () => {
    const result = check(recordedRun("print-resume-red-2.1.69"));
    expect(result.verdict).toBe("RED");
    expect(result.ids).toEqual(["resume-reads-less-than-readable", "resume-reads-less-than-readable", "resume-reads-never-grow"]);
    const never = result.findings.find((f) => f.id === "resume-reads-never-grow")!;
    expect(never).toMatchObject({
      red: true,
      where: "process resume 2 (main, prompt): req 3 → req 4",
      detail: ["tokens read per resume, of those readable: ~1973 of ~2417, ~1973 of ~2464"],
      data: { reads: [1973, 1973] },
    });
    expect(never.title).toMatch(/never grow/);
  });

  it("2.1.94: GREEN, each resume reads all the previous turn wrote", () => {
    const result = check(recordedRun("print-resume-green-2.1.94"));
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes.slice(1)).toEqual([
      "cache: process resume 1 (main, prompt): req 2 → req 3 reads all 5031 readable tokens",
      "cache: process resume 2 (main, prompt): req 3 → req 4 reads all 5078 readable tokens",
    ]);
  });

  it("with one resume only, the loss it shows is RED, and one resume alone is no resume-reads-never-grow", () => {
    const dir = copyRun(recordedRun("print-resume-red-2.1.69"));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.filter((line) => line.seq !== 4));
    const result = check(dir);
    expect(result).toMatchObject({ verdict: "RED", ids: ["resume-reads-less-than-readable"] });
    expect(result.findings[0]!.where).toBe("process resume 1 (main, prompt): req 2 → req 3");
  });

  it("judges process resumes only: a turn continued in the same process is no resume, and its loss no finding", () => {
    // Session p2's process said to live on past request 4, and p3's to start after it: 3 → 4 becomes an in-process
    // continuation of p2 (requests belong to the process alive when they arrive).
    const dir = copyRun(recordedRun("print-resume-red-2.1.69"));
    const fourAt = fs.readFileSync(path.join(dir, "mock", "index.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { seq: number; kind: string; receivedAt: number }).find((l) => l.seq === 4 && l.kind === "request")!.receivedAt;
    const retime = (label: string, key: "startedAt" | "endedAt") =>
      editFile(dir, `sessions/${label}/session.json`, (text) => JSON.stringify({ ...(JSON.parse(text) as object), [key]: fourAt + 1000 }));
    retime("p2", "endedAt");
    retime("p3", "startedAt");
    const result = check(dir);
    expect(result).toMatchObject({ verdict: "RED", ids: ["resume-reads-less-than-readable"] });
    expect(result.findings[0]!.where).toBe("process resume 1 (main, prompt): req 2 → req 3");
    expect(result.notes.join("\n")).toMatch(/continuation/);
  });
});
