// compact-resume on a cached release: `/compact` sent as a headless prompt compacts the session (the mock's summary
// is in its transcript), and the resumed request starts from the summary; in the UI (#14462's trigger: /compact, Ctrl-C
// twice, a second UI resumes it) on #14462's own release, 2.0.72, the same.
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

  it("2.0.72 in the UI (--driver terminal): GREEN, the resumed request is the compacted conversation's", async () => {
    const run = await runOnRelease(SCENARIO, "2.0.72", {}, { driver: "terminal" });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result.notes.join("\n")).toMatch(/resumed request #\d+: compacted, 3 messages/);
  });
});
