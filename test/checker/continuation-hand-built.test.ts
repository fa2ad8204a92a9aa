// The continuation classifier on hand-built request logs: the shapes the recorded /background runs do not show
// (no session header, a vanished sender, odd tool results, texts cut to length), each pinned to what users read.
import { describe, expect, it } from "vitest";
import { checkContinuation, classifyTurn, describeSender, turnAnswered, type TurnRequest } from "../../checker/continuation.ts";
import type { Recordings } from "../../harness/recordings.ts";
import type { RequestEntry, ResponseEndEntry } from "../../mock-api/log-entry.ts";

type Log = Pick<Recordings, "requests" | "responseEnds" | "body">;

const FOREGROUND = 100;
const BACKGROUND = 200;
const FG_SESSION = "session-fg";
const BG_SESSION = "session-bg";

interface Req {
  stream?: string;
  stop: string | null;
  messages: unknown[];
  // Default: the foreground UI, with its command and session id.
  pid?: number | null;
  command?: string | null;
  session?: string | null;
  // Default seq × 1000 ms; the response ends 100 ms later.
  at?: number;
  // null: no response-end was logged (the run stopped before the reply finished).
  outcome?: ResponseEndEntry["outcome"] | null;
}

// A request log as the mock writes it, one entry per Req (seq from 1), step counted from the assistant messages as the
// mock counts it (mock-api/classify.ts).
function turnLog(reqs: Req[]): Log {
  const requests: RequestEntry[] = reqs.map((r, i) => {
    const seq = i + 1;
    const session = r.session === undefined ? FG_SESSION : r.session;
    const pid = r.pid === undefined ? FOREGROUND : r.pid;
    const headers: Record<string, string> = session === null ? {} : { "x-claude-code-session-id": session };
    return {
      kind: "request",
      seq,
      receivedAt: r.at ?? seq * 1000,
      method: "POST",
      path: "/v1/messages",
      query: "beta=true",
      headers,
      bodyFile: `requests/${seq}.body`,
      bodyBytes: 0,
      bodySha256: "",
      stream: r.stream ?? "main",
      step: r.messages.filter((m) => (m as { role: string }).role === "assistant").length,
      messageCount: r.messages.length,
      streaming: true,
      conformance: [],
      reply: { status: 200, kind: "sse", summary: "", fault: null, stopReason: r.stop },
      client: { remoteAddress: "127.0.0.1", remotePort: 40000 + seq, pid, command: r.command === undefined ? (pid === null ? null : `claude --pid-${pid}`) : r.command },
    };
  });
  const responseEnds = new Map<number, ResponseEndEntry>();
  reqs.forEach((r, i) => {
    if (r.outcome !== null) responseEnds.set(i + 1, { kind: "response-end", seq: i + 1, endedAt: (r.at ?? (i + 1) * 1000) + 100, outcome: r.outcome ?? "complete" });
  });
  return {
    requests,
    responseEnds,
    body: (seq) => Buffer.from(JSON.stringify({ model: "claude-sonnet-4-5", messages: reqs[seq - 1]!.messages, stream: true }), "utf8"),
  };
}

const prompt = { role: "user", content: "run the slow tool" };
const call = (id: string) => ({ role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: { command: "sleep 30" } }] });
const result = (id: string, content: unknown, isError = false) => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }] });
const answer = { role: "assistant", content: [{ type: "text", text: "done" }] };

// The mock names the tool call it makes in reply to request n `toolu_mock_<n>_0`.
const original: Req = { stop: "tool_use", messages: [prompt] };
const continuation = (producer: number, content: unknown, more: Partial<Req> = {}): Req => ({
  stop: "end_turn",
  messages: [prompt, call(`toolu_mock_${producer}_0`), result(`toolu_mock_${producer}_0`, content)],
  ...more,
});
const background: Partial<Req> = { pid: BACKGROUND, session: BG_SESSION };

const classify = (log: Log, foregroundPid: number | null = FOREGROUND) => classifyTurn(log, { stream: "main", foregroundPid }).requests;
const check = (log: Log) => checkContinuation(log, { stream: "main", foregroundPid: FOREGROUND });

describe("which request is the turn in flight", () => {
  it("is the stream's first tool call, not its first request: an earlier answered turn is no part of it", () => {
    const log = turnLog([{ stop: "end_turn", messages: [{ role: "user", content: "hello" }] }, original, continuation(2, "SLOW_TOOL_DONE", background)]);
    expect(classify(log).map((r) => [r.seq, r.role, r.continues])).toEqual([
      [2, "original", null],
      [3, "continuation", 2],
    ]);
  });

  it("reads no tool result into the original, even when its body carries an earlier call of the same turn", () => {
    // Step 1 of the turn is in flight: its body already holds step 0's finished call and result.
    const log = turnLog([{ stop: "tool_use", messages: [prompt, call("toolu_mock_0_0"), result("toolu_mock_0_0", "first call done")] }]);
    expect(classify(log)).toEqual<TurnRequest[]>([
      {
        seq: 1,
        step: 1,
        role: "original",
        continues: null,
        result: null,
        sessionId: FG_SESSION,
        pid: FOREGROUND,
        command: "claude --pid-100",
        foreground: true,
        foregroundBy: "pid",
        answered: false,
        stopReason: "tool_use",
      },
    ]);
  });
});

