// api-retry-after on 2.1.332: a 429 with a short retry-after (2 s: the wait is spent for real, so the test keeps it
// short) and two 529s are retried until the API answers; a 429 with retry-after: 61 is not retried at all.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "api-retry-after";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it.each([
    [{ status: "429", retryAfter: 2 }, "GREEN"],
    [{ status: "529", times: 2 }, "GREEN"],
    [{ status: "429", retryAfter: 61 }, "RED"],
  ])("on 2.1.332 with %o is %s", async (params, verdict) => {
    const run = await runOnRelease(SCENARIO, "2.1.332", params);
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe(verdict);
    if (verdict === "RED") expect(run.record.result?.findings.map((f) => f.id)).toEqual(["retryable-error-not-retried"]);
  });
});
