// nonstreaming-fallback-replay on 2.1.332: a stream dropped right after its tool_use block is retried, the tool runs once.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

describe("nonstreaming-fallback-replay", { timeout: E2E_TIMEOUT_MS }, () => {
  it("is GREEN on 2.1.332 with a dropped connection: one run of the tool, no duplicate ids", async () => {
    const run = await runOnRelease("nonstreaming-fallback-replay", "2.1.332", { cut: "drop" });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result?.notes.join(" ")).toMatch(/tool ran 1×/);
  });
});
