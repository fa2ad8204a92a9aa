// Seed 003 on real releases: the two cells the bug report's facts pin down, each a short run (≈6 s plus a first fetch).
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "hook-task-notification-prompt";

const CELLS = [
  { version: "2.1.281", when: "mid-turn", findings: ["synthetic-prompt-indistinguishable", "prompt-id-reused"] },
  { version: "2.1.234", when: "after-turn", findings: ["synthetic-prompt-indistinguishable"] },
];

describe(`${SCENARIO} on real releases`, { timeout: E2E_TIMEOUT_MS }, () => {
  it.each(CELLS)("$version when=$when is RED: a hook sees the notification as a typed prompt", async ({ version, when, findings }) => {
    const run = await runOnRelease(SCENARIO, version, { when });
    const { record } = run;
    const { result } = record;
    expect(result.verdict, verdictMessage(run)).toBe("RED");
    expect(result.findings.map((f) => f.id)).toEqual(findings);
    expect(result.notes).toContainEqual(expect.stringMatching(/^ {2}UserPromptSubmit +2× {2}median/));
    // Hook capture must not slow the session down visibly.
    expect(record.hooks.medianMs).toBeLessThan(50);
    expect(record.processes.survivors).toEqual([]);
  });
});
