// Which task the premise is about, and which report of it counts: the first task the dead session STARTED, and only a
// task_notification for that same task saying "stopped". Hand-built sessions of stream-json events.
import { describe, expect, it } from "vitest";
import { orphanPremise } from "../../checker/orphan-premise.ts";
import { startingProcess, toStdoutRecord, type SessionProcess, type SessionRecording } from "../../harness/recordings.ts";

const task = (subtype: string, extra: Record<string, unknown> = {}) => ({ type: "system", subtype, task_id: "b1", tool_use_id: "toolu_1", session_id: "s", uuid: "u", ...extra });

function session(label: string, events: object[], process: Partial<SessionProcess> | null): SessionRecording {
  return {
    label,
    stdout: events.map((e, i) => toStdoutRecord(i, 1000 + i, JSON.stringify(e))),
    stdin: [],
    process: process === null ? null : { ...startingProcess(label, [], null), startedAt: 0, ...process },
  };
}

const resumed = (events: object[] = []) => session("s2", events, { startedAt: 6000 });

describe("orphanPremise picks the task the dead session started", () => {
  it("skips a notification about an earlier session's task printed before its own task started", () => {
    // s1 was itself a resumed session: it first reports the previous session's task b0, then starts b1.
    const dead = session("s1", [task("task_notification", { task_id: "b0", status: "completed" }), task("task_started")], { endedAt: 5000, signal: "SIGKILL" });
    expect(orphanPremise(dead, resumed())).toEqual({ holds: true, note: "premise: task b1 was still running when s1 ended (SIGKILL), with no notification for it" });
  });

  it("fails, without throwing, when the dead session has no process record", () => {
    const dead = session("s1", [task("task_started")], null);
    expect(orphanPremise(dead, resumed())).toEqual({
      holds: false,
      reason: "session s1 was still alive when session s2 started, so its task was not orphaned yet",
    });
  });
});

describe("orphanPremise counts only a stopped notification for that task", () => {
  const dead = () => session("s1", [task("task_started")], { endedAt: 5000, signal: "SIGTERM" });
  const notStopped = {
    holds: false,
    reason: "session s1 ended by SIGTERM, which lets the CLI end task b1 itself, and session s2 never reported it stopped",
  };

  it("ignores the resumed session reporting another task stopped", () => {
    expect(orphanPremise(dead(), resumed([task("task_notification", { task_id: "b2", status: "stopped" })]))).toEqual(notStopped);
  });

  it("ignores a task event other than a notification that carries status stopped", () => {
    // A task_updated/task_started line with a top-level status, a shape a release could print: not a report of the end.
    expect(orphanPremise(dead(), resumed([task("task_updated", { status: "stopped" }), task("task_started", { status: "stopped" })]))).toEqual(notStopped);
  });

  it("finds the stopped notification for the task after other lines", () => {
    const events = [task("task_notification", { task_id: "b2", status: "stopped" }), task("task_updated", { status: "stopped" }), task("task_notification", { status: "stopped" })];
    expect(orphanPremise(dead(), resumed(events))).toEqual({ holds: true, note: "premise: session s2 reported task b1 stopped (stdout line 2)" });
  });
});
