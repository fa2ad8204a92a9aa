// Whether each finished background task's <task-notification> reached the model, and in which request first.
import { z } from "zod";
import type { Recordings } from "../harness/recordings.ts";
import { isAssistant, isSystem } from "../harness/stream-events.ts";
import { extractNotifications } from "./notifications.ts";
import { readMessagesBody } from "./request-body.ts";

export interface NotificationDelivery {
  session: string;
  taskId: string;
  toolUseId: string;
  // When stdout first named the task, and when it first reported the task finished.
  startedAt: number;
  finishedAt: number;
  // The first request whose messages carry the task's <task-notification>; null when none did.
  request: { seq: number; receivedAt: number; stream: string | null } | null;
}

const backgroundCallSchema = z.looseObject({ type: z.literal("tool_use"), id: z.string(), input: z.looseObject({ run_in_background: z.literal(true) }) });
const taskEndSchema = z.looseObject({ patch: z.looseObject({ status: z.enum(["completed", "failed", "killed", "stopped"]) }) });

type BackgroundTask = Omit<NotificationDelivery, "request">;

// Tasks of Bash calls made with run_in_background that stdout reported finished (a task_notification event, or a
// task_updated to a final status), in finishing order. A foreground command's task never counts.
function finishedBackgroundTasks(rec: Pick<Recordings, "sessions">): BackgroundTask[] {
  const finished = new Map<string, BackgroundTask>();
  for (const session of rec.sessions) {
    const backgroundCalls = new Set<string>();
    const seen = new Map<string, { toolUseId: string | null; startedAt: number }>();
    for (const { event, t } of session.stdout) {
      if (event === null) continue;
      if (isAssistant(event) && Array.isArray(event.message.content)) {
        for (const block of event.message.content) {
          const call = backgroundCallSchema.safeParse(block);
          if (call.success) backgroundCalls.add(call.data.id);
        }
      }
      if (!isSystem(event) || event.task_id === undefined) continue;
      const task = seen.get(event.task_id) ?? { toolUseId: null, startedAt: t };
      task.toolUseId = event.tool_use_id ?? task.toolUseId;
      seen.set(event.task_id, task);
      const ends = event.subtype === "task_notification" || (event.subtype === "task_updated" && taskEndSchema.safeParse(event).success);
      if (!ends || task.toolUseId === null || !backgroundCalls.has(task.toolUseId) || finished.has(event.task_id)) continue;
      finished.set(event.task_id, { session: session.label, taskId: event.task_id, toolUseId: task.toolUseId, startedAt: task.startedAt, finishedAt: t });
    }
  }
  return [...finished.values()].sort((a, b) => a.finishedAt - b.finishedAt);
}

// Only requests the mock received after the task first showed on stdout are read: none before can carry it, and that
// keeps this cheap enough for live wait predicates. The finish is not the bound: the request may beat that stdout line.
// With no finished task, earliest is Infinity and no body is read.
export function notificationDeliveries(rec: Pick<Recordings, "sessions" | "requests" | "body">, streams?: readonly string[]): NotificationDelivery[] {
  const tasks = finishedBackgroundTasks(rec);
  const earliest = Math.min(...tasks.map((task) => task.startedAt));
  const carrying = rec.requests
    .filter((r) => r.stream !== null && (streams === undefined || streams.includes(r.stream)) && r.receivedAt >= earliest)
    .map((r) => ({ request: r, taskIds: new Set(extractNotifications(readMessagesBody(rec, r.seq)).map((o) => o.taskId)) }));
  return tasks.map((task) => {
    const hit = carrying.find(({ request, taskIds }) => request.receivedAt >= task.startedAt && taskIds.has(task.taskId));
    return { ...task, request: hit ? { seq: hit.request.seq, receivedAt: hit.request.receivedAt, stream: hit.request.stream } : null };
  });
}
