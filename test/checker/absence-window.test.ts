// Absence (a turn nobody continued, a notification that never reached the model) is judged only after a window
// scaled from the run's own pace, and the window is in the finding. Recorded runs, edited in memory.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { absenceWindow, MIN_WINDOW_MS, recordedUntil, waitedSince, WINDOW_FACTOR } from "../../checker/absence-window.ts";
import { checkContinuation } from "../../checker/continuation.ts";
import { checkHookPrompts } from "../../checker/hooks.ts";
import { judge } from "../../core/verdict.ts";
import { loadRecordings, loadRequestLog, startingProcess, type Recordings, type SessionRecording } from "../../harness/recordings.ts";

const hooksRun = (name: string) => loadRecordings(fileURLToPath(new URL(`../fixtures/hooks/${name}`, import.meta.url)));
const BACKGROUND = path.join(import.meta.dirname, "..", "fixtures", "background", "2.1.150-dropped");

// The 2.1.281 mid-turn run without the request that delivered the notification; the session ends `endAfterMs` after
// the task finished (stdout's own later lines dropped, so the end is the process's).
function lostNotification(endAfterMs: number): Recordings {
  const rec = hooksRun("2.1.281-mid-turn");
  rec.requests = rec.requests.filter((r) => r.seq < 3);
  const s1 = rec.sessions[0]!;
  const finished = s1.stdout.find((l) => l.raw.includes('"task_notification"') || l.raw.includes('"task_updated"'))!.t;
  s1.stdout = s1.stdout.filter((l) => l.t <= finished);
  rec.hooks = rec.hooks.filter((h) => h.t <= finished);
  s1.process!.endedAt = finished + endAfterMs;
  return rec;
}

