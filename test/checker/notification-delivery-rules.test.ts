// Which stdout lines start and finish a background task, and which logged request counts as its delivery.
// Every case is hand-built: a session's stdout in the shape 2.1.281 prints (an assistant Bash call with
// run_in_background, then task_started / task_updated / task_notification lines) and request bodies whose only
// content is a <task-notification> for the named task.
import { describe, expect, it } from "vitest";
import type { Recordings, SessionRecording } from "../../harness/recordings.ts";
import { toStdoutRecord } from "../../harness/recordings.ts";
import { notificationDeliveries } from "../../checker/notification-delivery.ts";
import { taskNotification } from "../fixtures/notifications/bodies.ts";
import { fakeRecordings, type FakeRequest } from "../fixtures/notifications/recordings.ts";
import { session, type Step } from "../fixtures/turns/session.ts";

const bashCall = (id: string, background: boolean) => ({
  type: "assistant",
  message: { role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: { command: "sleep 1", ...(background ? { run_in_background: true } : {}) } }] },
  parent_tool_use_id: null,
  session_id: "s",
});
const started = (taskId: string, toolUseId: string) => ({ type: "system", subtype: "task_started", task_id: taskId, tool_use_id: toolUseId, session_id: "s" });
const updated = (taskId: string, status: string) => ({ type: "system", subtype: "task_updated", task_id: taskId, patch: { status }, session_id: "s" });
const notified = (taskId: string, toolUseId: string) => ({ type: "system", subtype: "task_notification", task_id: taskId, tool_use_id: toolUseId, status: "completed", session_id: "s" });

// One background task's whole life on stdout: called at `at`, shown at at+100, finished at at+300.
const lifecycle = (taskId: string, toolUseId: string, at: number): Step[] => [
  { t: at, out: bashCall(toolUseId, true) },
  { t: at + 100, out: started(taskId, toolUseId) },
  { t: at + 300, out: updated(taskId, "completed") },
  { t: at + 350, out: notified(taskId, toolUseId) },
];

const carrying = (taskId: string, receivedAt: number, stream: string | null = "main"): FakeRequest => ({
  stream,
  receivedAt,
  body: { messages: [{ role: "user", content: [{ type: "text", text: taskNotification(taskId) }] }] },
});

function recordings(sessions: SessionRecording[], requests: FakeRequest[] = []): Recordings {
  return { ...fakeRecordings(requests), sessions };
}

describe("notificationDeliveries: when a background task starts and finishes", () => {
  it("dates the task from its first task line to the task_updated that gives it a final status", () => {
    // A running patch, and task_started itself, must not count as the finish.
    const s = session("s1", [
      { t: 100, out: bashCall("toolu_bg", true) },
      { t: 200, out: started("bg1", "toolu_bg") },
      { t: 300, out: updated("bg1", "running") },
      { t: 400, out: updated("bg1", "completed") },
      { t: 450, out: notified("bg1", "toolu_bg") },
    ]);
    expect(notificationDeliveries(recordings([s]))).toEqual([
      { session: "s1", taskId: "bg1", toolUseId: "toolu_bg", startedAt: 200, finishedAt: 400, request: null },
    ]);
  });

  it("takes a task_notification as the finish when no task_updated came (releases before task_updated)", () => {
    const s = session("s1", [
      { t: 100, out: bashCall("toolu_bg", true) },
      { t: 200, out: started("bg1", "toolu_bg") },
      { t: 500, out: notified("bg1", "toolu_bg") },
    ]);
    expect(notificationDeliveries(recordings([s]))).toEqual([
      { session: "s1", taskId: "bg1", toolUseId: "toolu_bg", startedAt: 200, finishedAt: 500, request: null },
    ]);
  });

  it("takes a final status only from a task_updated patch, not from a patch on another task line", () => {
    // Stand-in: no release puts a patch on task_progress; if one did, it would still report progress, not the finish.
    const s = session("s1", [
      { t: 100, out: bashCall("toolu_bg", true) },
      { t: 200, out: started("bg1", "toolu_bg") },
      { t: 300, out: { type: "system", subtype: "task_progress", task_id: "bg1", tool_use_id: "toolu_bg", patch: { status: "completed" } } },
      { t: 400, out: updated("bg1", "killed") },
    ]);
    expect(notificationDeliveries(recordings([s])).map((d) => [d.startedAt, d.finishedAt])).toEqual([[200, 400]]);
  });

  it("skips a stdout line that is not JSON instead of failing on it", () => {
    const s = session("s1", lifecycle("bg1", "toolu_bg", 100));
    s.stdout.splice(1, 0, toStdoutRecord(1, 150, "{truncated"));
    expect(notificationDeliveries(recordings([s]))).toEqual([
      { session: "s1", taskId: "bg1", toolUseId: "toolu_bg", startedAt: 200, finishedAt: 400, request: null },
    ]);
  });

  it("counts only system events that name a task", () => {
    // Stand-ins for lines no release prints: a non-system event carrying task fields, and a task_notification
    // without a task_id. Neither may become a delivery (the second would have no task id to look for).
    const s = session("s1", [
      { t: 100, out: bashCall("toolu_bg", true) },
      { t: 200, out: { type: "stream_event", subtype: "task_notification", task_id: "bg1", tool_use_id: "toolu_bg" } },
      { t: 300, out: { type: "system", subtype: "task_notification", tool_use_id: "toolu_bg", status: "completed" } },
    ]);
    expect(notificationDeliveries(recordings([s]))).toEqual([]);
  });

  it("lists tasks in finishing order across sessions, not session order", () => {
    const s1 = session("s1", lifecycle("bgA", "toolu_a", 600));
    const s2 = session("s2", lifecycle("bgB", "toolu_b", 100));
    const s3 = session("s3", lifecycle("bgC", "toolu_c", 300));
    expect(notificationDeliveries(recordings([s1, s2, s3])).map((d) => [d.session, d.taskId, d.finishedAt])).toEqual([
      ["s2", "bgB", 400],
      ["s3", "bgC", 600],
      ["s1", "bgA", 900],
    ]);
  });

  it("reads no request body when no background task finished", () => {
    // A foreground call's task finishes too, but is not a background task.
    const s = session("s1", [
      { t: 100, out: bashCall("toolu_fg", false) },
      { t: 200, out: started("fg1", "toolu_fg") },
      { t: 300, out: notified("fg1", "toolu_fg") },
    ]);
    const rec = recordings([s], [carrying("fg1", 250)]);
    rec.body = (seq) => {
      throw new Error(`body ${seq} read`);
    };
    expect(notificationDeliveries(rec)).toEqual([]);
  });
});

