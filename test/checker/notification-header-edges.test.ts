// Notifications the CLI may render without a task id, and headers that sit outside the innermost
// <system-reminder>: each keeps a stable key and the header a re-render would change.
import { describe, expect, it } from "vitest";
import { classifyHeader, extractNotifications, maskNotifications } from "../../checker/notifications.ts";
import { SHORT_HEADER } from "../fixtures/notifications/bodies.ts";

describe("a notification without a <task-id>", () => {
  // A release that names only the tool call (or prints an empty task id) still gives each notification an identity.
  it("is keyed as (no task-id), by its tool use id", () => {
    const text = "<task-notification>\n<tool-use-id>toolu_9</tool-use-id>\n<status>completed</status>\n</task-notification>";
    const found = extractNotifications({ messages: [{ role: "user", content: text }] });
    expect(found.map((o) => [o.key, o.taskId, o.toolUseId])).toEqual([["(no task-id)/toolu_9#0", "(no task-id)", "toolu_9"]]);
    expect(maskNotifications(`x ${text} y`)).toBe("⟦task-notification (no task-id)⟧ y");
  });

  it("treats an empty <task-id> like a missing one", () => {
    const found = extractNotifications({ messages: [{ role: "user", content: "<task-notification><task-id> </task-id></task-notification>" }] });
    expect(found.map((o) => o.key)).toEqual(["(no task-id)/-#0"]);
  });
});

describe("classifyHeader outside the innermost wrapper", () => {
  it("names the open <system-reminder> when the only header comes before it", () => {
    expect(classifyHeader(`${SHORT_HEADER}\nearlier text\n<system-reminder>\nsomething else\n`)).toBe("system-reminder");
  });

  it("names the header when a wrapper after it was already closed", () => {
    expect(classifyHeader(`${SHORT_HEADER}\n<system-reminder>x</system-reminder>\n`)).toBe("non-user-source");
  });
});
