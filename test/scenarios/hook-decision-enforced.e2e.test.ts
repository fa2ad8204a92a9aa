// hook-decision-enforced on real releases: on 2.1.332 a PreToolUse exit 2 from the project's settings, an ask from
// the user's, and a UserPromptSubmit block from --settings all hold; on 2.1.112 (cli.js) a JSON deny holds. In the
// interactive UI, at both ends of the range measured: an exit 2 and a prompt block hold on 2.1.332 (the blocked
// prompt, which the UI puts back into its input, is in no request), and an ask on 2.1.47 asks instead of writing.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "hook-decision-enforced";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it.each([
    ["2.1.332", { how: "exit2", source: "project" }, "PreToolUse:Bash hook error"],
    ["2.1.332", { how: "ask", source: "user" }, "writes are not allowed here"],
    ["2.1.332", { how: "prompt-block", source: "flag" }, "0 requests; result: success"],
    ["2.1.112", { how: "deny", source: "user" }, "tool result: writes are not allowed here"],
    ["2.1.332", { how: "exit2", source: "project", ui: "terminal" }, "PreToolUse:Bash hook error"],
    ["2.1.332", { how: "prompt-block", ui: "terminal" }, "result: none"],
    ["2.1.47", { how: "ask", ui: "terminal" }, "the UI sent no result for the call"],
  ])("on %s with %o: GREEN", async (release, params, note) => {
    const run = await runOnRelease(SCENARIO, release, params);
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result?.notes.join("\n")).toContain(note);
  });
});
