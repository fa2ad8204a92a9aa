// Edges of the run's measured pace: a session whose process record is missing, and a request at the very moment a
// session started. Hand-built recordings; only the times matter to the window.
import { describe, expect, it } from "vitest";
import { absenceWindow, recordedUntil, waitedSince } from "../../checker/absence-window.ts";
import { startingProcess, type Recordings, type SessionRecording } from "../../harness/recordings.ts";

const request = (seq: number, receivedAt: number) => ({ seq, receivedAt }) as Recordings["requests"][number];
const responseEnd = (seq: number, endedAt: number) => ({ kind: "response-end" as const, seq, endedAt, outcome: "complete" as const });
const session = (label: string, startedAt: number, endedAt: number | null): SessionRecording => ({
  label,
  stdout: [],
  stdin: [],
  process: { ...startingProcess(label, [], null), startedAt, endedAt },
});
// A session directory whose session.json was never written (the harness died before the process started).
const withoutProcess = (label: string): SessionRecording => ({ label, stdout: [], stdin: [], process: null });

describe("the run's pace", () => {
  it("is measured from the sessions that recorded a start; one without a process record neither counts nor breaks the end", () => {
    const rec = { requests: [request(1, 3_000)], responseEnds: new Map(), sessions: [withoutProcess("lost"), session("s1", 1_000, 2_500)] };
    expect(absenceWindow(rec)).toEqual({ requiredMs: 10_000, timeToFirstRequestMs: 2_000, slowestResponseMs: 0 });
    expect(recordedUntil(rec)).toBe(3_000);
    expect(recordedUntil({ requests: [], responseEnds: new Map(), sessions: [withoutProcess("lost")] })).toBe(0);
  });

  it("has no pace when only sessions without a process record were kept", () => {
    const rec = { requests: [request(1, 3_000)], responseEnds: new Map(), sessions: [withoutProcess("lost")] };
    expect(absenceWindow(rec)).toEqual({ requiredMs: 5_000, timeToFirstRequestMs: null, slowestResponseMs: 0 });
  });

  it("counts a request received at the very millisecond the session started as the first one, 0 s in", () => {
    const rec = { requests: [request(1, 1_000), request(2, 4_000)], responseEnds: new Map([[1, responseEnd(1, 2_500)]]), sessions: [session("s1", 1_000, null)] };
    expect(absenceWindow(rec)).toEqual({ requiredMs: 7_500, timeToFirstRequestMs: 0, slowestResponseMs: 1_500 });
    expect(waitedSince(rec, 0)).toMatchObject({
      waitedMs: 4_000,
      enough: false,
      text: "watched 4.0 s; window 7.5 s: 5 × (time to first request 0.0 s + slowest response 1.5 s), at least 5.0 s",
    });
  });
});
