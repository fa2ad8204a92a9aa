// How long a run must have gone on before the absence of something (a continued turn, a delivered notification) counts:
// scaled from the run's own pace, so a slow release on a loaded machine reads INCONCLUSIVE, not RED.
import type { Recordings } from "../harness/recordings.ts";

export type PacedRecording = Pick<Recordings, "requests" | "responseEnds"> & Partial<Pick<Recordings, "sessions" | "hooks" | "observedUntil">>;

// No window is shorter than this, however fast the run.
export const MIN_WINDOW_MS = 5_000;
// The window is this many times the run's slowest reaction: a release's start-up to its first request, plus the
// slowest response the mock wrote. Any process that would continue a turn or carry a notification starts and asks.
export const WINDOW_FACTOR = 5;

export interface AbsenceWindow {
  requiredMs: number;
  // The run's own measurements behind it; null when the run has no session recordings to measure from.
  timeToFirstRequestMs: number | null;
  slowestResponseMs: number;
}

export interface Waited {
  window: AbsenceWindow;
  waitedMs: number;
  enough: boolean;
  // "waited 31.2 s; window 12.0 s = 5 × (time to first request 2.1 s + slowest response 0.3 s)".
  text: string;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function absenceWindow(rec: PacedRecording): AbsenceWindow {
  const starts = (rec.sessions ?? []).flatMap((s) => (s.process ? [s.process.startedAt] : []));
  // Infinity when no session recorded a start: no request follows it, so there is no pace to measure.
  const firstStart = Math.min(...starts);
  const firstRequest = rec.requests.find((r) => r.receivedAt >= firstStart);
  const timeToFirstRequestMs = firstRequest ? firstRequest.receivedAt - firstStart : null;
  const slowestResponseMs = Math.max(0, ...rec.requests.map((r) => (rec.responseEnds.get(r.seq)?.endedAt ?? r.receivedAt) - r.receivedAt));
  const requiredMs = Math.max(MIN_WINDOW_MS, WINDOW_FACTOR * ((timeToFirstRequestMs ?? 0) + slowestResponseMs));
  return { requiredMs, timeToFirstRequestMs, slowestResponseMs };
}

// The last moment the run was watching: the end of its last step, or the last thing it recorded if later.
export function recordedUntil(rec: PacedRecording): number {
  const times = [
    rec.observedUntil ?? 0,
    ...rec.requests.map((r) => r.receivedAt),
    ...[...rec.responseEnds.values()].map((e) => e.endedAt),
    ...(rec.hooks ?? []).map((h) => h.t),
    ...(rec.sessions ?? []).flatMap((s) => [...s.stdout.map((l) => l.t), ...s.stdin.map((l) => l.t), s.process?.endedAt ?? 0]),
  ];
  return Math.max(0, ...times);
}

// Whether the run went on long enough after `since` for an absence to mean something. Without session recordings
// (a request log alone) the pace cannot be measured and the window is the minimum.
export function waitedSince(rec: PacedRecording, since: number): Waited {
  const window = absenceWindow(rec);
  const waitedMs = recordedUntil(rec) - since;
  const basis =
    window.timeToFirstRequestMs === null
      ? `the minimum, no session recorded to measure the pace from`
      : `${WINDOW_FACTOR} × (time to first request ${seconds(window.timeToFirstRequestMs)} + slowest response ${seconds(window.slowestResponseMs)}), at least ${seconds(MIN_WINDOW_MS)}`;
  return { window, waitedMs, enough: waitedMs >= window.requiredMs, text: `watched ${seconds(waitedMs)}; window ${seconds(window.requiredMs)}: ${basis}` };
}
