// hook-decision-enforced on real releases: on 2.1.332 a PreToolUse exit 2 from the project's settings, an ask from
// the user's, and a UserPromptSubmit block from --settings all hold; on 2.1.112 (cli.js) a JSON deny holds.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "hook-decision-enforced";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it.each([
    ["2.1.332", { how: "exit2", source: "project" }, "PreToolUse:Bash hook error"],
    ["2.1.332", { how: "ask", source: "user" }, "writes are not allowed here"],
    ["2.1.332", { how: "prompt-block", source: "flag" }, "0 requests; result: success"],
    ["2.1.112", { how: "deny", source: "user" }, "tool result: writes are not allowed here"],
  ])("on %s with %o: GREEN", async (release, params, note) => {
    const run = await runOnRelease(SCENARIO, release, params);
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result?.notes.join("\n")).toContain(note);
  });
});
