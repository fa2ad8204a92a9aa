// One session's recording as a single ordered timeline of what the turn grammar reads: pushes, inits, output, tasks, results.
import type { SessionRecording, StdinRecord, StdoutRecord } from "../harness/recordings.ts";
import { isAssistant, isResult, isSystem, type ResultEvent, type StreamEvent } from "../harness/stream-events.ts";

interface EntryBase {
  t: number;
  // 1 + the number of results before this entry: a result's turn is its own ordinal, so it names the turn it closes.
  turn: number;
}

// A stdin line of type "user": a prompt the harness pushed. `stdin` is its index among the session's stdin lines.
export interface PushEntry extends EntryBase {
  kind: "push";
  stdin: number;
  // 1-based ordinal among the session's pushes.
  prompt: number;
  text: string;
}

// Any other stdin line (a control request, or a line that is not JSON).
export interface StdinEntry extends EntryBase {
  kind: "stdin";
  stdin: number;
  label: string;
}

export interface InitEntry extends EntryBase {
  kind: "init";
  line: number;
  version: string | null;
}

export interface AssistantEntry extends EntryBase {
  kind: "assistant";
  line: number;
  // Null for the root session; a subagent's output names the Agent tool call it runs under.
  parentToolUseId: string | null;
  text: string;
}

export const TASK_SUBTYPES = ["task_started", "task_progress", "task_updated", "task_notification"] as const;
export type TaskSubtype = (typeof TASK_SUBTYPES)[number];

export interface TaskEntry extends EntryBase {
  kind: "task";
  line: number;
  subtype: TaskSubtype;
  taskId: string | null;
  status: string | null;
}

export interface ResultEntry extends EntryBase {
  kind: "result";
  line: number;
  subtype: string;
  isError: boolean;
  numTurns: number | null;
  usage: ResultEvent["usage"] | null;
  // input + output + cache creation + cache read tokens; a missing usage counts as 0.
  tokens: number;
  // origin.kind, or null when the result carries no origin.
  origin: string | null;
  text: string;
}

// Every other stdout line, kept so a printed excerpt shows what really sat between the entries that matter.
export interface OtherEntry extends EntryBase {
  kind: "other";
  line: number;
  label: string;
}

export type TimelineEntry = PushEntry | StdinEntry | InitEntry | AssistantEntry | TaskEntry | ResultEntry | OtherEntry;

export interface TurnTimeline {
  label: string;
  // Time 0 of the session: its process start, else its first recorded line.
  start: number;
  entries: TimelineEntry[];
}

type Block = { type: string; text?: unknown; name?: unknown };

// Text blocks as text, anything else as a short [type name] tag, so a tool call is visible in one line.
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Block[])
    .map((block) => {
      if (block.type === "text" && typeof block.text === "string") return block.text;
      return typeof block.name === "string" ? `[${block.type} ${block.name}]` : `[${block.type}]`;
    })
    .join(" ");
}

type Unturned<E> = E extends TimelineEntry ? Omit<E, "turn"> : never;

function fromStdout(record: StdoutRecord): Unturned<TimelineEntry> {
  const { line, t } = record;
  const event: StreamEvent | null = record.event;
  if (event === null) return { kind: "other", line, t, label: "unparsed" };
  if (isSystem(event, "init")) return { kind: "init", line, t, version: event.claude_code_version ?? null };
  if (isSystem(event) && (TASK_SUBTYPES as readonly string[]).includes(event.subtype)) {
    const subtype = event.subtype as TaskSubtype;
    return { kind: "task", line, t, subtype, taskId: event.task_id ?? null, status: event.status ?? null };
  }
  if (isAssistant(event)) {
    const parentToolUseId = event.parent_tool_use_id ?? null;
    return { kind: "assistant", line, t, parentToolUseId, text: contentText(event.message.content) };
  }
  if (isResult(event)) {
    const u = event.usage;
    const tokens =
      (u?.input_tokens ?? 0) +
      (u?.output_tokens ?? 0) +
      (u?.cache_creation_input_tokens ?? 0) +
      (u?.cache_read_input_tokens ?? 0);
    return {
      kind: "result",
      line,
      t,
      subtype: event.subtype,
      isError: event.is_error ?? false,
      numTurns: event.num_turns ?? null,
      usage: u ?? null,
      tokens,
      origin: event.origin?.kind ?? null,
      text: event.result ?? "",
    };
  }
  // System events go by their subtype, like init and the task events.
  return { kind: "other", line, t, label: isSystem(event) ? event.subtype : event.type };
}

function fromStdin(record: StdinRecord, stdin: number, prompt: number): Unturned<TimelineEntry> {
  let value: unknown;
  try {
    value = JSON.parse(record.raw);
  } catch {
    return { kind: "stdin", stdin, t: record.t, label: "unparsed" };
  }
  const line = (value ?? {}) as { type?: unknown; message?: { content?: unknown }; request?: { subtype?: unknown } };
  if (line.type === "user") return { kind: "push", stdin, t: record.t, prompt, text: contentText(line.message?.content) };
  const subtype = typeof line.request?.subtype === "string" ? `/${line.request.subtype}` : "";
  return { kind: "stdin", stdin, t: record.t, label: `${String(line.type)}${subtype}` };
}

// Merges stdin and stdout by time. On equal times stdout goes first: the harness timestamps a push when it writes it,
// and a push that shares a millisecond with a result was, in every wait-then-send step, sent because of that result.
export function buildTurnTimeline(session: SessionRecording): TurnTimeline {
  const { stdout, stdin } = session;
  const merged: Unturned<TimelineEntry>[] = [];
  let o = 0;
  let i = 0;
  let prompts = 0;
  while (o < stdout.length || i < stdin.length) {
    const out = stdout[o];
    const inp = stdin[i];
    if (out !== undefined && (inp === undefined || out.t <= inp.t)) {
      merged.push(fromStdout(out));
      o++;
    } else if (inp !== undefined) {
      const entry = fromStdin(inp, i, prompts + 1);
      if (entry.kind === "push") prompts++;
      merged.push(entry);
      i++;
    }
  }
  let results = 0;
  const entries = merged.map((entry): TimelineEntry => {
    if (entry.kind === "result") results++;
    return { ...entry, turn: entry.kind === "result" ? results : results + 1 };
  });
  const first = Math.min(stdout[0]?.t ?? Infinity, stdin[0]?.t ?? Infinity);
  const start = session.process?.startedAt ?? (Number.isFinite(first) ? first : 0);
  return { label: session.label, start, entries };
}
