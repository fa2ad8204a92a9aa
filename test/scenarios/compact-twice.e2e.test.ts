// compact-twice on real releases, both sides of both boundaries (bisected): from 2.1.153 a second `/compact` in one
// process re-appends the rows the first one summarised, with their uuids (anthropics/claude-code#92089); 2.1.310
// stops it.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "compact-twice";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it.each(["2.1.152", "2.1.310"])("%s: GREEN, no row of before the first boundary is written again", async (version) => {
    const run = await runOnRelease(SCENARIO, version);
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result.notes.join("\n")).toMatch(/boundaries at lines \d+ and \d+.*; repeated uuids: 0 copied across the first boundary/);
  });

  it.each(["2.1.153", "2.1.309"])("%s: RED rows-reappended, the second compaction copies the first one's rows", async (version) => {
    const run = await runOnRelease(SCENARIO, version);
    expect(run.record.result.verdict, verdictMessage(run)).toBe("RED");
    expect(run.record.result.findings.map((f) => f.id)).toContain("rows-reappended");
    expect(run.record.result.notes.join("\n")).toMatch(/repeated uuids: [1-9]\d* copied across the first boundary/);
  });
});