describe("who sent a request", () => {
  it("leaves a vanished sender unidentified when no session id tells, rather than calling it the foreground", () => {
    // A release that sends no x-claude-code-session-id header, and a sender the mock could not find.
    const log = turnLog([{ ...original, session: null }, continuation(1, "SLOW_TOOL_DONE", { pid: null, session: null })]);
    expect(classify(log).map((r) => [r.seq, r.foreground, r.foregroundBy])).toEqual([
      [1, true, "pid"],
      [2, null, null],
    ]);
  });

  it("tells the foreground by session id alone when the foreground's pid is unknown", () => {
    const log = turnLog([original, continuation(1, "SLOW_TOOL_DONE", background)]);
    expect(classify(log, null).map((r) => [r.seq, r.foreground, r.foregroundBy])).toEqual([
      [1, true, "session-id"],
      [2, null, null],
    ]);
  });
});

describe("answers", () => {
  it("counts an end_turn reply whose response-end was never logged as no answer", () => {
    const log = turnLog([original, continuation(1, "SLOW_TOOL_DONE", { ...background, outcome: null })]);
    expect(classify(log).map((r) => [r.seq, r.answered])).toEqual([
      [1, false],
      [2, false],
    ]);
    expect(turnAnswered(log, "main")).toBe(false);
  });

  it("turnAnswered reads a stream with no tool call at all, with or without leaving a process out", () => {
    const log = turnLog([{ stop: "end_turn", messages: [prompt] }]);
    expect(turnAnswered(log, "main")).toBe(true);
    expect(turnAnswered(log, "main", BACKGROUND)).toBe(true);
    expect(turnAnswered(log, "main", FOREGROUND)).toBe(false);
    expect(turnAnswered(log, "other-stream", FOREGROUND)).toBe(false);
  });

  it("turnAnswered counts another process's answer when leaving the foreground's out", () => {
    const log = turnLog([original, continuation(1, "SLOW_TOOL_DONE", background)]);
    expect(turnAnswered(log, "main", FOREGROUND)).toBe(true);
  });
});

describe("the tool result a continuation carries", () => {
  const resultOf = (messages: unknown[]) => classify(turnLog([original, { stop: "end_turn", messages, ...background }]))[1]!;

  it("reads a result content that is neither text nor blocks as empty text", () => {
    expect(resultOf([prompt, call("toolu_mock_1_0"), result("toolu_mock_1_0", { odd: true })]).result).toEqual({
      toolUseId: "toolu_mock_1_0",
      isError: false,
      text: "",
      killed: false,
    });
  });

  it("skips a result naming a block that was no tool_use of the last assistant message (a server tool's id)", () => {
    const messages = [
      prompt,
      { role: "assistant", content: [{ type: "server_tool_use", id: "srvtoolu_01", name: "web_search", input: {} }, { type: "tool_use", id: "toolu_mock_1_0", name: "Bash", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "srvtoolu_01", content: "search results" }, { type: "tool_result", tool_use_id: "toolu_mock_1_0", content: "SLOW_TOOL_DONE" }] },
    ];
    const r = resultOf(messages);
    expect([r.continues, r.result]).toEqual([1, { toolUseId: "toolu_mock_1_0", isError: false, text: "SLOW_TOOL_DONE", killed: false }]);
  });

  it("takes only a tool_result block as the call's result, not another block type that names the call", () => {
    // No release sends such a block; it stands for any block that refers to a call without being its result.
    const messages = [
      prompt,
      call("toolu_mock_1_0"),
      { role: "user", content: ["plain", { type: "tool_reference", tool_use_id: "toolu_mock_1_0", content: "Exit code 137" }, { type: "tool_result", tool_use_id: "toolu_mock_1_0", content: "SLOW_TOOL_DONE" }] },
    ];
    expect(resultOf(messages).result).toEqual({ toolUseId: "toolu_mock_1_0", isError: false, text: "SLOW_TOOL_DONE", killed: false });
  });

  it("reads the result after the last tool call, not an earlier result that carries the same id", () => {
    // A model that reuses a tool_use id: only what answers the last call is this continuation's result.
    const messages = [prompt, call("toolu_mock_1_0"), result("toolu_mock_1_0", "Exit code 137", true), call("toolu_mock_1_0"), result("toolu_mock_1_0", "SLOW_TOOL_DONE")];
    expect(resultOf(messages).result).toEqual({ toolUseId: "toolu_mock_1_0", isError: false, text: "SLOW_TOOL_DONE", killed: false });
  });

  it("calls an error result killed by its words, the same words without is_error not, and exit code 143 killed either way", () => {
    const killed = (content: string, isError: boolean) => resultOf([prompt, call("toolu_mock_1_0"), result("toolu_mock_1_0", content, isError)]).result!.killed;
    expect(killed("The command was interrupted", true)).toBe(true);
    expect(killed("The command was interrupted", false)).toBe(false);
    expect(killed("Exit code 143", false)).toBe(true);
  });
});