describe("notification-lost waits out the run's window", () => {
  it("is INCONCLUSIVE when the recording ended 2 s after the task finished, naming the window", () => {
    const result = judge(checkHookPrompts(lostNotification(2_000), { redIds: ["notification-lost"], streams: ["main"] }));
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toMatch(/had not reached the model when the recording ended \(watched \d\.\d s; window \d+\.\d s: 5 × \(time to first request/);
  });

  it("counts the time the run kept watching after its last recorded event (the end of its last step)", () => {
    const rec = lostNotification(2_000);
    expect(judge(checkHookPrompts(rec, { redIds: ["notification-lost"], streams: ["main"] })).verdict).toBe("INCONCLUSIVE");
    rec.observedUntil = recordedUntil(rec) + 60_000;
    expect(judge(checkHookPrompts(rec, { redIds: ["notification-lost"], streams: ["main"] })).verdict).toBe("RED");
  });

  it("is RED after the window, and the finding states it", () => {
    const result = judge(checkHookPrompts(lostNotification(60_000), { redIds: ["notification-lost"], streams: ["main"] }));
    expect(result.verdict).toBe("RED");
    const lost = result.findings.find((f) => f.id === "notification-lost")!;
    expect(lost.title).toMatch(/within 60\.0 s$/);
    expect(lost.detail[1]).toMatch(/^watched 60\.0 s; window \d+\.\d s: 5 × \(time to first request 1\.2 s/);
  });
});

describe("turn-dropped waits out the run's window", () => {
  const foregroundPid = (JSON.parse(fs.readFileSync(path.join(BACKGROUND, "foreground.json"), "utf8")) as { pid: number }).pid;
  // The recorded 2.1.150 log with a UI session that started 3 s before its first request and ended `endAfterMs`
  // after the tool call in flight was delivered (req 2).
  function dropped(endAfterMs: number) {
    const log = loadRequestLog(path.join(BACKGROUND, "mock"));
    const first = log.requests[0]!.receivedAt;
    const ui: SessionRecording = { label: "ui", stdout: [], stdin: [], process: { ...startingProcess("ui", [], null), startedAt: first - 3_000, endedAt: log.responseEnds.get(2)!.endedAt + endAfterMs } };
    return { ...log, sessions: [ui] };
  }

  it("is INCONCLUSIVE when the run ended before the window (10 s after the tool call; window 15 s)", () => {
    const rec = dropped(10_000);
    expect(absenceWindow(rec).timeToFirstRequestMs).toBeCloseTo(3_000, 0);
    const result = judge(checkContinuation(rec, { stream: "main", foregroundPid }));
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toMatch(/too soon to call it dropped: watched 10\.0 s; window 15\.\d s/);
  });

  it("is RED after the window, and the finding states it", () => {
    const result = judge(checkContinuation(dropped(40_000), { stream: "main", foregroundPid }));
    expect(result.verdict).toBe("RED");
    expect(result.findings.find((f) => f.id === "turn-dropped")!.detail.at(-1)).toMatch(/^watched 40\.0 s; window 15\.\d s: 5 × \(time to first request 3\.0 s/);
  });
});

describe("absenceWindow", () => {
  it("is the minimum without sessions, and scales with the slowest response", () => {
    const log = loadRequestLog(path.join(BACKGROUND, "mock"));
    expect(absenceWindow(log)).toMatchObject({ requiredMs: MIN_WINDOW_MS, timeToFirstRequestMs: null });
    const slow = { ...log, responseEnds: new Map([[1, { kind: "response-end" as const, seq: 1, endedAt: log.requests[0]!.receivedAt + 2_000, outcome: "complete" as const }]]) };
    expect(absenceWindow(slow).requiredMs).toBeCloseTo(WINDOW_FACTOR * 2_000, 0);
    expect(recordedUntil(log)).toBe(Math.max(...log.requests.map((r) => r.receivedAt), ...[...log.responseEnds.values()].map((e) => e.endedAt)));
    expect(waitedSince(log, recordedUntil(log) - MIN_WINDOW_MS).enough).toBe(true);
    expect(waitedSince(log, recordedUntil(log) - MIN_WINDOW_MS + 1).enough).toBe(false);
  });
});

describe("absenceWindow and recordedUntil on hand-built recordings", () => {
  const request = (seq: number, receivedAt: number) => ({ seq, receivedAt }) as Recordings["requests"][number];
  const session = (startedAt: number, endedAt: number | null, extra: Partial<SessionRecording> = {}): SessionRecording => ({
    label: "s",
    stdout: [],
    stdin: [],
    process: { ...startingProcess("s", [], null), startedAt, endedAt },
    ...extra,
  });

  it("measures the time to the first request after the earliest session start, ignoring earlier requests", () => {
    const rec = { requests: [request(1, 500), request(2, 3_000)], responseEnds: new Map(), sessions: [session(2_000, null), session(1_000, null)] };
    expect(absenceWindow(rec)).toEqual({ requiredMs: WINDOW_FACTOR * 2_000, timeToFirstRequestMs: 2_000, slowestResponseMs: 0 });
  });

  it("has no pace without a request after the start, and says so", () => {
    const rec = { requests: [request(1, 500)], responseEnds: new Map(), sessions: [session(1_000, 9_000)] };
    expect(absenceWindow(rec).timeToFirstRequestMs).toBeNull();
    expect(waitedSince(rec, 0).text).toBe("watched 9.0 s; window 5.0 s: the minimum, no session recorded to measure the pace from");
    expect(waitedSince(rec, 0).enough).toBe(true);
  });

  it("ends the recording at the latest of requests, response ends, hooks, stdout, stdin and process ends", () => {
    const base = { requests: [request(1, 100)], responseEnds: new Map([[1, { kind: "response-end" as const, seq: 1, endedAt: 200, outcome: "complete" as const }]]) };
    expect(recordedUntil(base)).toBe(200);
    expect(recordedUntil({ ...base, hooks: [{ t: 300, event: "Stop", durationMs: 1, raw: "", payload: null, answer: null }] })).toBe(300);
    expect(recordedUntil({ ...base, sessions: [session(0, 400)] })).toBe(400);
    expect(recordedUntil({ ...base, sessions: [session(0, null, { stdin: [{ t: 500, raw: "" }] })] })).toBe(500);
    expect(recordedUntil({ ...base, sessions: [session(0, null, { stdout: [{ line: 0, t: 600, raw: "", event: null }] })] })).toBe(600);
    expect(recordedUntil({ requests: [], responseEnds: new Map() })).toBe(0);
  });
});
