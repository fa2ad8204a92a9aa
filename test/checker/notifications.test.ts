// Extraction of <task-notification> occurrences with their headers, keys and paths, and the mask the prefix check uses.
import { describe, expect, it } from "vitest";
import { classifyHeader, extractNotifications, maskNotifications } from "../../checker/notifications.ts";
import type { MessagesBody } from "../../checker/request-body.ts";
import { LONG_PREAMBLE, SHORT_HEADER, T1, T2, afterResumeBody, beforeIdleBody, taskNotification } from "../fixtures/notifications/bodies.ts";

const body = (messages: MessagesBody["messages"]): MessagesBody => ({ messages });

describe("extractNotifications", () => {
  it("finds the absorbed notification with the long preamble as part of its bytes", () => {
    const [occurrence, ...rest] = extractNotifications(beforeIdleBody());
    expect(rest).toEqual([]);
    expect(occurrence).toMatchObject({
      key: `${T1}/toolu_mock_0003#0`,
      taskId: T1,
      toolUseId: "toolu_mock_0003",
      messageIndex: 5,
      occurrence: 0,
      role: "system",
      path: "messages[5].content[0].text",
      headerKind: "system-notification-preamble",
      text: LONG_PREAMBLE + taskNotification(T1),
    });
    expect(LONG_PREAMBLE).toHaveLength(494);
  });

  it("classifies the short non-user header and the system-reminder wrapper", () => {
    const found = extractNotifications(afterResumeBody({ header: SHORT_HEADER }));
    expect(found.map((o) => [o.key, o.headerKind, o.role, o.path])).toEqual([
      [`${T1}/toolu_mock_0003#0`, "non-user-source", "system", "messages[5].content[0].text"],
      [`${T2}/toolu_mock_0003#0`, "system-notification-preamble", "user", "messages[9].content[0].text"],
    ]);
    expect(SHORT_HEADER).toHaveLength(48);
    expect(found[0]?.text).toBe(SHORT_HEADER + taskNotification(T1));
    // The wrapper's opening tag is inside the compared bytes; its closing tag follows </task-notification>.
    expect(found[1]?.text.startsWith("<system-reminder>\n[SYSTEM NOTIFICATION")).toBe(true);
    expect(found[1]?.text.endsWith("</task-notification>")).toBe(true);
  });

  it("splits several occurrences in one string at the previous one's end and counts repeats of an identity across the request", () => {
    const text = `${LONG_PREAMBLE}${taskNotification("a")}\n${SHORT_HEADER}${taskNotification("b")}${taskNotification("a")}`;
    const found = extractNotifications(body([{ role: "user", content: "hi" }, { role: "user", content: text }, { role: "user", content: taskNotification("a") }]));
    expect(found.map((o) => [o.key, o.headerKind, o.path])).toEqual([
      ["a/toolu_mock_0003#0", "system-notification-preamble", "messages[1].content"],
      ["b/toolu_mock_0003#0", "non-user-source", "messages[1].content"],
      ["a/toolu_mock_0003#1", "none", "messages[1].content"],
      ["a/toolu_mock_0003#2", "none", "messages[2].content"],
    ]);
    found.pop();
    expect(found.map((o) => o.text).join("")).toBe(text);
    expect(found[1]?.text).toBe(`\n${SHORT_HEADER}${taskNotification("b")}`);
  });

  it("keys a notification without a tool use id by its task id alone", () => {
    const found = extractNotifications(body([{ role: "user", content: "<task-notification><task-id>d</task-id></task-notification>" }]));
    expect(found.map((o) => [o.key, o.toolUseId])).toEqual([["d/-#0", null]]);
  });

  it("looks inside tool_result content and ignores text without a notification", () => {
    const found = extractNotifications(
      body([
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: [{ type: "text", text: `done ${taskNotification("c")}` }] }] },
        { role: "user", content: "<task-notification> without an end" },
      ]),
    );
    expect(found.map((o) => [o.key, o.path, o.headerKind])).toEqual([["c/toolu_mock_0003#0", "messages[0].content[0].content[0].text", "other"]]);
  });
});

describe("classifyHeader", () => {
  it.each([
    ["", "none"],
    ["\n  ", "none"],
    [LONG_PREAMBLE, "system-notification-preamble"],
    [SHORT_HEADER, "non-user-source"],
    [`${SHORT_HEADER}quoted: ${LONG_PREAMBLE}`, "system-notification-preamble"],
    [`<system-reminder>\n${LONG_PREAMBLE}`, "system-notification-preamble"],
    ["<system-reminder>\nsomething else\n", "system-reminder"],
    [`<system-reminder>x</system-reminder>\n${SHORT_HEADER}`, "non-user-source"],
    ["Some other words\n", "other"],
  ] as const)("%j → %s", (lead, kind) => {
    expect(classifyHeader(lead)).toBe(kind);
  });
});

describe("maskNotifications", () => {
  it("replaces each occurrence and its header, keeping the text around them", () => {
    expect(maskNotifications(`${LONG_PREAMBLE}${taskNotification("a")}\n</system-reminder> tail`)).toBe("⟦task-notification a⟧\n</system-reminder> tail");
    expect(maskNotifications("no notifications")).toBe("no notifications");
  });

  it("masks the long and the short header to the same text", () => {
    expect(maskNotifications(LONG_PREAMBLE + taskNotification(T1))).toBe(maskNotifications(SHORT_HEADER + taskNotification(T1)));
  });
});
