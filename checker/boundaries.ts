// Where a conversation stream paused and continued — idle-then-woken (resume) or process-then-`--resume` (stop) — from the recordings alone.
import type { RequestEntry } from "../mock-api/log-entry.ts";
import type { Recordings, SessionProcess } from "../harness/recordings.ts";
import { isModelRequest } from "./model-request.ts";

export type BoundaryKind = "resume" | "stop";
export const BOUNDARY_KINDS: readonly BoundaryKind[] = ["resume", "stop"];

export interface Boundary {
  kind: BoundaryKind;
  stream: string;
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

export function describeBoundary(b: Boundary): string {
  return `${b.kind} boundary ${b.index} (${b.stream}): req ${b.before} → req ${b.after}`;
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

export function findBoundaries(rec: Pick<Recordings, "requests" | "responseEnds" | "sessions">, options: BoundaryOptions = {}): Boundary[] {
  const processes = rec.sessions.flatMap((s) => (s.process ? [s.process] : [])).sort((a, b) => a.startedAt - b.startedAt);
  const byStream = new Map<string, { entry: RequestEntry; process: SessionProcess | null }[]>();
  for (const entry of [...rec.requests].sort((a, b) => a.seq - b.seq)) {
    if (!isModelRequest(entry) || (options.streams && !options.streams.includes(entry.stream))) continue;
    const list = byStream.get(entry.stream) ?? [];
    list.push({ entry, process: owningProcess(entry, processes) });
    byStream.set(entry.stream, list);
  }

  const found: Omit<Boundary, "index">[] = [];
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
      return { ...b, index };
    });
}
