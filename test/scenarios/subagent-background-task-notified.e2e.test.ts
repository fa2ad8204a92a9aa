// subagent-background-task-notified on a real release: on 2.1.332 a subagent that starts a background command and
// ends its turn is woken by a request carrying the command's <task-notification>. In the interactive UI, the report's
// own driver, 2.1.226 (the reporter's release, GREEN headless) never wakes it.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

describe("subagent-background-task-notified", { timeout: E2E_TIMEOUT_MS }, () => {
  it("is GREEN on 2.1.332: the subagent is notified", async () => {
    const run = await runOnRelease("subagent-background-task-notified", "2.1.332", { taskMs: 2000 });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result?.notes[0]).toMatch(/^notified in subagent request #\d+$/);
  });

  it("is RED on 2.1.226 in the interactive UI: the subagent is never woken", async () => {
    const run = await runOnRelease("subagent-background-task-notified", "2.1.226", {}, { driver: "terminal" });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("RED");
    expect(run.record.result?.findings.filter((f) => f.red).map((f) => f.id)).toEqual(["subagent-never-notified"]);
  });
});
