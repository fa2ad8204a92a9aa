// How a <task-notification> is identified and headed: missing or blank ids, spaces around ids, a header outside the reminder wrapper, and masks of several occurrences.
import { describe, expect, it } from "vitest";
import { classifyHeader, extractNotifications, maskNotifications, NON_USER_SOURCE_HEADER, SYSTEM_NOTIFICATION_HEADER } from "../../checker/notifications.ts";
import type { MessagesBody } from "../../checker/request-body.ts";

const one = (text: string) => extractNotifications({ messages: [{ role: "user", content: text }] } as MessagesBody);
const tn = (inner: string) => `<task-notification>${inner}</task-notification>`;

describe("notification identity", () => {
  it("names a notification without a task id, or with a blank one, as having none", () => {
    expect(one(tn("<status>done</status>")).map((o) => [o.key, o.taskId, o.toolUseId])).toEqual([["(no task-id)/-#0", "(no task-id)", null]]);
    expect(one(tn("<task-id>  </task-id><tool-use-id></tool-use-id>")).map((o) => [o.key, o.taskId, o.toolUseId])).toEqual([["(no task-id)/-#0", "(no task-id)", null]]);
  });

  it("trims the spaces around the ids and counts repeats per task and tool use", () => {
    const text = tn("<task-id>\n  t1 \n</task-id><tool-use-id> u1 </tool-use-id>") + tn("<task-id>t1</task-id><tool-use-id>u2</tool-use-id>") + tn("<task-id>t1</task-id><tool-use-id>u1</tool-use-id>");
    expect(one(text).map((o) => [o.key, o.taskId, o.toolUseId, o.occurrence])).toEqual([
      ["t1/u1#0", "t1", "u1", 0],
      ["t1/u2#0", "t1", "u2", 0],
      ["t1/u1#1", "t1", "u1", 1],
    ]);
  });

  it("gives each occurrence the bytes from the previous one's end through its own closing tag", () => {
    const text = `lead ${tn("<task-id>a</task-id>")} mid ${tn("<task-id>b</task-id>")} tail`;
    expect(one(text).map((o) => [o.text, o.headerKind, o.messageIndex, o.role])).toEqual([
      [`lead ${tn("<task-id>a</task-id>")}`, "other", 0, "user"],
      [` mid ${tn("<task-id>b</task-id>")}`, "other", 0, "user"],
    ]);
  });
});

describe("classifyHeader", () => {
  it("names the wrapper when the only header sits before it opened", () => {
    expect(classifyHeader(`${SYSTEM_NOTIFICATION_HEADER}\n<system-reminder>\n`)).toBe("system-reminder");
    expect(classifyHeader(`${NON_USER_SOURCE_HEADER}<system-reminder>`)).toBe("system-reminder");
  });

  it("names the header after a closed wrapper, and the later of two headers", () => {
    // A header inside a wrapper that has closed still heads what follows: no wrapper is open.
    expect(classifyHeader(`<system-reminder>${NON_USER_SOURCE_HEADER}</system-reminder>\n`)).toBe("non-user-source");
    expect(classifyHeader(`<system-reminder></system-reminder>${SYSTEM_NOTIFICATION_HEADER}`)).toBe("system-notification-preamble");
    expect(classifyHeader(`${SYSTEM_NOTIFICATION_HEADER}${NON_USER_SOURCE_HEADER}`)).toBe("non-user-source");
    expect(classifyHeader(`<system-reminder>${SYSTEM_NOTIFICATION_HEADER} and ${NON_USER_SOURCE_HEADER}`)).toBe("non-user-source");
  });

  it("names a closed wrapper with nothing else as none, and any other text as other", () => {
    expect(classifyHeader("</system-reminder>\n")).toBe("other");
    expect(classifyHeader(" \t\n")).toBe("none");
    expect(classifyHeader("x")).toBe("other");
  });
});

describe("maskNotifications", () => {
  it("replaces each occurrence with its task id and keeps only the text after the last", () => {
    const text = `head ${tn("<task-id>a</task-id>")} between ${tn("<task-id>b</task-id>")} tail`;
    expect(maskNotifications(text)).toBe("⟦task-notification a⟧⟦task-notification b⟧ tail");
    expect(maskNotifications(tn("no id"))).toBe("⟦task-notification (no task-id)⟧");
    expect(maskNotifications("")).toBe("");
  });
});
