// max-turns-count's check on the two sides of its bisected boundary, recorded from real releases (test/fixtures/runs
// README): 2.1.87 ends --max-turns 2 with error_max_turns but is_error false; 2.1.88 flags it.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("max-turns-count")!;
const check = (name: string) => scenario.check(loadRecordings(recordedRun(name)), scenario.params.parse({ maxTurns: 2 }));

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
});
