// mid-stream-error-partial end to end: with only a text block streamed before the overloaded_error event, 2.1.112 ends
// the turn on the error (exit 1) and never carries the text on; 2.1.332 keeps it and goes on.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "mid-stream-error-partial";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it.each([
    ["2.1.112", "text", "RED"],
    ["2.1.332", "text", "GREEN"],
    ["2.1.332", "text-and-tool", "GREEN"],
  ])("on %s with a %s partial is %s", async (release, partial, verdict) => {
    const run = await runOnRelease(SCENARIO, release, { partial });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe(verdict);
    if (verdict === "RED") expect(run.record.result?.findings.map((f) => f.id)).toEqual(["partial-output-discarded"]);
  });
});
