// Which process owns a request, and which process a `--resume` continues: the edges of findBoundaries over hand-built
// request logs (fakeRecordings; each request's receivedAt is given where the process windows decide its owner).
import { describe, expect, it } from "vitest";
import { findBoundaries } from "../../checker/boundaries.ts";
import type { Recordings } from "../../harness/recordings.ts";
import { fakeRecordings, type FakeProcess, type FakeRequest } from "../fixtures/notifications/recordings.ts";

const brief = (rec: Parameters<typeof findBoundaries>[0]) => findBoundaries(rec).map((b) => `${b.kind} ${b.stream}#${b.index} ${b.before}→${b.after}`);
const main = (...receivedAt: number[]): FakeRequest[] => receivedAt.map((t) => ({ stream: "main", receivedAt: t }));

describe("findBoundaries: a request's owning process", () => {
  // A process window is closed at both ends: a request received in the very millisecond a process started or ended
  // belongs to it, so two such requests of one process read as one process going idle and being woken.
  it("counts a request at the exact start or end of a process as that process's", () => {
    const processes: FakeProcess[] = [
      { label: "s1", startedAt: 100, endedAt: 200 },
      { label: "s2", startedAt: 300, endedAt: 400 },
    ];
    expect(brief(fakeRecordings(main(300, 350), processes))).toEqual(["resume main#1 1→2"]);
    expect(brief(fakeRecordings(main(150, 200), processes))).toEqual(["resume main#1 1→2"]);
  });

  // A request after the process ended (a stray client, a late retry) is no one's: it cannot continue that process's turn.
  it("does not give a request received after a process ended to that process", () => {
    expect(brief(fakeRecordings(main(150, 250), [{ label: "s1", startedAt: 100, endedAt: 200 }]))).toEqual([]);
  });

  // The sessions' listing order is not their start order (hand-built; a loaded run lists them by start): the
  // later-started of two overlapping processes owns what both windows hold, so 2 and 3 are one process's turns.
  it("gives an overlapping request to the later-started process, whatever order the sessions are listed in", () => {
    const rec = fakeRecordings(main(150, 350, 360), [
      { label: "late", startedAt: 300, endedAt: null },
      { label: "early", startedAt: 100, endedAt: null },
    ]);
    expect(brief(rec)).toEqual(["resume main#1 2→3"]);
  });

  // A session that recorded no process (it never started) is left out; it must not upset the start order of the rest.
  it("skips a session without a process record", () => {
    const rec = fakeRecordings(main(150, 350, 360), [
      { label: "late", startedAt: 300, endedAt: null },
      { label: "never-started", startedAt: 0 },
      { label: "early", startedAt: 100, endedAt: null },
    ]);
    rec.sessions[1]!.process = null;
    expect(brief(rec)).toEqual(["resume main#1 2→3"]);
  });

  it("reads requests in seq order, whatever order the log lists them in", () => {
    const forward = fakeRecordings([{ stream: "main", stopReason: "tool_use" }, { stream: "main" }, { stream: "main" }, { stream: "main" }]);
    const reversed: Recordings = { ...forward, requests: [...forward.requests].reverse() };
    expect(brief(reversed)).toEqual(["resume main#1 2→3", "resume main#2 3→4"]);
  });

  // A request whose response the mock never finished writing (the run ended first) still counts by its stop reason.
  it("judges a request with no recorded response end by its reply alone", () => {
    const rec = fakeRecordings([{ stream: "main" }, { stream: "main" }]);
    rec.responseEnds.delete(1);
    expect(brief(rec)).toEqual(["resume main#1 1→2"]);
  });
});

