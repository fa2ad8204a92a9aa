// api-failure-reported-as-success on 2.1.332: a 400 on every try is reported as an error (exit 1); a stream cut
// right after a tool_use block, with no message_stop, is acted on and reported as success (exit 0).
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "api-failure-reported-as-success";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it("is GREEN on 2.1.332 for a 400: is_error true and exit 1", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.332", { fault: "400" });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
  });

  it("is RED on 2.1.332 for a stream cut after a tool_use block: success and exit 0", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.332", { fault: "cut-after-tool-use" });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("RED");
    expect(run.record.result?.findings.map((f) => f.id).sort()).toEqual(["failure-exits-zero", "failure-reported-as-success"]);
  });
});
