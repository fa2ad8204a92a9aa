// continue-latest-interactive on real releases, both sides of its boundary: after two `claude -p` sessions, 2.1.89's
// interactive `claude --continue` carries on the second one and 2.1.90's finds nothing and exits (bisected).
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "continue-latest-interactive";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it("2.1.89 continues the second session: the typed prompt lands in its transcript", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.89");
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result.notes.join("\n")).toMatch(/\(the second's\)/);
  });

  it("2.1.90 finds no conversation to continue and exits: RED continued-nothing", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.90");
    expect(run.record.result.verdict, verdictMessage(run)).toBe("RED");
    expect(run.record.result.findings.map((f) => f.id)).toEqual(["continued-nothing"]);
    expect(run.record.result.findings[0]?.where).toMatch(/exited 1 before its prompt/);
  });
});
