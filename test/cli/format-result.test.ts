// The text output folds each stream's cache notes to one line, on recorded runs (test/fixtures/runs): costly
// boundaries named with what they cost, every other note kept in its place, and notes the audit did not write kept.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { foldCacheNotes, formatCheckResult } from "../../cli/format-result.ts";
import { checkRecordedRunAudited } from "../../pipeline/check-recorded-run.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";

const run = (name: string) => checkRecordedRunAudited(path.join(import.meta.dirname, "..", "fixtures", "runs", name), scenarioByName);

describe("foldCacheNotes", () => {
  it("2.1.69: both process resumes in one line, each costly one named with its cost and where the read stopped", () => {
    const { result, cache } = run("print-resume-red-2.1.69");
    expect(result.notes).toHaveLength(3);
    expect(foldCacheNotes(result.notes, cache)).toEqual([
      "cache (main): 4 requests, 65% of estimated input tokens read from cache; 2 process resumes (2 prompts) read 3946 of 4881 readable tokens (81%): " +
        "#1 req 2 → req 3 costs ~444 tokens (no-breakpoint-before-change at messages[1].content[0]), " +
        "#2 req 3 → req 4 costs ~491 tokens (no-breakpoint-before-change at messages[5].content); breakpoints: 3 placements (--json lists them)",
    ]);
  });

  it("2.1.281: keeps the scenario's own note before it and the audit's missing-body note after it", () => {
    const { result, cache } = run("notification-changed-2.1.281");
    const folded = foldCacheNotes(result.notes, cache);
    expect(folded).toEqual([
      result.notes[0],
      "cache (sub): 2 requests, 40% of estimated input tokens read from cache; 1 continuation (1 task notification) read 12246 of 15227 readable tokens (80%): " +
        "#1 req 6 → req 8 costs ~2981 tokens (no-breakpoint-before-change at messages[4].content[0]); breakpoints: system[1] system[2] messages[-1].content[0]",
      "cache: 7 request bodies not recorded (req 1, 2, 3, 4, 5, 7, 9); the replay leaves them out",
    ]);
    expect(result.notes[0]).toMatch(/^continuation 1 \(sub, task notification\): req 6 → req 8, 1 notification compared/);
  });

  it("keeps notes the audit did not write (e.g. a run.json judged with older wording), and all of them without an audit", () => {
    const { result, cache } = run("print-resume-red-2.1.69");
    const older = ["cache: stop boundary 1 (main): req 2 → req 3 costs ~444 tokens", ...result.notes];
    expect(foldCacheNotes(older, cache)[0]).toBe(older[0]);
    expect(foldCacheNotes(older, cache)).toHaveLength(2);
    expect(foldCacheNotes(result.notes, null)).toEqual(result.notes);
  });

  it("prints the folded line where the notes were, with the findings after it", () => {
    const { result, cache } = run("print-resume-red-2.1.69");
    const lines = formatCheckResult(result, "RUN", { cache, context: ["check: from somewhere"] }).split("\n");
    expect(lines.slice(0, 3)).toEqual(["RED: resume-reads-less-than-readable, resume-reads-less-than-readable, resume-reads-never-grow", "  run: RUN", "  check: from somewhere"]);
    expect(lines[3]).toMatch(/^ {2}cache \(main\): 4 requests/);
    expect(lines[4]).toMatch(/^ {2}✗ resume-reads-less-than-readable/);
    expect(lines.filter((l) => l.includes("cache: "))).toEqual([]);
  });
});
