// Seed 000 on real releases: after SIGKILL orphans a background task, --resume settles the new prompt early.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "resume-orphaned-background-task";

describe.each(["2.1.234", "2.1.332"])(`${SCENARIO} on %s`, { timeout: E2E_TIMEOUT_MS }, (version) => {
  it("is RED with SIGKILL: a zero-work task-notification result comes before the answer", async () => {
    const run = await runOnRelease(SCENARIO, version, { stop: "sigkill", grace: 1000 });
    const { record } = run;
    expect(record.result?.verdict, verdictMessage(run)).toBe("RED");
    const extra = record.result!.findings.find((f) => f.id === "prompt-settled-by-extra-result");
    expect(extra?.red).toBe(true);
    expect(extra?.data).toMatchObject({ origin: "task-notification", numTurns: 0 });
    expect(record.sessions.map((s) => s.sessionId)).toEqual([record.sessions[0]!.sessionId, record.sessions[0]!.sessionId]);
  });

  it("is GREEN in the control variant without a background task", async () => {
    const run = await runOnRelease(SCENARIO, version, { background: false, grace: 1000 });
    const { record } = run;
    expect(record.result?.verdict, verdictMessage(run)).toBe("GREEN");
    expect(record.result?.findings.filter((f) => f.red)).toEqual([]);
  });
});
