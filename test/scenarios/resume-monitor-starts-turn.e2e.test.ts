// resume-monitor-starts-turn on real releases: after a SIGKILL with a Monitor running, 2.1.218's resumed UI asks the
// API by itself (anthropics/claude-code#80373's release); 2.1.332's waits for the typed prompt.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "resume-monitor-starts-turn";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it("2.1.218 starts a turn on resume before anything is typed: RED resume-starts-turn-unprompted", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.218");
    expect(run.record.result.verdict, verdictMessage(run)).toBe("RED");
    expect(run.record.result.findings.map((f) => f.id)).toEqual(["resume-starts-turn-unprompted"]);
  });

  it("2.1.332 waits for the typed prompt", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.332");
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result.verdict, verdictMessage(run)).toBe("GREEN");
  });
});
