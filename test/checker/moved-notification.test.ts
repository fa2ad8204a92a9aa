// Notifications are matched by identity (task id, tool use id), not by message index: one message inserted earlier
// in the history moves a byte-identical notification, which is a move, not a drop. Real 2.1.332 run, edited on a copy.
import { describe, expect, it } from "vitest";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { copyRun, editBody, recordedRun } from "../fixtures/runs/edit-run.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";

// A user/assistant pair inserted after the first message of req 8, so roles still alternate.
function insertEarly(dir: string) {
  editBody(dir, 8, (body) => {
    body.messages.splice(1, 0, { role: "user", content: [{ type: "text", text: "inserted" }] }, { role: "assistant", content: [{ type: "text", text: "ok" }] });
  });
}

describe("moved notifications", () => {
  it("2.1.332 with two messages inserted before it: notification-moved (compared, unchanged), not notification-dropped", () => {
    const dir = copyRun(recordedRun("notification-green-2.1.332"));
    insertEarly(dir);
    const result = checkRecordedRun(dir, scenarioByName);
    const ids = result.findings.map((f) => `${f.id}${f.red ? "" : " (info)"}`);
    expect(ids).not.toContain("notification-dropped");
    expect(ids).toContain("notification-moved (info)");
    expect(ids).not.toContain("notification-changed");
    // What broke the cache is the insertion, and the prefix check names it.
    expect(ids).toContain("prefix-changed");
    const moved = result.findings.find((f) => f.id === "notification-moved")!;
    expect(moved.data).toMatchObject({ taskId: "bg7y0c983", toolUseId: "toolu_mock_3_0", messageBefore: 4, messageAfter: 6 });
    expect(moved.title).toBe("task bg7y0c983's notification moved from messages[4].content[0].content to messages[6].content[0].content");
    expect(moved.where).toBe("continuation 1 (sub, task notification): req 6 → req 8, messages[4].content[0].content → messages[6].content[0].content");
    expect(moved.detail).toEqual(["matched by task id bg7y0c983 and tool use id toolu_mock_3_0, key bg7y0c983/toolu_mock_3_0#0; its bytes are compared at the new place"]);
  });

  it("2.1.332, moved and one byte changed: notification-changed as well, its bytes compared at the new place", () => {
    const dir = copyRun(recordedRun("notification-green-2.1.332"));
    insertEarly(dir);
    editBody(dir, 8, (body) => {
      const moved = body.messages[6] as { content: { content: string }[] };
      moved.content[0]!.content = moved.content[0]!.content.replace("completed (exit code 0)", "completed (exit code 1)");
    });
    const ids = checkRecordedRun(dir, scenarioByName).findings.map((f) => f.id);
    expect(ids).toContain("notification-changed");
    expect(ids).not.toContain("notification-dropped");
  });
});
