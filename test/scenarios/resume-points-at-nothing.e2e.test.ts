// resume-points-at-nothing on a cached release: a session given its id with --session-id ends before reading a prompt
// (no transcript), and `-p --resume ID` then fails naming the missing conversation rather than starting a new one.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "resume-points-at-nothing";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it("2.1.332: GREEN, the resume exits 1 with \"No conversation found with session ID\"", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.332");
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result.notes.join("\n")).toMatch(/exit 1, init session none, result error_during_execution .*No conversation found with session ID/);
  });
});
