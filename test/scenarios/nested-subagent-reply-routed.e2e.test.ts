// nested-subagent-reply-routed on a real release: on 2.1.332 the background child, resumed by its busy parent's
// SendMessage follow-up, keeps its first task and its answer comes back to the parent as a <task-notification>.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

describe("nested-subagent-reply-routed", { timeout: E2E_TIMEOUT_MS }, () => {
  it("is GREEN on 2.1.332: the child's answer reaches its parent", async () => {
    const run = await runOnRelease("nested-subagent-reply-routed", "2.1.332");
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result?.notes[0]).toMatch(/^follow-up in child request #\d+ \(with the child's first task\); answer in sub request #\d+$/);
  });
});
