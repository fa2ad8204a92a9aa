// The notification-stability check's findings, notes and unreached reasons, word for word, on small hand-built
// two-request streams: the shapes seed 002 does not show (a moved-and-changed notification, a task re-sent under
// another tool use id, a marker whose value changed, several notifications and rolled markers, no boundary at all).
import { describe, expect, it } from "vitest";
import { checkNotificationStability, type NotificationCheckOptions } from "../../checker/notification-check.ts";
import { fakeRecordings, type FakeRequest } from "../fixtures/notifications/recordings.ts";

// Named by what the request after it appended: nothing a prompt or notification (an assistant or system message last)…
const BOUNDARY = "continuation 1 (sub): req 1 → req 2";
// …or a prompt.
const B1_PROMPT = { kind: "resume", stream: "sub", cause: "prompt", before: 1, after: 2, index: 1 };
const BOUNDARY_PROMPT = "continuation 1 (sub, prompt): req 1 → req 2";

// A notification as Claude Code renders one; toolUseId null: a notification that names no call.
function notification(taskId: string, toolUseId: string | null, summary = "completed (exit code 0)"): string {
  return [
    "<task-notification>",
    `<task-id>${taskId}</task-id>`,
    ...(toolUseId === null ? [] : [`<tool-use-id>${toolUseId}</tool-use-id>`]),
    `<summary>${summary}</summary>`,
    "</task-notification>",
  ].join("\n");
}

const prompt = { role: "user", content: "run the scripted steps" };
const text = (role: string, body: string, marked = false) => ({ role, content: [{ type: "text", text: body, ...(marked ? { cache_control: { type: "ephemeral" } } : {}) }] });
const reply = { role: "assistant", content: [{ type: "text", text: "waiting" }] };

// One subagent going idle after req 1 and woken for req 2: a single resume boundary.
function resumed(before: object, after: object, options: NotificationCheckOptions = {}) {
  const requests: FakeRequest[] = [
    { stream: "sub", body: before },
    { stream: "sub", body: after },
  ];
  return checkNotificationStability(fakeRecordings(requests), options);
}

describe("notification findings, word for word", () => {
  it("names both places and both roles when a notification moved and changed, and a missing tool use id as (none)", () => {
    const before = { messages: [prompt, text("user", notification("T1", null))] };
    // Two messages inserted in front move it; it comes back as a system message with another summary.
    const after = { messages: [prompt, reply, text("user", "go on"), text("system", notification("T1", null, "failed (exit code 1)"))] };
    const { findings } = resumed(before, after);
    expect(findings.map((f) => f.id)).toEqual(["notification-moved", "notification-changed", "prefix-changed"]);
    expect(findings[0]!.detail).toEqual(["matched by task id T1 and tool use id (none), key T1/-#0; its bytes are compared at the new place"]);
    expect(findings[1]!.where).toBe(`${BOUNDARY}, messages[1].content[0].text → messages[3].content[0].text`);
    expect(findings[1]!.detail[1]).toBe("role user → system; compared raw, from the header through </task-notification>");
  });

  it("lists every other place a dropped task's notification turned up, by key", () => {
    // The task's notification comes back twice, under tool use ids other than the one it had.
    const before = { messages: [prompt, text("user", notification("T1", "toolu_a"))] };
    const after = { messages: [prompt, text("user", `${notification("T1", "toolu_b")}\n${notification("T1", "toolu_c")}\n${notification("T2", "toolu_d")}`)] };
    const dropped = resumed(before, after).findings.find((f) => f.id === "notification-dropped")!;
    expect(dropped.detail[1]).toBe("req 2 has this task's notification only at T1/toolu_b#0, T1/toolu_c#0");
    expect((dropped.data as { elsewhere: string[] }).elsewhere).toEqual(["T1/toolu_b#0", "T1/toolu_c#0"]);
  });

  it("calls a prefix block that only one side has absent", () => {
    const bash = { name: "Bash", description: "Runs a command.", input_schema: { type: "object" } };
    const read = { name: "Read", description: "Reads a file.", input_schema: { type: "object" } };
    const changed = resumed({ tools: [bash], messages: [prompt] }, { tools: [bash, read], messages: [prompt] }).findings[0]!;
    const bytes = Buffer.byteLength(JSON.stringify({ description: "Reads a file.", input_schema: { type: "object" }, name: "Read" }, null, 2));
    expect([changed.id, changed.detail]).toEqual(["prefix-changed", [`tools[1]: absent → ${bytes} bytes, delta ${-bytes}; cache_control ignored, raw bytes`]]);
  });

  it("reports a marker that stayed in place but changed its value", () => {
    const system = (cacheControl: object) => [{ type: "text", text: "You are an agent.", cache_control: cacheControl }];
    const result = resumed({ system: system({ type: "ephemeral" }), messages: [prompt] }, { system: system({ type: "ephemeral", ttl: "1h" }), messages: [prompt] });
    expect(result.findings).toEqual([
      {
        id: "cache-control-moved",
        red: false,
        title: "cache_control markers in the shared prefix differ",
        where: BOUNDARY_PROMPT,
        detail: ['changed system[0] {"type":"ephemeral"} → {"ttl":"1h","type":"ephemeral"}'],
        data: { boundary: B1_PROMPT, before: ["system[0]"], after: ["system[0]"] },
      },
    ]);
  });
});

