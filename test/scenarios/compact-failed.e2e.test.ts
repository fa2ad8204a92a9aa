// compact-failed on real releases at both ends of the measured range (cli.js and native): a `/compact` whose summary
// request gets 400 "prompt is too long" on every try records no summary, and the next request keeps the conversation.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "compact-failed";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it.each(["2.1.112", "2.1.332"])("%s: GREEN, the failed compaction leaves the history as it was", async (version) => {
    const run = await runOnRelease(SCENARIO, version);
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result.verdict, verdictMessage(run)).toBe("GREEN");
    const notes = run.record.result.notes.join("\n");
    expect(notes).toMatch(/fault 400-too-long: [1-9]\d* summary request\(s\) .*each http-error 400/);
    expect(notes).toMatch(/first prompt kept/);
  });
});
