// continue-latest on real releases, both sides of both boundaries: 2.1.90 stopped `claude -p --continue` from finding
// the `-p` sessions before it (anthropics/claude-code#43013) and 2.1.101 made it find them again (bisected). The other
// sides, 2.1.89 and 2.1.100, are recorded runs that test/scenarios/continue-latest.test.ts re-checks.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "continue-latest";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it.each(["2.1.101"])("%s continues the second session, keeping its id", async (version) => {
    const run = await runOnRelease(SCENARIO, version);
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result.notes.join("\n")).toMatch(/\(the second's\)/);
  });

  it.each(["2.1.90"])("%s starts a new conversation instead: RED continued-nothing", async (version) => {
    const run = await runOnRelease(SCENARIO, version);
    expect(run.record.result.verdict, verdictMessage(run)).toBe("RED");
    expect(run.record.result.findings.map((f) => f.id)).toEqual(["continued-nothing"]);
    expect(run.record.result.notes.join("\n")).toMatch(/\(a new one\)/);
  });
});
