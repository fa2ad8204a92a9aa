// Prints a turn timeline as short aligned lines (time, session, event, turn, gist) for findings and reports.
import type { TimelineEntry, TurnTimeline } from "./turn-timeline.ts";

export interface FormatOptions {
  // Stdout line indexes to show, with `context` entries either side; every entry when absent.
  around?: readonly number[];
  context?: number;
  // Time 0 for the printed offsets (e.g. the run's start, to line up several sessions); the session start by default.
  start?: number;
}

const MAX_LINE = 110;
// Fits "task_notification"; longer event names are clipped so the columns after it stay aligned.
export const KIND_WIDTH = 17;

export const clip = (text: string, width: number): string => (text.length <= width ? text : `${text.slice(0, width - 1)}…`);

export function quote(text: string, room: number): string {
  const flat = JSON.stringify(text.replace(/\s+/g, " "));
  if (flat.length <= room) return flat;
  return `${flat.slice(0, Math.max(room - 2, 1))}…"`;
}

function kindLabel(entry: TimelineEntry): string {
  switch (entry.kind) {
    case "assistant":
      return entry.parentToolUseId === null ? "assistant" : "subagent";
    case "task":
      return entry.subtype;
    case "other":
    case "stdin":
      return entry.label;
    default:
      return entry.kind;
  }
}

// The gist of an entry, given how many characters are left on the line for quoted text.
function gist(entry: TimelineEntry, room: number): string {
  switch (entry.kind) {
    case "push":
      return `prompt #${entry.prompt} ${quote(entry.text, room - 12)}`;
    case "init":
      return entry.version === null ? "" : `version=${entry.version}`;
    case "assistant": {
      const parent = entry.parentToolUseId === null ? "" : `parent=${entry.parentToolUseId.slice(0, 14)} `;
      return `${parent}${quote(entry.text, room - parent.length)}`;
    }
    case "task":
      return [entry.taskId && `task=${entry.taskId}`, entry.status && `status=${entry.status}`].filter(Boolean).join(" ");
    case "result": {
      const head = [
        entry.subtype === "success" ? "" : entry.subtype,
        entry.isError ? "is_error" : "",
        `num_turns=${entry.numTurns ?? "?"}`,
        `origin=${entry.origin ?? "-"}`,
        `usage=${entry.tokens}`,
      ]
        .filter(Boolean)
        .join(" ");
      return `${head} ${quote(entry.text, room - head.length - 1)}`;
    }
    default:
      return "";
  }
}

function where(entry: TimelineEntry): string {
  return entry.kind === "push" || entry.kind === "stdin" ? `in${entry.stdin}` : `${entry.line}`;
}

export function offset(t: number, start: number): string {
  const s = (t - start) / 1000;
  return `${s < 0 ? "-" : "+"}${Math.abs(s).toFixed(3)}s`;
}

// Which entries to print: all, or the cited stdout lines with their neighbours; null marks an elided gap.
function select(entries: TimelineEntry[], options: FormatOptions): (TimelineEntry | null)[] {
  if (options.around === undefined) return entries;
  const cited = new Set(options.around);
  const context = options.context ?? 3;
  const keep = new Set<number>();
  entries.forEach((entry, i) => {
    if (entry.kind === "push" || entry.kind === "stdin" || !cited.has(entry.line)) return;
    for (let j = Math.max(0, i - context); j <= Math.min(entries.length - 1, i + context); j++) keep.add(j);
  });
  const out: (TimelineEntry | null)[] = [];
  entries.forEach((entry, i) => {
    if (keep.has(i)) out.push(entry);
    else if (keep.has(i - 1)) out.push(null);
  });
  if (out.length > 0 && !keep.has(0)) out.unshift(null);
  return out;
}

// One line per entry: `  +12.345s  s2  result             t2  L7  num_turns=0 origin=task-notification usage=0 ""`.
// The line column is the stdout line index (`in3` = the fourth stdin line), the same numbers findings cite.
export function formatTimeline(timeline: TurnTimeline, options: FormatOptions = {}): string[] {
  const start = options.start ?? timeline.start;
  return select(timeline.entries, options).map((entry) => {
    if (entry === null) return "  …";
    const head = [
      offset(entry.t, start).padStart(9),
      timeline.label,
      clip(kindLabel(entry), KIND_WIDTH).padEnd(KIND_WIDTH),
      `t${entry.turn}`.padEnd(3),
      where(entry).padStart(4),
    ].join("  ");
    return `  ${head}  ${gist(entry, MAX_LINE - head.length - 4)}`.trimEnd();
  });
}
