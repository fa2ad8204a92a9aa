// Where a conversation stream paused and continued — within its process after the turn ended (kind "resume": an
// in-process continuation) or in a later `--resume` process (kind "stop": a process resume) — and what carried it on.
import type { RequestEntry } from "../mock-api/log-entry.ts";
import type { Recordings, SessionProcess } from "../harness/recordings.ts";
import { isModelRequest } from "./model-request.ts";
import { readMessagesBody } from "./request-body.ts";

// The kind names stay "resume" and "stop" (scenarios filter on them); what a person reads is BOUNDARY_NAMES.
export type BoundaryKind = "resume" | "stop";
export const BOUNDARY_KINDS: readonly BoundaryKind[] = ["resume", "stop"];
export const BOUNDARY_NAMES: Record<BoundaryKind, string> = { resume: "continuation", stop: "process resume" };

// What the request after the pause added, read from its last user message: a prompt pushed or typed, a background
// task's <task-notification>, a Stop hook's blocking feedback ("Stop hook feedback:"), or tool results only.
export type BoundaryCause = "prompt" | "task-notification" | "stop-hook" | "tool-result";
export const CAUSE_NAMES: Record<BoundaryCause, string> = {
  prompt: "prompt",
  "task-notification": "task notification",
  "stop-hook": "Stop hook",
  "tool-result": "tool result",
};

export interface Boundary {
  kind: BoundaryKind;
  stream: string;
  // What carried the stream on; null when the after request's body is not recorded or says none of these.
  cause: BoundaryCause | null;
  // seq of the stream's last request before the pause, and of its first request after it.
  before: number;
  after: number;
  // 1-based, counted per kind and stream in order of `after`.
  index: number;
}

export interface BoundaryOptions {
  // Only these streams; default every named stream.
  streams?: readonly string[];
}

// "continuation 3 (main, prompt): req 4 → req 5", "process resume 1 (main): req 11 → req 12".
export function describeBoundary(b: Boundary): string {
  return `${BOUNDARY_NAMES[b.kind]} ${b.index} (${b.stream}${b.cause ? `, ${CAUSE_NAMES[b.cause]}` : ""}): req ${b.before} → req ${b.after}`;
}

const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

// The cause, from the last message of request `seq`: what the client appended to carry the conversation on.
function boundaryCause(rec: Partial<Pick<Recordings, "body">>, seq: number): BoundaryCause | null {
  if (!rec.body) return null;
  let last;
  try {
    last = readMessagesBody(rec as Pick<Recordings, "body">, seq).messages.at(-1);
  } catch {
    // A pruned fixture keeps only some bodies; the boundary is then named without its cause.
    return null;
  }
  if (!last || last.role !== "user") return null;
  // Each block as its type and text; anything else in the content array has no type.
  const blocks = (typeof last.content === "string" ? [{ type: "text", text: last.content }] : last.content).map((b) => {
    const o = typeof b === "object" && b !== null && !Array.isArray(b) ? b : {};
    return { type: typeof o.type === "string" ? o.type : null, text: typeof o.text === "string" ? o.text : null };
  });
  if (blocks.length > 0 && blocks.every((b) => b.type === "tool_result")) return "tool-result";
  const text = blocks.flatMap((b) => (b.type === "text" && b.text !== null ? [b.text] : [])).join("\n");
  // Releases wrap notifications and context in <system-reminder>; what is left outside them is what was sent.
  const own = text.replace(SYSTEM_REMINDER, "").trim();
  if (own.startsWith("<task-notification>") || (own === "" && text.includes("<task-notification>"))) return "task-notification";
  if (own.startsWith("Stop hook feedback")) return "stop-hook";
  return own === "" ? null : "prompt";
}

// The client saw the turn end: a complete reply whose stop reason does not make it call again on its own
// (tool_use runs tools, pause_turn continues); errors, faults and cut-off responses are retried instead.
function endedTurn(entry: RequestEntry, rec: Pick<Recordings, "responseEnds">): boolean {
  const stop = entry.reply.stopReason;
  const outcome = rec.responseEnds.get(entry.seq)?.outcome;
  return stop !== null && stop !== "tool_use" && stop !== "pause_turn" && entry.reply.fault === null && outcome !== "aborted" && outcome !== "dropped";
}

// Sessions run one after another; when windows overlap the later-started process owns the request.
function owningProcess(entry: RequestEntry, processes: readonly SessionProcess[]): SessionProcess | null {
  let owner: SessionProcess | null = null;
  for (const p of processes) {
    if (entry.receivedAt >= p.startedAt && entry.receivedAt <= (p.endedAt ?? Infinity)) owner = p;
  }
  return owner;
}

// The process a `--resume` process continues: the latest earlier process of the same resume chain. resumeOf names
// an earlier session by label (or, failing that, by session id). "Earlier" is strict, so a process is never its own
// parent; and a process that resumed no one is its chain's first, with no earlier process in its chain: null.
function resumedFrom(q: SessionProcess, processes: readonly SessionProcess[]): SessionProcess | null {
  const root = (p: SessionProcess): SessionProcess => {
    const parent = p.resumeOf === null ? undefined : processes.find((o) => (o.label === p.resumeOf || o.sessionId === p.resumeOf) && o.startedAt < p.startedAt);
    return parent ? root(parent) : p;
  };
  const chain = root(q);
  const earlier = processes.filter((p) => p.startedAt < q.startedAt && root(p) === chain);
  return earlier.at(-1) ?? null;
}

// With `body`, each boundary also says what carried the stream on (cause); without it, cause is null.
export function findBoundaries(rec: Pick<Recordings, "requests" | "responseEnds" | "sessions"> & Partial<Pick<Recordings, "body">>, options: BoundaryOptions = {}): Boundary[] {
  const processes = rec.sessions.flatMap((s) => (s.process ? [s.process] : [])).sort((a, b) => a.startedAt - b.startedAt);
  const byStream = new Map<string, { entry: RequestEntry; process: SessionProcess | null }[]>();
  for (const entry of [...rec.requests].sort((a, b) => a.seq - b.seq)) {
    if (!isModelRequest(entry) || (options.streams && !options.streams.includes(entry.stream))) continue;
    const list = byStream.get(entry.stream) ?? [];
    list.push({ entry, process: owningProcess(entry, processes) });
    byStream.set(entry.stream, list);
  }

  const found: Omit<Boundary, "index" | "cause">[] = [];
  for (const [stream, list] of byStream) {
    for (let i = 0; i + 1 < list.length; i++) {
      const [a, b] = [list[i]!, list[i + 1]!];
      if (a.process === b.process && endedTurn(a.entry, rec)) found.push({ kind: "resume", stream, before: a.entry.seq, after: b.entry.seq });
    }
    for (const q of processes) {
      const p = resumedFrom(q, processes);
      const last = list.filter((r) => r.process === p).at(-1);
      const first = list.find((r) => r.process === q);
      if (p && last && first) found.push({ kind: "stop", stream, before: last.entry.seq, after: first.entry.seq });
    }
  }

  const counters = new Map<string, number>();
  return found
    .sort((a, b) => a.after - b.after || a.kind.localeCompare(b.kind))
    .map((b) => {
      const index = (counters.get(`${b.kind}/${b.stream}`) ?? 0) + 1;
      counters.set(`${b.kind}/${b.stream}`, index);
      return { ...b, cause: boundaryCause(rec, b.after), index };
    });
}
