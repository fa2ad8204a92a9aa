// orphanPremise on hand-built sessions: each way the premise can fail, and the two ways it holds.
import { describe, expect, it } from "vitest";
import { orphanPremise } from "../../checker/orphan-premise.ts";
import { startingProcess, toStdoutRecord, type SessionProcess, type SessionRecording } from "../../harness/recordings.ts";

const task = (subtype: string, extra: Record<string, unknown> = {}) => ({ type: "system", subtype, task_id: "b1", tool_use_id: "toolu_1", session_id: "s", uuid: "u", ...extra });

function session(label: string, events: object[], process: Partial<SessionProcess>): SessionRecording {
  return {
    label,
    stdout: events.map((e, i) => toStdoutRecord(i, 1000 + i, JSON.stringify(e))),
    stdin: [],
    process: { ...startingProcess(label, [], null), startedAt: 0, ...process },
  };
}

const dead = (events: object[] = [task("task_started")], p: Partial<SessionProcess> = {}) => session("s1", events, { startedAt: 0, endedAt: 5000, signal: "SIGKILL", ...p });
const resumed = (events: object[] = [], p: Partial<SessionProcess> = {}) => session("s2", events, { startedAt: 6000, ...p });

describe("orphanPremise", () => {
  it("holds on SIGKILL with no notification for the task", () => {
    expect(orphanPremise(dead(), resumed())).toEqual({ holds: true, note: "premise: task b1 was still running when s1 ended (SIGKILL), with no notification for it" });
  });

  it("holds on any stop when the resumed session reports the task stopped, and says which line", () => {
    const result = orphanPremise(dead(undefined, { signal: "SIGTERM" }), resumed([task("task_updated"), task("task_notification", { status: "stopped" })]));
    expect(result).toEqual({ holds: true, note: "premise: session s2 reported task b1 stopped (stdout line 1)" });
  });

  it("does not count the resumed session reporting the task completed", () => {
    const result = orphanPremise(dead(undefined, { signal: null, exitCode: 0 }), resumed([task("task_notification", { status: "completed" })]));
    expect(result).toEqual({
      holds: false,
      reason: "session s1 ended by exit code 0, which lets the CLI end task b1 itself, and session s2 never reported it stopped",
    });
  });

  it("names an unknown end", () => {
    const result = orphanPremise(dead(undefined, { signal: null, exitCode: null }), resumed());
    expect(result).toMatchObject({ holds: false, reason: expect.stringMatching(/^session s1 ended by exit code unknown,/) });
  });

  it("fails without a started task, or with a task_started that names none", () => {
    const none = { holds: false, reason: "session s1 never started a background task, so nothing was orphaned" };
    expect(orphanPremise(dead([]), resumed())).toEqual(none);
    expect(orphanPremise(dead([{ ...task("task_started"), task_id: undefined }]), resumed())).toEqual(none);
  });

  it("fails when session 1 had not ended, or ended after session 2 started; an end at the same moment is fine", () => {
    const alive = { holds: false, reason: "session s1 was still alive when session s2 started, so its task was not orphaned yet" };
    expect(orphanPremise(dead(undefined, { endedAt: null }), resumed())).toEqual(alive);
    expect(orphanPremise(dead(undefined, { endedAt: 6001 }), resumed())).toEqual(alive);
    expect(orphanPremise(dead(), { ...resumed(), process: null })).toEqual(alive);
    expect(orphanPremise(dead(undefined, { endedAt: 6000 }), resumed()).holds).toBe(true);
  });

  it("fails when session 1 reported the task's end itself, naming the status", () => {
    expect(orphanPremise(dead([task("task_started"), task("task_notification", { status: "killed" })]), resumed())).toEqual({
      holds: false,
      reason: "session s1 reported task b1 killed before it ended, and session s2 never mentioned it, so nothing was orphaned",
    });
    expect(orphanPremise(dead([task("task_started"), task("task_notification")]), resumed())).toMatchObject({ reason: expect.stringContaining("reported task b1 finished") });
  });

  it("ignores another task's notification", () => {
    expect(orphanPremise(dead([task("task_started"), task("task_notification", { task_id: "b2", status: "killed" })]), resumed()).holds).toBe(true);
  });
});
