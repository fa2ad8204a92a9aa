// The cause a boundary gives on odd last messages (empty, mixed, non-text or malformed blocks, whitespace, split text), and stop boundaries of streams only one process used.
import { describe, expect, it } from "vitest";
import { describeBoundary, findBoundaries } from "../../checker/boundaries.ts";
import { fakeRecordings, type FakeProcess, type FakeRequest } from "../fixtures/notifications/recordings.ts";

const notification = "<task-notification>\n<task-id>b1</task-id>\n</task-notification>";
const withLast = (content: unknown) => ({ messages: [{ role: "user", content: "first" }, { role: "assistant", content: "ok" }, { role: "user", content }] });
const causeOf = (body: unknown) => findBoundaries(fakeRecordings([{ stream: "main" }, { stream: "main", body }]))[0]!.cause;

describe("boundary cause", () => {
  it("is none for a request without messages or whose content says nothing", () => {
    expect(causeOf({ messages: [] })).toBeNull();
    expect(causeOf(withLast([]))).toBeNull();
    expect(causeOf(withLast(""))).toBeNull();
    expect(causeOf(withLast("  \n "))).toBeNull();
    expect(causeOf(withLast([{ type: "text", text: "<system-reminder>x</system-reminder>\n" }]))).toBeNull();
  });

  it("counts tool results only when every block is one", () => {
    expect(causeOf(withLast([{ type: "tool_result", tool_use_id: "a" }, { type: "tool_result", tool_use_id: "b" }]))).toBe("tool-result");
    expect(causeOf(withLast([{ type: "tool_result", tool_use_id: "a" }, { type: "text", text: "and a prompt" }]))).toBe("prompt");
    // The text of a tool result is no prompt; a tool result beside an unknown block is no tool-result boundary.
    expect(causeOf(withLast([{ type: "tool_result", tool_use_id: "a", text: "output" }, { type: "image" }]))).toBeNull();
  });

  it("reads only text blocks with string text, whatever else the content holds", () => {
    expect(causeOf(withLast([{ type: "image", text: "not a prompt" }]))).toBeNull();
    expect(causeOf(withLast([{ type: "text", text: 5 }]))).toBeNull();
    expect(causeOf(withLast([null, "loose string", ["nested"], { type: 7, text: "typed oddly" }]))).toBeNull();
    expect(causeOf(withLast([null, { type: "text", text: "typed" }]))).toBe("prompt");
  });

  it("joins text blocks with newlines and trims what is left outside the reminders", () => {
    // Two blocks are two lines: a phrase split across them is not the phrase.
    expect(causeOf(withLast([{ type: "text", text: "Stop hook fee" }, { type: "text", text: "dback: more" }]))).toBe("prompt");
    expect(causeOf(withLast([{ type: "text", text: "Stop hook feedback:" }, { type: "text", text: "go on" }]))).toBe("stop-hook");
    expect(causeOf(withLast(`\n  ${notification}`))).toBe("task-notification");
    expect(causeOf(withLast(`<system-reminder>ctx</system-reminder>\n  Stop hook feedback: x`))).toBe("stop-hook");
  });

  it("is none when the last message is not the user's", () => {
    expect(causeOf({ messages: [{ role: "user", content: "a prompt" }, { role: "assistant", content: notification }] })).toBeNull();
  });
});

describe("stop boundaries per stream", () => {
  const processes: FakeProcess[] = [
    { label: "s1", startedAt: 500, endedAt: 2500 },
    { label: "s2", startedAt: 3000, endedAt: null, resumeOf: "s1" },
  ];

  it("pairs only streams both processes used, and counts each stream's boundaries apart", () => {
    const requests: FakeRequest[] = [
      { stream: "main", receivedAt: 1000 },
      { stream: "early", receivedAt: 2000 },
      { stream: "main", receivedAt: 3100 },
      { stream: "late", receivedAt: 3200 },
      { stream: "early", receivedAt: 3300 },
    ];
    const found = findBoundaries(fakeRecordings(requests, processes));
    expect(found.map((b) => [b.kind, b.stream, b.index, b.before, b.after])).toEqual([
      ["stop", "main", 1, 1, 3],
      ["stop", "early", 1, 2, 5],
    ]);
    expect(findBoundaries(fakeRecordings(requests, processes), { streams: ["late", "early"] }).map((b) => b.stream)).toEqual(["early"]);
    expect(findBoundaries(fakeRecordings(requests, processes), { streams: [] })).toEqual([]);
  });

  it("names the kind and the cause for people", () => {
    expect(describeBoundary({ kind: "resume", stream: "main", cause: "task-notification", before: 1, after: 2, index: 3 })).toBe("continuation 3 (main, task notification): req 1 → req 2");
    expect(describeBoundary({ kind: "stop", stream: "sub", cause: null, before: 4, after: 9, index: 1 })).toBe("process resume 1 (sub): req 4 → req 9");
    expect(describeBoundary({ kind: "stop", stream: "sub", cause: "stop-hook", before: 4, after: 9, index: 2 })).toBe("process resume 2 (sub, Stop hook): req 4 → req 9");
    expect(describeBoundary({ kind: "resume", stream: "sub", cause: "tool-result", before: 4, after: 9, index: 2 })).toBe("continuation 2 (sub, tool result): req 4 → req 9");
  });
});
