// mid-stream-error-partial end to end: with only a text block streamed before the overloaded_error event, 2.1.198 keeps
// the partial in its transcript but ends the turn on the error with no incomplete notice; 2.1.246 resumes the cut reply
// itself. A text block and a whole tool_use: 2.1.332 keeps both and goes on. No release measured discards the partial.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "mid-stream-error-partial";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it.each([
    ["2.1.198", "text", ["cut-reply-not-resumed", "incomplete-notice-missing"]],
    ["2.1.246", "text", []],
    ["2.1.332", "text-and-tool", []],
  ])("on %s with a %s partial is GREEN, informational findings %j", async (release, partial, informational) => {
    const run = await runOnRelease(SCENARIO, release, { partial });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result?.findings.map((f) => f.id)).toEqual(informational);
  });
});
