// hook-decision-enforced's check on both sides of its bisected boundary, recorded from real releases
// (test/fixtures/runs README): a PreToolUse hook that answers `ask` under -p with bypassed permissions let the Bash
// write run up to 2.1.84; from 2.1.85 the call is refused and the model is told the hook's reason.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("hook-decision-enforced")!;
const check = (name: string) => {
  const result = scenario.check(loadRecordings(recordedRun(name)), scenario.params.parse({ how: "ask" }));
  return { ...result, ids: result.findings.map((f) => f.id) };
};

describe("hook-decision-enforced's check", () => {
  it("2.1.84: RED denied-write-ran — the hook answered ask, the write ran anyway (sentinel.txt in the working directory)", () => {
    const result = check("hook-ask-ran-2.1.84");
    expect(result).toMatchObject({ verdict: "RED", ids: ["denied-write-ran"] });
    expect(result.notes?.[0]).toContain("(Bash completed with no output)");
  });

  it("2.1.85: GREEN — no sentinel, and the tool result carries the hook's reason", () => {
    const result = check("hook-ask-denied-2.1.85");
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes?.[0]).toContain("writes are not allowed here");
  });
});
