// Whether a run really orphaned a background task: it was still running when its session died, or the resumed
// session says it stopped. Without that, a GREEN about "resuming an orphaned task" would be about nothing.
import type { SessionRecording } from "../harness/recordings.ts";
import { buildTurnTimeline, type TaskEntry } from "./turn-timeline.ts";

export type OrphanPremise = { holds: true; note: string } | { holds: false; reason: string };

const tasks = (session: SessionRecording): TaskEntry[] =>
  buildTurnTimeline(session).entries.flatMap((e) => (e.kind === "task" ? [e] : []));

// `dead` is the session that was stopped, `resumed` the --resume session started after it.
export function orphanPremise(dead: SessionRecording, resumed: SessionRecording): OrphanPremise {
  const started = tasks(dead).find((t) => t.subtype === "task_started" && t.taskId !== null);
  if (!started) return { holds: false, reason: `session ${dead.label} never started a background task, so nothing was orphaned` };
  const id = started.taskId!;
  const deadProcess = dead.process;
  const resumedAt = resumed.process?.startedAt ?? null;
  if (deadProcess === null || deadProcess.endedAt === null || resumedAt === null || deadProcess.endedAt > resumedAt) {
    return { holds: false, reason: `session ${dead.label} was still alive when session ${resumed.label} started, so its task was not orphaned yet` };
  }
  // The resumed session speaking of the task is the premise itself, however the task ended: 2.1.234 under the Agent
  // SDK's graceful close stops its own task at wind-down, and the resumed session still reports it stopped.
  const stopped = tasks(resumed).find((t) => t.subtype === "task_notification" && t.taskId === id && t.status === "stopped");
  if (stopped) return { holds: true, note: `premise: session ${resumed.label} reported task ${id} stopped (stdout line ${stopped.line})` };
  const reported = tasks(dead).find((t) => t.subtype === "task_notification" && t.taskId === id);
  if (reported) return { holds: false, reason: `session ${dead.label} reported task ${id} ${reported.status ?? "finished"} before it ended, and session ${resumed.label} never mentioned it, so nothing was orphaned` };
  const signal = deadProcess.signal;
  // SIGKILL leaves the CLI no chance to end its own task; any other end may have ended it without a word on stdout.
  if (signal === "SIGKILL") return { holds: true, note: `premise: task ${id} was still running when ${dead.label} ended (SIGKILL), with no notification for it` };
  return {
    holds: false,
    reason: `session ${dead.label} ended by ${signal ?? `exit code ${deadProcess.exitCode ?? "unknown"}`}, which lets the CLI end task ${id} itself, and session ${resumed.label} never reported it stopped`,
  };
}
