// The human view of a hook run: hook calls, the mock's requests and each session's stdin/stdout on one clock, and what
// the hooks cost per event.
import type { HookRecord, Recordings } from "../harness/recordings.ts";
import type { NotificationDelivery } from "./notification-delivery.ts";
import { clip, formatTimeline, KIND_WIDTH, offset, quote } from "./timeline-format.ts";
import { buildTurnTimeline } from "./turn-timeline.ts";
import { median } from "../core/statistics.ts";

const MAX_LINE = 110;
// Wide enough for "hook", "mock" and a short session label, so every row's columns line up.
const SOURCE_WIDTH = 4;

export interface HookTiming {
  event: string;
  calls: number;
  medianMs: number | null;
  maxMs: number | null;
}

function timing(event: string, hooks: readonly HookRecord[]): HookTiming {
  const times = hooks.flatMap((h) => (h.durationMs === null ? [] : [h.durationMs]));
  return { event, calls: hooks.length, medianMs: median(times), maxMs: times.length ? Math.max(...times) : null };
}

// All calls first, then one entry per event in the order the events first fired.
export function hookTimings(hooks: readonly HookRecord[]): HookTiming[] {
  const events = [...new Set(hooks.map((h) => h.event))];
  return [timing("all", hooks), ...events.map((event) => timing(event, hooks.filter((h) => h.event === event)))];
}

const ms = (value: number | null) => (value === null ? "-" : `${value.toFixed(1)} ms`);

// The recorder's own run time per call (measured inside the hook command), which is what capture adds to each hook.
export function formatHookTimings(hooks: readonly HookRecord[]): string[] {
  const [all, ...events] = hookTimings(hooks);
  return [
    `hooks: ${all!.calls} calls, median ${ms(all!.medianMs)}, max ${ms(all!.maxMs)} (recorder time per call)`,
    ...events.map((t) => `  ${t.event.padEnd(KIND_WIDTH + 2)} ${String(t.calls).padStart(3)}×  median ${ms(t.medianMs).padStart(8)}  max ${ms(t.maxMs).padStart(8)}`),
  ];
}

// Time 0 of a run: its first session's start, else the first thing it recorded.
export function runStart(rec: Recordings): number {
  const times = [
    ...rec.sessions.map((s) => s.process?.startedAt ?? s.stdout[0]?.t ?? Infinity),
    ...rec.hooks.map((h) => h.t),
    ...rec.requests.map((r) => r.receivedAt),
  ];
  const first = Math.min(...times);
  return Number.isFinite(first) ? first : 0;
}

type Payload = Record<string, unknown>;
const field = (payload: Payload, key: string) => (typeof payload[key] === "string" ? (payload[key] as string) : null);

function hookGist(hook: HookRecord, room: number): string {
  if (typeof hook.payload !== "object" || hook.payload === null) return "(payload not JSON)";
  const payload = hook.payload as Payload;
  const prompt = field(payload, "prompt");
  if (prompt !== null) {
    const id = field(payload, "prompt_id");
    const head = [id && `prompt_id=${id.slice(0, 8)}`, field(payload, "source") && `source=${field(payload, "source")}`].filter(Boolean).join(" ");
    return `${head} ${quote(prompt, room - head.length - 1)}`.trim();
  }
  return [field(payload, "tool_name"), field(payload, "source") && `source=${field(payload, "source")}`].filter(Boolean).join(" ");
}

function row(t: number, start: number, source: string, kind: string, where: string, gist: (room: number) => string): string {
  const head = [offset(t, start).padStart(9), source.padEnd(SOURCE_WIDTH), clip(kind, KIND_WIDTH).padEnd(KIND_WIDTH), "".padEnd(3), where.padStart(4)].join("  ");
  return `  ${head}  ${gist(MAX_LINE - head.length - 4)}`.trimEnd();
}

export interface HookTimelineOptions {
  start: number;
  // Marks the requests that first carried a task's notification.
  deliveries?: readonly NotificationDelivery[];
}

// Rows sorted by time; the stdout rows are the turn timeline's own lines, so the columns mean the same everywhere.
export function formatHookTimeline(rec: Recordings, options: HookTimelineOptions): string[] {
  const { start } = options;
  const carried = new Map<number, string[]>();
  for (const d of options.deliveries ?? []) if (d.request) carried.set(d.request.seq, [...(carried.get(d.request.seq) ?? []), d.taskId]);
  const rows: { t: number; text: string }[] = [];
  for (const session of rec.sessions) {
    const timeline = buildTurnTimeline(session);
    const lines = formatTimeline({ ...timeline, label: timeline.label.padEnd(SOURCE_WIDTH) }, { start });
    timeline.entries.forEach((entry, i) => rows.push({ t: entry.t, text: lines[i]! }));
  }
  for (const hook of rec.hooks) rows.push({ t: hook.t, text: row(hook.t, start, "hook", hook.event, "", (room) => hookGist(hook, room)) });
  for (const r of rec.requests) {
    const tasks = carried.get(r.seq);
    const gist = `${r.stream ?? r.path}${r.step === null ? "" : `/${r.step}`} → ${r.reply.summary}${tasks ? `  ⇐ task-notification ${tasks.join(", ")}` : ""}`;
    rows.push({ t: r.receivedAt, text: row(r.receivedAt, start, "mock", "request", `#${r.seq}`, () => gist) });
  }
  return rows.sort((a, b) => a.t - b.t).map((r) => r.text);
}
