// max-turns-count's check on the two sides of its bisected boundary, recorded from real releases (test/fixtures/runs
// README): 2.1.87 ends --max-turns 2 with error_max_turns but is_error false; 2.1.88 flags it. With a compaction
// inside the limit (compactAt=2, maxTurns=5), 2.1.72 compacts and still stops at 5 loop calls (no overrun), and
// 2.1.332 never compacts (INCONCLUSIVE); edits of those runs give the findings no release gave.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("max-turns-count")!;
const judge = (dir: string, params: Record<string, unknown>) => {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id) };
};
const check = (name: string) => judge(recordedRun(name), { maxTurns: 2 });
const COMPACTED = "max-turns-compacted-2.1.72";
const compacted = { maxTurns: 5, compactAt: 2 };
// Edits the result line only (tool results earlier in stdout carry is_error too).
const editResult = (dir: string, from: string, to: string) =>
  editJsonLines(dir, "sessions/s1/stdout.jsonl", (lines) => lines.map((line) => (String(line.raw).includes('"type":"result"') ? { ...line, raw: String(line.raw).replace(from, to) } : line)));

describe("max-turns-count's check", () => {
  it("2.1.87: RED max-turns-not-flagged — two requests as asked, but the limit's result says is_error false", () => {
    const result = check("max-turns-unflagged-2.1.87");
    expect(result.verdict).toBe("RED");
    expect(result.findings.map((f) => f.id)).toEqual(["max-turns-not-flagged"]);
    expect(result.notes?.[0]).toContain("2 main requests; result error_max_turns is_error=false num_turns=3");
  });

  it("2.1.88: GREEN — two requests, error_max_turns with is_error true", () => {
    const result = check("max-turns-flagged-2.1.88");
    expect(result.verdict).toBe("GREEN");
    expect(result.notes?.[0]).toContain("2 main requests; result error_max_turns is_error=true num_turns=3");
  });

  it("2.1.72 with a compaction after call 2: no overrun (5 loop calls for --max-turns 5), RED max-turns-not-flagged only", () => {
    const result = judge(recordedRun(COMPACTED), compacted);
    expect(result).toMatchObject({ verdict: "RED", ids: ["max-turns-not-flagged"] });
    expect(result.findings[0]!.title).toBe("the limit ended the run but the result says is_error=false (errors: [])");
    expect(result.findings[0]!.where).toBe("s1 stdout line 15");
    expect(result.notes).toEqual(["5 main requests (1 summary requests besides); result error_max_turns is_error=false num_turns=6 terminal_reason=none"]);
  });

  it("counts the calls after the compaction (the compacted stream) with the main ones: RED max-turns-overrun for a limit of 4", () => {
    const result = judge(recordedRun(COMPACTED), { maxTurns: 4, compactAt: 2 });
    expect(result).toMatchObject({ verdict: "RED", ids: ["max-turns-overrun", "max-turns-not-flagged"] });
    expect(result.findings[0]!.title).toBe("5 model calls for --max-turns 4");
    expect(result.findings[0]!.where).toBe("requests #1, #2, #4, #5, #6");
  });

  it("2.1.332 asked to compact: INCONCLUSIVE, no summary request", () => {
    expect(judge(recordedRun("max-turns-not-compacted-2.1.332"), compacted)).toMatchObject({ verdict: "INCONCLUSIVE", ids: [], reason: "claude never asked for a summary after call 2 reported 190 000 input tokens" });
  });

  it("without compactAt the same 2.1.332 run is judged on its calls alone: GREEN", () => {
    const result = judge(recordedRun("max-turns-not-compacted-2.1.332"), { maxTurns: 5 });
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes?.[0]).toMatch(/^5 main requests; result error_max_turns is_error=true num_turns=6 /);
  });

  it("RED max-turns-unreported when the result is not error_max_turns (and is_error is then not judged)", () => {
    const dir = copyRun(recordedRun(COMPACTED));
    editResult(dir, '"subtype":"error_max_turns"', '"subtype":"success"');
    const result = judge(dir, compacted);
    expect(result).toMatchObject({ verdict: "RED", ids: ["max-turns-unreported"] });
    expect(result.findings[0]!.title).toBe("the result says success, not error_max_turns");
    expect(result.findings[0]!.where).toBe("s1 stdout line 15");
  });

  it("GREEN when the limit's result is flagged is_error true", () => {
    const dir = copyRun(recordedRun(COMPACTED));
    editResult(dir, '"is_error":false', '"is_error":true');
    expect(judge(dir, compacted)).toMatchObject({ verdict: "GREEN", ids: [] });
  });

  it("INCONCLUSIVE when claude -p printed no result", () => {
    const dir = copyRun(recordedRun(COMPACTED));
    editJsonLines(dir, "sessions/s1/stdout.jsonl", (lines) => lines.filter((line) => !String(line.raw).includes('"type":"result"')));
    expect(judge(dir, compacted)).toMatchObject({ verdict: "INCONCLUSIVE", ids: [], reason: "claude -p printed no result" });
  });

  it("max-turns-not-flagged quotes the result's errors, [] when it has none", () => {
    const listed = copyRun(recordedRun("max-turns-unflagged-2.1.87"));
    editResult(listed, '"errors":[]', '"errors":["Reached maximum number of turns (2)"]');
    expect(judge(listed, { maxTurns: 2 }).findings[0]!.title).toBe('the limit ended the run but the result says is_error=false (errors: ["Reached maximum number of turns (2)"])');
    const absent = copyRun(recordedRun("max-turns-unflagged-2.1.87"));
    editResult(absent, '"errors":[]', '"errors_elsewhere":[]');
    expect(judge(absent, { maxTurns: 2 }).findings[0]!.title).toBe("the limit ended the run but the result says is_error=false (errors: [])");
  });
});
