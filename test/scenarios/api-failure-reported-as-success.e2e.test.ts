// api-failure-reported-as-success on real releases: a 403 on 2.1.233 (the #79500 comment's trigger and release) and
// a 400 on 2.1.332 end with a result line saying subtype "success" beside is_error true (RED), and exit 1; in text
// mode 2.1.332 exits 1 (GREEN); a stream cut right after a tool_use block, with no message_stop, is acted on and
// reported as success, exit 0.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "api-failure-reported-as-success";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it("is RED on 2.1.233 for a 403: subtype success beside is_error true", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.233", { fault: "403" });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("RED");
    expect(run.record.result?.findings.map((f) => f.id)).toEqual(["result-subtype-success"]);
  });

  it("is RED on 2.1.332 for a 400: subtype success beside is_error true, exit 1", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.332", { fault: "400" });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("RED");
    expect(run.record.result?.findings.map((f) => f.id)).toEqual(["result-subtype-success"]);
  });

  it("is GREEN on 2.1.332 for a 400 in text mode: exit 1", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.332", { fault: "400", output: "text" });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
  });

  it("is RED on 2.1.332 for a stream cut after a tool_use block: success, is_error false and exit 0", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.332", { fault: "cut-after-tool-use" });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("RED");
    expect(run.record.result?.findings.map((f) => f.id)).toEqual(["result-subtype-success", "result-is-error-false", "failure-exits-zero"]);
  });
});
