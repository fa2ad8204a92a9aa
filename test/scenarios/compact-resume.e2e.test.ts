// compact-resume on a cached release: `/compact` sent as a headless prompt compacts the session (the mock's summary
// is in its transcript), and the resumed request starts from the summary.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "compact-resume";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it("2.1.332: GREEN, the resumed request is the compacted conversation's", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.332");
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result.notes.join("\n")).toMatch(/resumed request #\d+: compacted/);
  });
});
