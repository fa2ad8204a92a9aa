// What each recorded line becomes in a session's timeline: the text, tokens, labels and prompt numbers the turn
// checks and the printed excerpts read, including for lines that are incomplete or not JSON at all.
import { describe, expect, it } from "vitest";
import { toStdoutRecord } from "../../harness/recordings.ts";
import { buildTurnTimeline } from "../../checker/turn-timeline.ts";
import { session } from "../fixtures/turns/session.ts";

describe("buildTurnTimeline: stdout lines", () => {
  it("shows text blocks as text and every other block as a [type name] tag, in one line", () => {
    const s = session("s1", [
      {
        t: 10,
        out: {
          type: "assistant",
          message: {
            content: [
              { type: "text", text: "Starting it." },
              { type: "tool_use", id: "toolu_1", name: "Bash", input: {} },
              // Stand-ins for blocks a release might send: a text block without its text, a block with no name.
              { type: "text" },
              { type: "thinking", thinking: "hm" },
            ],
          },
        },
      },
      { t: 20, out: { type: "assistant", message: { content: "plain string content" } } },
      { t: 30, out: { type: "assistant", message: {} } },
    ]);
    expect(buildTurnTimeline(s).entries).toEqual([
      { kind: "assistant", line: 0, t: 10, turn: 1, parentToolUseId: null, text: "Starting it. [tool_use Bash] [text] [thinking]" },
      { kind: "assistant", line: 1, t: 20, turn: 1, parentToolUseId: null, text: "plain string content" },
      { kind: "assistant", line: 2, t: 30, turn: 1, parentToolUseId: null, text: "" },
    ]);
  });

  it("keeps a stdout line that is not JSON as an unparsed entry in its place", () => {
    const s = session("s1", [{ t: 10, out: { type: "system", subtype: "status" } }]);
    s.stdout.push(toStdoutRecord(1, 20, '{"type":"assis'));
    expect(buildTurnTimeline(s).entries).toEqual([
      { kind: "other", line: 0, t: 10, turn: 1, label: "status" },
      { kind: "other", line: 1, t: 20, turn: 1, label: "unparsed" },
    ]);
  });

  it("sums all four token counts of a result, and reads a bare result as no error, no usage, no text", () => {
    const usage = { input_tokens: 1, output_tokens: 20, cache_creation_input_tokens: 300, cache_read_input_tokens: 4000 };
    const s = session("s1", [
      { t: 10, out: { type: "result", subtype: "success", is_error: false, num_turns: 2, result: "done", usage } },
      { t: 20, out: { type: "result", subtype: "error_during_execution", is_error: true, usage: { output_tokens: 5 } } },
      { t: 30, out: { type: "result", subtype: "success" } },
    ]);
    expect(buildTurnTimeline(s).entries).toEqual([
      { kind: "result", line: 0, t: 10, turn: 1, subtype: "success", isError: false, numTurns: 2, usage, tokens: 4321, origin: null, text: "done" },
      { kind: "result", line: 1, t: 20, turn: 2, subtype: "error_during_execution", isError: true, numTurns: null, usage: { output_tokens: 5 }, tokens: 5, origin: null, text: "" },
      { kind: "result", line: 2, t: 30, turn: 3, subtype: "success", isError: false, numTurns: null, usage: null, tokens: 0, origin: null, text: "" },
    ]);
  });
});

describe("buildTurnTimeline: stdin lines", () => {
  it("numbers only pushed prompts, and labels other stdin lines by type and request subtype", () => {
    const s = session("s1", [
      { t: 10, push: "first" },
      { t: 20, stdin: { type: "control_request", request: { subtype: "interrupt" } } },
      { t: 30, stdin: { type: "control_request", request: {} } },
      { t: 40, stdin: { type: "keep_alive" } },
      // Stand-in: a user line without a message still counts as a push, with no text.
      { t: 50, stdin: { type: "user" } },
    ]);
    s.stdin.push({ t: 60, raw: "not json" });
    expect(buildTurnTimeline(s).entries).toEqual([
      { kind: "push", stdin: 0, t: 10, turn: 1, prompt: 1, text: "first" },
      { kind: "stdin", stdin: 1, t: 20, turn: 1, label: "control_request/interrupt" },
      { kind: "stdin", stdin: 2, t: 30, turn: 1, label: "control_request" },
      { kind: "stdin", stdin: 3, t: 40, turn: 1, label: "keep_alive" },
      { kind: "push", stdin: 4, t: 50, turn: 1, prompt: 2, text: "" },
      { kind: "stdin", stdin: 5, t: 60, turn: 1, label: "unparsed" },
    ]);
  });
});

describe("buildTurnTimeline: time 0 without a process record", () => {
  // Recordings from before the harness kept process records: the first recorded line, of either pipe, is time 0.
  const withoutProcess = (stdinAt: number, stdoutAt: number) => {
    const s = session("s1", [
      { t: stdinAt, push: "go" },
      { t: stdoutAt, out: { type: "system", subtype: "status" } },
    ]);
    return { ...s, process: null };
  };

  it("starts at the first stdin line when it came before any stdout", () => {
    expect(buildTurnTimeline(withoutProcess(50, 100)).start).toBe(50);
  });

  it("starts at the first stdout line when it came before any stdin", () => {
    expect(buildTurnTimeline(withoutProcess(100, 40)).start).toBe(40);
  });

  it("starts at 0 when nothing was recorded", () => {
    expect(buildTurnTimeline({ label: "s1", stdout: [], stdin: [], process: null })).toEqual({ label: "s1", start: 0, entries: [] });
  });
});
