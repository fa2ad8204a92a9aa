// subagent-background-task-notified on a real release: on 2.1.332 a subagent that starts a background command and
// ends its turn is woken by a request carrying the command's <task-notification>.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

describe("subagent-background-task-notified", { timeout: E2E_TIMEOUT_MS }, () => {
  it("is GREEN on 2.1.332: the subagent is notified", async () => {
    const run = await runOnRelease("subagent-background-task-notified", "2.1.332", { taskMs: 2000 });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result?.notes[0]).toMatch(/^notified in subagent request #\d+$/);
  });
});
