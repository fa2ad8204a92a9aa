// mid-stream-error-partial's check on the recorded runs of both sides of its boundary (test/fixtures/runs/README.md):
// with a text block streamed before the overloaded_error event, 2.1.245 ends the turn on the error, 2.1.246 keeps the text.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { recordedRun } from "../fixtures/runs/edit-run.ts";

function check(dir: string, params: Record<string, unknown>) {
  const scenario = findScenario("mid-stream-error-partial")!;
  const result = scenario.check(loadRecordings(recordedRun(dir)), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id) };
}

describe("mid-stream-error-partial's check at the 2.1.245 → 2.1.246 boundary (partial=text)", () => {
  it("2.1.245: RED, the turn ended on the error and the partial text was never carried on", () => {
    const red = check("partial-discarded-2.1.245", { partial: "text" });
    expect(red.verdict).toBe("RED");
    expect(red.ids).toEqual(["partial-output-discarded"]);
  });

  it("2.1.246: GREEN, the next request carries the partial text back once", () => {
    const green = check("partial-kept-2.1.246", { partial: "text" });
    expect(green.verdict).toBe("GREEN");
    expect(green.notes?.join(" ")).toMatch(/later: #\d+ step 1/);
  });
});