describe("notificationDeliveries: which request delivered the notification", () => {
  it("finds an early task's delivery that came before a later task had started", () => {
    const s = session("s1", [...lifecycle("bgA", "toolu_a", 0), ...lifecycle("bgB", "toolu_b", 900)]);
    const deliveries = notificationDeliveries(recordings([s], [carrying("bgA", 500), carrying("bgB", 1300)]));
    expect(deliveries.map((d) => [d.taskId, d.request])).toEqual([
      ["bgA", { seq: 1, receivedAt: 500, stream: "main" }],
      ["bgB", { seq: 2, receivedAt: 1300, stream: "main" }],
    ]);
  });

  it("counts a request received in the very millisecond the task first showed on stdout", () => {
    // The request may beat the stdout line; the same millisecond is not before it.
    const s = session("s1", lifecycle("bg1", "toolu_bg", 100));
    const deliveries = notificationDeliveries(recordings([s], [carrying("bg1", 200)]));
    expect(deliveries.map((d) => d.request)).toEqual([{ seq: 1, receivedAt: 200, stream: "main" }]);
  });

  it("does not take a request from before the task showed on stdout, even when it names the task's id", () => {
    // bgB's id in a request sent while only bgA existed stands for another session's task of the same id.
    const s = session("s1", [...lifecycle("bgA", "toolu_a", 0), ...lifecycle("bgB", "toolu_b", 900)]);
    const deliveries = notificationDeliveries(recordings([s], [carrying("bgB", 500), carrying("bgB", 1300)]));
    expect(deliveries.map((d) => [d.taskId, d.request])).toEqual([
      ["bgA", null],
      ["bgB", { seq: 2, receivedAt: 1300, stream: "main" }],
    ]);
  });

  it("ignores requests without a stream, and keeps to the streams it is given", () => {
    // Request 1 stands for a count_tokens or probe request (no stream) whose body happens to carry the notification.
    const s = session("s1", lifecycle("bg1", "toolu_bg", 100));
    const requests = [carrying("bg1", 300, null), carrying("bg1", 400, "sub"), carrying("bg1", 600, "main")];
    expect(notificationDeliveries(recordings([s], requests)).map((d) => d.request)).toEqual([{ seq: 2, receivedAt: 400, stream: "sub" }]);
    expect(notificationDeliveries(recordings([s], requests), ["main"]).map((d) => d.request)).toEqual([{ seq: 3, receivedAt: 600, stream: "main" }]);
    expect(notificationDeliveries(recordings([s], requests), ["other"]).map((d) => d.request)).toEqual([null]);
  });
});