describe("how senders and requests read in notes", () => {
  const base: TurnRequest = {
    seq: 3,
    step: 1,
    role: "continuation",
    continues: 1,
    result: null,
    sessionId: BG_SESSION,
    pid: BACKGROUND,
    command: null,
    foreground: false,
    foregroundBy: "pid",
    answered: false,
    stopReason: "end_turn",
  };

  it("names a process without pid or session id as such, with no pid part", () => {
    expect(describeSender({ ...base, pid: null, sessionId: null, foreground: null, foregroundBy: null })).toBe("an unidentified process, session -");
  });

  it("gives the pid without a command when none was found, and cuts a long command to 80 characters", () => {
    expect(describeSender(base)).toBe("another process pid 200, session session-bg");
    expect(describeSender({ ...base, command: `claude ${"x".repeat(100)}` })).toBe(`another process pid 200 (claude ${"x".repeat(73)}), session session-bg`);
  });

  it("notes a continuation of an unknown producer, a result cut to 60 characters and a reply without stop reason", () => {
    // A tool_use id the mock did not name: which request made the call cannot be told.
    const long = `SLOW_TOOL_DONE ${"y".repeat(80)}`;
    const log = turnLog([
      original,
      { stop: null, messages: [prompt, call("toolu_01ABC"), result("toolu_01ABC", long)], ...background, command: null },
    ]);
    expect(check(log).notes).toEqual([
      "req 1 step 0: original → tool_use; from the foreground UI pid 100 (claude --pid-100), session session-fg",
      `req 2 step 1: continuation of req ?, tool result ${JSON.stringify(long.slice(0, 60))} → no stop reason; from another process pid 200, session session-bg`,
    ]);
  });
});

describe("checkContinuation on hand-built logs", () => {
  it("says exactly why nothing was in flight when the stream made no tool call", () => {
    expect(check(turnLog([{ stop: "end_turn", messages: [prompt] }]))).toEqual({
      findings: [],
      reached: { ok: false, reason: "no main request was answered with a tool call, so no turn was in flight" },
      notes: [],
    });
  });

  it("is reached when another process finishes the original's tool call itself: that is no foreground finish", () => {
    const result = check(turnLog([original, continuation(1, "SLOW_TOOL_DONE", background)]));
    expect(result.reached).toEqual({ ok: true });
    expect(result.findings).toEqual([]);
  });

  it("times turn-dropped from the original's arrival when its response never ended", () => {
    // An earlier answered turn, the tool call in flight (no response-end: the UI went away mid-reply), then a side
    // request that keeps the run observed until 9.1 s: 7.1 s after the tool call arrived at 2 s.
    const log = turnLog([{ stop: "end_turn", messages: [{ role: "user", content: "hello" }] }, { ...original, outcome: null }, { stream: "side", stop: "end_turn", messages: [prompt], at: 9000 }]);
    const result = check(log);
    expect(result.findings.map((f) => [f.id, f.title, f.where, f.data])).toEqual([
      [
        "turn-dropped",
        "no process continued the in-flight turn: the tool call got no result there and the prompt was not re-sent",
        "req 2 (the tool call in flight)",
        { original: 2, fromForeground: [], waitedMs: 7100, windowMs: 5000 },
      ],
    ]);
    expect(result.reached).toEqual({ ok: false, reason: "no process but the exiting foreground UI continued the turn" });
  });

  it("reports a kill told without is_error, by an unknown producer, with its text cut to 300 characters", () => {
    const text = `Exit code 137\n${"z".repeat(400)}`;
    const log = turnLog([original, { stop: "end_turn", messages: [prompt, call("toolu_01ABC"), result("toolu_01ABC", text)], ...background }]);
    const killed = check(log).findings.find((f) => f.id === "tool-killed")!;
    expect([killed.title, killed.where, killed.detail]).toEqual([
      "the model was told the tool call of req ? was killed",
      "req 2, tool_result toolu_01ABC",
      [JSON.stringify(text.slice(0, 300)), "from another process pid 200 (claude --pid-200), session session-bg"],
    ]);
  });

  it("reports a re-send whose tool never ran again without claiming it did, though another request's tool result came in", () => {
    // The foreground reports its killed call of req 1 on its way out; the background re-sends the prompt and stops there.
    const log = turnLog([original, continuation(1, "Exit code 137"), { stop: "tool_use", messages: [prompt], ...background }]);
    const rerun = check(log).findings.find((f) => f.id === "turn-rerun")!;
    expect([rerun.title, rerun.data]).toEqual(["the prompt was re-sent and the turn started over", { seq: 3, toolRanAgain: false }]);
  });

  it("names every process that continued the turn, and no lost answer when there was none", () => {
    const log = turnLog([
      original,
      { stop: "tool_use", messages: [prompt], ...background },
      continuation(1, "SLOW_TOOL_DONE", { pid: 300, session: "session-third", outcome: "aborted" }),
    ]);
    expect(check(log).reached).toEqual({ ok: false, reason: "the turn was continued by another process (req 2, req 3) but never answered there" });
  });
});
