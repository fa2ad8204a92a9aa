// What a report shows of one run directory: each session's turn timeline and each stream's requests, boundaries marked.
import fs from "node:fs";
import { findBoundaries } from "../checker/boundaries.ts";
import { auditCache, type CacheAudit } from "../checker/cache-audit.ts";
import { formatTimeline } from "../checker/timeline-format.ts";
import { buildTurnTimeline } from "../checker/turn-timeline.ts";
import { loadRecordings, type Recordings } from "../harness/recordings.ts";
import { runLayout } from "../harness/run-layout.ts";
import { formatRequestTimeline, type TimelineLine } from "./request-timeline.ts";

export interface RunView {
  sessions: { label: string; lines: string[] }[];
  streams: { stream: string; lines: TimelineLine[] }[];
  // The prompt-cache model replayed over each stream, for the cache bars.
  cache: CacheAudit;
}

// A run directory that is gone (e.g. only the summaries of a CI nightly were downloaded) or damaged gives its reason
// instead, so one run cannot take the whole page down.
export function loadRunView(runDir: string): RunView | { missing: string } {
  if (!fs.existsSync(runLayout(runDir).runJson)) return { missing: `${runDir} is not here (only the summary was kept)` };
  try {
    return viewOf(loadRecordings(runDir));
  } catch (error) {
    return { missing: `${runDir} could not be read: ${(error as Error).message}` };
  }
}

function viewOf(rec: Recordings): RunView {
  // One time 0 for every session and stream, so their offsets line up.
  const starts = [...rec.sessions.map((s) => s.process?.startedAt ?? s.stdout[0]?.t ?? Infinity), ...rec.requests.map((r) => r.receivedAt)];
  const start = Math.min(...starts);
  const origin = Number.isFinite(start) ? start : 0;
  const boundaries = findBoundaries(rec);
  const streams = [...new Set(rec.requests.flatMap((r) => (r.stream === null ? [] : [r.stream])))];
  return {
    sessions: rec.sessions.map((s) => ({ label: s.label, lines: formatTimeline(buildTurnTimeline(s), { start: origin }) })),
    streams: streams.map((stream) => ({ stream, lines: formatRequestTimeline(stream, rec.requests, rec.responseEnds, boundaries, origin) })),
    cache: auditCache(rec),
  };
}
