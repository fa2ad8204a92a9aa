// Boundary detection over hand-built request logs: idle-then-woken within a process, and process-then-`--resume`.
import { describe, expect, it } from "vitest";
import path from "node:path";
import { describeBoundary, findBoundaries } from "../../checker/boundaries.ts";
import { loadRecordings } from "../../harness/recordings.ts";
import { fakeRecordings, type FakeRequest } from "../fixtures/notifications/recordings.ts";

const brief = (rec: Parameters<typeof findBoundaries>[0], streams?: string[]) =>
  findBoundaries(rec, { streams }).map((b) => `${b.kind} ${b.stream}#${b.index} ${b.before}→${b.after}`);

// Seed 002's order: main spawns the subagent, the subagent works, goes idle at 6, is woken at 8.
const seed002: FakeRequest[] = [
  { stream: "main", stopReason: "tool_use" },
  { stream: "main" },
  { stream: "sub", stopReason: "tool_use" },
  { stream: "sub", stopReason: "tool_use" },
  { stream: "sub", stopReason: "tool_use" },
  { stream: "sub" },
  { stream: "main" },
  { stream: "sub" },
  { stream: "main" },
];

describe("findBoundaries: resume", () => {
  it("pairs the last request before each idle period with the first after it, per stream", () => {
    expect(brief(fakeRecordings(seed002))).toEqual(["resume main#1 2→7", "resume sub#1 6→8", "resume main#2 7→9"]);
    expect(brief(fakeRecordings(seed002), ["sub"])).toEqual(["resume sub#1 6→8"]);
  });

  it("describes a boundary the way notes and findings cite it", () => {
    const [b] = findBoundaries(fakeRecordings(seed002), { streams: ["sub"] });
    expect(describeBoundary(b!)).toBe("continuation 1 (sub): req 6 → req 8");
    expect(describeBoundary({ ...b!, kind: "stop", cause: "prompt" })).toBe("process resume 1 (sub, prompt): req 6 → req 8");
  });

  it("finds none while every reply calls a tool, or when the stream never continues", () => {
    expect(brief(fakeRecordings([{ stream: "sub", stopReason: "tool_use" }, { stream: "sub", stopReason: "tool_use" }, { stream: "sub" }]))).toEqual([]);
  });

  it("does not treat an error, a fault, pause_turn or a cut-off response as the turn ending", () => {
    const rec = fakeRecordings([
      { stream: "sub", stopReason: null },
      { stream: "sub", fault: "http-error 529" },
      { stream: "sub", stopReason: "pause_turn" },
      { stream: "sub", outcome: "aborted" },
      { stream: "sub", outcome: "dropped" },
      { stream: "sub", stopReason: "tool_use" },
      { stream: "sub" },
    ]);
    expect(brief(rec)).toEqual([]);
  });

  it("skips requests without a stream and paths other than /v1/messages", () => {
    const rec = fakeRecordings([
      { stream: "sub" },
      { stream: null },
      { stream: "sub", path: "/v1/messages/count_tokens" },
      { stream: "sub", path: "/v1/messages?beta=true" },
    ]);
    expect(brief(rec)).toEqual(["resume sub#1 1→4"]);
  });

  it("does not pair requests of different processes as a resume", () => {
    const rec = fakeRecordings(
      [{ stream: "main", receivedAt: 150 }, { stream: "main", receivedAt: 350 }],
      [
        { label: "first", startedAt: 100, endedAt: 200 },
        { label: "other", startedAt: 300, endedAt: 400 },
      ],
    );
    expect(brief(rec)).toEqual([]);
  });
});

describe("findBoundaries: stop", () => {
  const processes = [
    { label: "s1", startedAt: 1000, endedAt: 3500, sessionId: "sid-1" },
    { label: "s2", startedAt: 4000, endedAt: 6500, resumeOf: "s1", sessionId: "sid-1" },
    { label: "s3", startedAt: 7000, endedAt: null, resumeOf: "s1" },
  ];
  const requests: FakeRequest[] = [
    { stream: "main", stopReason: "tool_use" },
    { stream: "main" },
    { stream: "sub", receivedAt: 3200, stopReason: "tool_use" },
    { stream: "main", receivedAt: 4100 },
    { stream: "main", receivedAt: 5000 },
    { stream: "main", receivedAt: 7100 },
  ];

  it("pairs the last request of a process with the first of the process that resumed it, per stream", () => {
    expect(brief(fakeRecordings(requests, processes))).toEqual([
      "stop main#1 2→4",
      "resume main#1 4→5",
      // s3 names s1, but s2 continued s1 first: s3 resumes the conversation as s2 left it.
      "stop main#2 5→6",
    ]);
  });

  it("matches resumeOf by session id too, and pairs nothing for a process that resumed no one", () => {
    const bySessionId = processes.map((p) => (p.label === "s2" ? { ...p, resumeOf: "sid-1" } : p.label === "s3" ? { ...p, resumeOf: null } : p));
    expect(brief(fakeRecordings(requests, bySessionId))).toEqual(["stop main#1 2→4", "resume main#1 4→5"]);
  });
});

describe("findBoundaries: what carried the stream on", () => {
  const user = (content: unknown) => ({ messages: [{ role: "user", content: "first" }, { role: "assistant", content: [{ type: "text", text: "ok" }] }, { role: "user", content }] });
  const reminder = (text: string) => ({ type: "text", text: `<system-reminder>\n${text}\n</system-reminder>` });
  const notification = "<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>";
  const causeOf = (body: unknown) => findBoundaries(fakeRecordings([{ stream: "main" }, { stream: "main", body }]))[0]!.cause;

  it("reads the last user message of the request after the pause", () => {
    expect(causeOf(user("next prompt"))).toBe("prompt");
    // Context a release adds around a prompt does not make it anything else.
    expect(causeOf(user([reminder("<total_tokens>15000000 tokens left</total_tokens>"), { type: "text", text: "prompt 2" }]))).toBe("prompt");
    // 2.1.332 wraps the notification in a system reminder; older releases send it bare.
    expect(causeOf(user([reminder(`[SYSTEM NOTIFICATION - NOT USER INPUT]\n\n${notification}`)]))).toBe("task-notification");
    expect(causeOf(user(notification))).toBe("task-notification");
    // A prompt that quotes a notification outside any reminder is still the prompt.
    expect(causeOf(user(`what does this mean? ${notification}`))).toBe("prompt");
    expect(causeOf(user("Stop hook feedback:\n[./loop.sh]: keep going"))).toBe("stop-hook");
    expect(causeOf(user([{ type: "tool_result", tool_use_id: "t1", content: "done" }]))).toBe("tool-result");
  });

  it("says none when the body is absent, has no user message last, or only reminders", () => {
    expect(causeOf(undefined)).toBeNull();
    expect(causeOf({ messages: [{ role: "assistant", content: "ok" }] })).toBeNull();
    expect(causeOf(user([reminder("context only")]))).toBeNull();
    const noBodies = fakeRecordings([{ stream: "main" }, { stream: "main" }]);
    expect(findBoundaries({ requests: noBodies.requests, responseEnds: noBodies.responseEnds, sessions: noBodies.sessions })[0]!.cause).toBeNull();
  });

  it("on a recorded run (2.1.332): a task notification, eight pushed prompts, then a --resume process's prompt", () => {
    const rec = loadRecordings(path.join(import.meta.dirname, "..", "fixtures", "runs", "continuations-2.1.332"));
    expect(findBoundaries(rec).map((b) => `${b.kind}/${b.cause}`)).toEqual(["resume/task-notification", ...Array<string>(8).fill("resume/prompt"), "stop/prompt"]);
  });
});