describe("notes", () => {
  it("counts notifications in the plural and lists every rolled message marker", () => {
    const before = { messages: [prompt, text("user", notification("T1", "toolu_a"), true), text("user", notification("T2", "toolu_b"), true)] };
    const after = { messages: [prompt, text("user", notification("T1", "toolu_a")), text("user", notification("T2", "toolu_b")), text("assistant", "waiting", true), text("user", "go on", true)] };
    const result = resumed(before, after);
    expect(result.findings).toEqual([]);
    expect(result.reached).toEqual({ ok: true });
    expect(result.notes).toEqual([
      `${BOUNDARY_PROMPT}, 2 notifications compared, 3 prefix blocks compared; message cache_control rolled messages[1].content[0], messages[2].content[0] → messages[3].content[0], messages[4].content[0]`,
    ]);
  });

  it("counts no notification in the plural too", () => {
    expect(resumed({ messages: [prompt] }, { messages: [prompt, reply] }).notes).toEqual([`${BOUNDARY}, 0 notifications compared, 1 prefix blocks compared`]);
  });
});

describe("why the check was not reached", () => {
  const noBoundary: FakeRequest[] = [{ stream: "sub", body: { messages: [prompt] } }];

  it("names both kinds and both reasons when no boundary of either kind was found", () => {
    expect(checkNotificationStability(fakeRecordings(noBoundary)).reached).toEqual({
      ok: false,
      reason:
        "no continuation or process resume: no stream went idle and was woken again (e.g. the subagent was never resumed); no session was continued with --resume after its process ended",
    });
  });

  it("names every stream it was asked to look at", () => {
    expect(checkNotificationStability(fakeRecordings(noBoundary), { kinds: ["resume"], streams: ["sub", "main"] }).reached).toEqual({
      ok: false,
      reason: "no continuation on stream sub, main: no stream went idle and was woken again (e.g. the subagent was never resumed)",
    });
  });

  it("looks only at the kinds it was asked for: a resume boundary does not reach a check of stop boundaries", () => {
    const result = resumed({ messages: [prompt, text("user", notification("T1", "toolu_a"))] }, { messages: [prompt] }, { kinds: ["stop"] });
    expect(result).toEqual({ findings: [], notes: [], reached: { ok: false, reason: "no process resume: no session was continued with --resume after its process ended" } });
  });

  it("lists the request before every boundary when none carried a notification", () => {
    const requests: FakeRequest[] = [1, 2, 3].map((n) => ({ stream: "sub", body: { messages: Array.from({ length: n }, () => prompt) } }));
    expect(checkNotificationStability(fakeRecordings(requests)).reached).toEqual({
      ok: false,
      reason: "no task-notification was present before any continuation or process resume (before: req 1, req 2)",
    });
  });
});