describe("findBoundaries: which process a --resume continues", () => {
  // One request in main per process, at 500 ms into each process's window.
  const run = (processes: FakeProcess[]) => fakeRecordings(main(...processes.map((p) => p.startedAt + 500)), processes);

  // Two conversations interleaved in time: t1 is a separate conversation that ran between s1 and its resume s2.
  // Session ids were not recorded (null), as when the init line never came.
  it("pairs a resume with its own conversation, not with an unrelated process that ran in between", () => {
    const processes: FakeProcess[] = [
      { label: "s1", startedAt: 1000, endedAt: 2000 },
      { label: "t1", startedAt: 3000, endedAt: 4000 },
      { label: "s2", startedAt: 5000, endedAt: null, resumeOf: "s1" },
    ];
    expect(brief(run(processes))).toEqual(["stop main#1 1→3"]);
  });

  it("pairs a resume with its own conversation when an unrelated process ran before it", () => {
    const processes: FakeProcess[] = [
      { label: "t1", startedAt: 1000, endedAt: 2000 },
      { label: "s1", startedAt: 3000, endedAt: 4000 },
      { label: "s2", startedAt: 5000, endedAt: null, resumeOf: "s1" },
    ];
    expect(brief(run(processes))).toEqual(["stop main#1 2→3"]);
  });

  // a names a label that only a later process carries (a session recorded outside this run shared the name); the
  // later b is not a's parent, so c, which resumed a, continues a and not b.
  it("never takes a process started later as the one resumed", () => {
    const processes: FakeProcess[] = [
      { label: "a", startedAt: 1000, endedAt: 2000, resumeOf: "b" },
      { label: "b", startedAt: 3000, endedAt: 4000 },
      { label: "c", startedAt: 5000, endedAt: null, resumeOf: "a" },
    ];
    expect(brief(run(processes))).toEqual(["stop main#1 1→3"]);
  });

  // Both processes resume a session from before this run and keep its id, as `--resume <id>` does: the first is the
  // chain's start, the second continues it.
  it("follows a chain whose first process itself resumed a session from before the run", () => {
    const processes: FakeProcess[] = [
      { label: "s1", startedAt: 1000, endedAt: 2000, resumeOf: "sid-0", sessionId: "sid-0" },
      { label: "s2", startedAt: 3000, endedAt: null, resumeOf: "sid-0", sessionId: "sid-0" },
    ];
    expect(brief(run(processes))).toEqual(["stop main#1 1→2"]);
  });

  // Two processes sharing a session id that started in the same millisecond: neither started before the other, so
  // neither resumed the other.
  it("does not count a process started in the same millisecond as earlier", () => {
    const processes: FakeProcess[] = [
      { label: "s1", startedAt: 1000, endedAt: 1200, resumeOf: "sid-0", sessionId: "sid-0" },
      { label: "s2", startedAt: 1000, endedAt: null, resumeOf: "sid-0", sessionId: "sid-0" },
    ];
    expect(brief(fakeRecordings(main(1100, 1500), processes))).toEqual(["resume main#1 1→2"]);
  });

  // p and q both resumed c and started in the same millisecond (q ended first): each continues c, not the other.
  it("pairs two resumes started in the same millisecond each with the process they resumed", () => {
    const processes: FakeProcess[] = [
      { label: "c", startedAt: 1000, endedAt: 2000 },
      { label: "p", startedAt: 3000, endedAt: 4000, resumeOf: "c" },
      { label: "q", startedAt: 3000, endedAt: 3200, resumeOf: "c" },
    ];
    expect(brief(fakeRecordings(main(1500, 3100, 3500), processes))).toEqual(["stop main#1 1→2", "stop main#2 1→3"]);
  });

  it("pairs the last request of the resumed process, however many it made, with the first of the resume", () => {
    const processes: FakeProcess[] = [
      { label: "s1", startedAt: 1000, endedAt: 5000 },
      { label: "s2", startedAt: 6000, endedAt: null, resumeOf: "s1" },
    ];
    const rec = fakeRecordings(
      [
        { stream: "main", receivedAt: 1500, stopReason: "tool_use" },
        { stream: "main", receivedAt: 2500, stopReason: "tool_use" },
        { stream: "main", receivedAt: 3500, stopReason: "tool_use" },
        { stream: "main", receivedAt: 4500, stopReason: "tool_use" },
        { stream: "main", receivedAt: 6500 },
      ],
      processes,
    );
    expect(brief(rec)).toEqual(["stop main#1 4→5"]);
  });
});
