// The interrupted-call checker on hand-built recordings: which stdout line is "the call", when the stop counts as
// having interrupted it, which resumed request is judged, and the exact notes, findings and unreached reasons a
// person reads. The recorded runs (interrupted-call.test.ts) cover the releases' real shapes; these pin the edges.
import { describe, expect, it } from "vitest";
import { checkInterruptedCall, firstToolUse, summariseMessages, type InterruptedCallOptions } from "../../checker/interrupted-call.ts";
import { toStdoutRecord, type Recordings, type SessionProcess, type SessionRecording, type StdinRecord } from "../../harness/recordings.ts";
import type { ConformanceRuleId, ConformanceViolation } from "../../mock-api/conformance.ts";
import type { Message } from "../../checker/request-body.ts";
import { fakeRecordings } from "../fixtures/notifications/recordings.ts";

// The Bash call is printed at CALL ms; the harness kills s1 at CALL + 2500, well inside the tool's 30 s run.
const CALL = 10_000;
const OPTIONS: InterruptedCallOptions = { stopped: "s1", resumed: "s2", stream: "main", resumedPrompt: "RESUMED_MSG", toolRunsMs: 30_000, stopAfterMs: 2000 };

const assistantLine = (content: unknown) => JSON.stringify({ type: "assistant", message: { role: "assistant", content } });
const userLine = (content: unknown) => JSON.stringify({ type: "user", message: { role: "user", content } });
const bashUse = (id: string) => ({ type: "tool_use", id, name: "Bash", input: { command: "sleep 30" } });
const PROMPT_LINE = JSON.stringify({ type: "user", message: { role: "user", content: "run the wait command" } });
const INTERRUPT = JSON.stringify({ type: "control_request", request_id: "r1", request: { subtype: "interrupt" } });

function session(label: string, stdout: { t: number; raw: string }[], stdin: StdinRecord[], process: Partial<SessionProcess> | null): SessionRecording {
  return {
    label,
    stdout: stdout.map((r, i) => toStdoutRecord(i, r.t, r.raw)),
    stdin,
    process: process && { label, argv: [], resumeOf: null, pid: null, startedAt: 0, endedAt: null, exitCode: null, signal: null, stoppedBy: [], sessionId: null, ...process },
  };
}

// The stopped session as claude 2.x prints it: init, the tool call, nothing after (killed mid-call).
const stoppedSession = (overrides: { stdout?: { t: number; raw: string }[]; stdin?: StdinRecord[]; process?: Partial<SessionProcess> | null } = {}) =>
  session(
    "s1",
    overrides.stdout ?? [
      { t: CALL - 500, raw: JSON.stringify({ type: "system", subtype: "init" }) },
      { t: CALL, raw: assistantLine([bashUse("toolu_1")]) },
    ],
    overrides.stdin ?? [{ t: CALL - 1000, raw: PROMPT_LINE }],
    overrides.process === undefined ? { startedAt: CALL - 2000, endedAt: CALL + 2500 } : overrides.process,
  );

const resumedSession = (process: Partial<SessionProcess> | null = { startedAt: CALL + 5000 }) => session("s2", [], [], process);

interface Req {
  body: unknown;
  receivedAt: number;
  fault?: string;
  rules?: ConformanceRuleId[];
  step?: number;
  messageCount?: number;
}

const violation = (rule: ConformanceRuleId): ConformanceViolation => ({
  rule,
  status: 400,
  errorType: "invalid_request_error",
  message: `breaks ${rule}`,
  messageVerified: false,
  messageIndex: null,
  path: "$.messages",
});

function recordings(sessions: SessionRecording[], requests: Req[]): Recordings {
  const rec = fakeRecordings(requests.map((r) => ({ stream: "main", body: r.body, receivedAt: r.receivedAt, ...(r.fault === undefined ? {} : { fault: r.fault }) })));
  return {
    ...rec,
    sessions,
    requests: rec.requests.map((entry, i) => ({ ...entry, step: requests[i]!.step ?? i + 1, messageCount: requests[i]!.messageCount ?? 1, conformance: (requests[i]!.rules ?? []).map(violation) })),
  };
}

const firstRequest: Req = { body: { messages: [{ role: "user", content: "run the wait command" }] }, receivedAt: CALL - 800 };
const resumedBody = (history: unknown[]) => ({ messages: [...history, { role: "user", content: "RESUMED_MSG: reply with exactly the word: resumed" }] });
const notReached = (reason: string, notes: string[] = []) => ({ reached: { ok: false, reason }, findings: [], notes });

describe("summariseMessages", () => {
  it("shows a string content as one text block", () => {
    expect(summariseMessages([{ role: "user", content: "hello there" }])).toEqual(['messages[0] user: text "hello there"']);
  });

  it("names every block in brief, joining a tool_result's text parts and skipping its non-text parts", () => {
    const messages: Message[] = [
      { role: "assistant", content: [{ type: "thinking", thinking: "hm" }, { type: "text", text: "waiting" }, bashUse("toolu_1")] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "plain" },
          {
            type: "tool_result",
            tool_use_id: "toolu_2",
            // A result made of parts: its text parts run together; an image, or a part whose text is not a string
            // (a structured document), adds nothing.
            content: [{ type: "text", text: "one" }, { type: "image", source: { type: "base64", data: "" } }, { type: "document", text: { data: "x" } }, { type: "text", text: "two" }],
          },
          { type: "tool_result", tool_use_id: "toolu_3" },
        ],
      },
    ];
    expect(summariseMessages(messages)).toEqual([
      'messages[0] assistant: thinking | text "waiting" | tool_use Bash toolu_1',
      'messages[1] user: tool_result toolu_1 "plain" | tool_result toolu_2 "onetwo" | tool_result toolu_3 ""',
    ]);
  });
});

describe("firstToolUse", () => {
  it("has no call for a session that was never recorded", () => {
    expect(firstToolUse(undefined)).toBeUndefined();
  });

  it("is the first tool_use claude printed as the assistant, past unparseable lines, echoes and other blocks", () => {
    const s1 = session(
      "s1",
      [
        { t: 1, raw: "Killed" },
        // An echoed user message carrying a tool_use block is not a call claude started.
        { t: 2, raw: userLine([bashUse("toolu_echo")]) },
        { t: 3, raw: assistantLine([{ type: "text", text: "let me wait" }]) },
        // A server-side tool (it has an id but the API runs it) and a tool_use without an id come before the real call.
        { t: 4, raw: assistantLine([{ type: "text", text: "now" }, { type: "server_tool_use", id: "srvtoolu_1", name: "web_search" }, { type: "tool_use", name: "Read" }, bashUse("toolu_1")]) },
        { t: 5, raw: assistantLine([bashUse("toolu_2")]) },
      ],
      [],
      null,
    );
    expect(firstToolUse(s1)).toEqual({ id: "toolu_1", name: "Bash", t: 4, line: 3 });
  });
});

describe("checkInterruptedCall on hand-built recordings", () => {
  it("kept: finds the call among earlier and parallel calls, and its own synthetic tool_result", () => {
    // The stopped session ran two calls in parallel (Bash, then Read); the Read finished before the kill and was
    // printed, the Bash was killed. stdin holds the prompt and an interrupt of an earlier turn, both before the call.
    // The history also carries a Read call from before the stopped session.
    const s1 = stoppedSession({
      stdout: [
        { t: CALL - 500, raw: JSON.stringify({ type: "system", subtype: "init" }) },
        { t: CALL, raw: assistantLine([{ type: "text", text: "running both" }, bashUse("toolu_1"), { type: "tool_use", id: "toolu_2", name: "Read", input: {} }]) },
        { t: CALL + 100, raw: userLine([{ type: "tool_result", tool_use_id: "toolu_2", content: "file text" }]) },
        { t: CALL + 2490, raw: "Terminated" },
      ],
      stdin: [
        { t: CALL - 3000, raw: INTERRUPT },
        { t: CALL - 1000, raw: PROMPT_LINE },
      ],
    });
    const history = [
      { role: "user", content: "read then wait" },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_0", name: "Read", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_0", content: "old" }] },
      { role: "assistant", content: [{ type: "text", text: "running both" }, bashUse("toolu_1"), { type: "tool_use", id: "toolu_2", name: "Read", input: {} }] },
      {
        role: "user",
        content: [
          { type: "text", text: "[Request interrupted by user for tool use]" },
          { type: "tool_result", tool_use_id: "toolu_2", content: "file text" },
          { type: "tool_result", tool_use_id: "toolu_1", content: "[Tool call interrupted: the session ended]" },
        ],
      },
    ];
    const rec = recordings([resumedSession(), s1], [firstRequest, { body: resumedBody(history), receivedAt: CALL + 6000 }]);
    expect(checkInterruptedCall(rec, OPTIONS)).toEqual({
      reached: { ok: true },
      findings: [],
      notes: [
        "the Bash call toolu_1 was printed at stdout line 1 and stopped 2500 ms later without a tool_result",
        "resumed request 2: 6 messages, conforms",
        '  messages[0] user: text "read then wait"',
        "  messages[1] assistant: tool_use Read toolu_0",
        '  messages[2] user: tool_result toolu_0 "old"',
        '  messages[3] assistant: text "running both" | tool_use Bash toolu_1 | tool_use Read toolu_2',
        '  messages[4] user: text "[Request interrupted by user for tool use]" | tool_result toolu_2 "file text" | tool_result toolu_1 "[Tool call interrupted: the session ended]"',
        '  messages[5] user: text "RESUMED_MSG: reply with exactly the word: resumed"',
        'kept: tool_use toolu_1 at messages[3], answered by tool_result "[Tool call interrupted: the session ended]"',
      ],
    });
  });

  it("erased: the finding names the call and the request, and carries the history the request sent", () => {
    const history = [
      { role: "user", content: "run the wait command" },
      { role: "assistant", content: [{ type: "text", text: "No response requested." }] },
    ];
    const rec = recordings([stoppedSession(), resumedSession()], [firstRequest, { body: resumedBody(history), receivedAt: CALL + 6000 }]);
    const detail = ['messages[0] user: text "run the wait command"', 'messages[1] assistant: text "No response requested."', 'messages[2] user: text "RESUMED_MSG: reply with exactly the word: resumed"'];
    expect(checkInterruptedCall(rec, OPTIONS)).toEqual({
      reached: { ok: true },
      findings: [
        {
          id: "interrupted-call-erased",
          red: false,
          title: "the resumed request has no trace of the interrupted Bash call toolu_1",
          where: "request 2 (s2)",
          detail,
          data: { seq: 2, toolUseId: "toolu_1", messages: 3 },
        },
      ],
      notes: ["the Bash call toolu_1 was printed at stdout line 1 and stopped 2500 ms later without a tool_result", "resumed request 2: 3 messages, conforms", ...detail.map((l) => `  ${l}`)],
    });
  });

  it("a tool_result placed before the tool_use does not answer it, and the request's violations are named", () => {
    // A broken resume that put the synthetic result ahead of the call it answers.
    const history = [
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "[Tool call interrupted]" }] },
      { role: "assistant", content: [bashUse("toolu_1")] },
    ];
    const rec = recordings([stoppedSession(), resumedSession()], [firstRequest, { body: resumedBody(history), receivedAt: CALL + 6000, rules: ["tool-use-without-result", "tool-result-without-use"] }]);
    const out = checkInterruptedCall(rec, OPTIONS);
    expect(out.findings).toEqual([]);
    expect(out.notes).toEqual([
      "the Bash call toolu_1 was printed at stdout line 1 and stopped 2500 ms later without a tool_result",
      "resumed request 2: 3 messages, the API would reject it (tool-use-without-result, tool-result-without-use)",
      '  messages[0] user: tool_result toolu_1 "[Tool call interrupted]"',
      "  messages[1] assistant: tool_use Bash toolu_1",
      '  messages[2] user: text "RESUMED_MSG: reply with exactly the word: resumed"',
      "kept: tool_use toolu_1 at messages[1], with no tool_result",
    ]);
  });

  it("notes, for every scripted fault in the stream, what claude sent next", () => {
    // Request 1 got an overload, claude retried with a body the API would refuse; that retry was cut mid-stream and
    // claude's next try conformed; the resumed request's own fault had no follow-up.
    const requests: Req[] = [
      { ...firstRequest, fault: "overloaded", step: 1, messageCount: 1 },
      { ...firstRequest, receivedAt: CALL - 700, fault: "stream-cut", step: 1, messageCount: 2, rules: ["empty-text-block", "tool-use-without-result"] },
      { ...firstRequest, receivedAt: CALL - 600, step: 2, messageCount: 3 },
      { body: resumedBody([]), receivedAt: CALL + 6000, fault: "overloaded", step: 3, messageCount: 1 },
    ];
    const out = checkInterruptedCall(recordings([stoppedSession(), resumedSession()], requests), OPTIONS);
    expect(out.notes.slice(0, 3)).toEqual([
      'request 1 (step 1) got the fault "overloaded"; the next request, 2 (step 1, 2 messages), breaks empty-text-block, tool-use-without-result',
      'request 2 (step 1) got the fault "stream-cut"; the next request, 3 (step 2, 3 messages), conforms',
      'request 4 (step 3) got the fault "overloaded"; claude sent no further request in this stream',
    ]);
  });

  it("an unreached run still carries the fault notes and what is known of the call", () => {
    const rec = recordings([stoppedSession()], [{ ...firstRequest, fault: "overloaded" }]);
    expect(checkInterruptedCall(rec, OPTIONS)).toEqual(
      notReached("session s2 never started", [
        'request 1 (step 1) got the fault "overloaded"; claude sent no further request in this stream',
        "the Bash call toolu_1 was printed at stdout line 1 and stopped 2500 ms later without a tool_result",
      ]),
    );
  });

  it("a resumed session with no process record never started", () => {
    const rec = recordings([stoppedSession(), resumedSession(null)], [firstRequest, { body: resumedBody([]), receivedAt: CALL + 6000 }]);
    expect(checkInterruptedCall(rec, OPTIONS).reached).toEqual({ ok: false, reason: "session s2 never started" });
  });

  it("a stopped session that was never recorded printed no call", () => {
    const rec = recordings([resumedSession()], [firstRequest]);
    expect(checkInterruptedCall(rec, OPTIONS)).toEqual(notReached("session s1 never printed a tool_use: no tool call was running to interrupt"));
  });

  it("a stopped session with no recorded end was not shown to stop within the tool's run", () => {
    const rec = recordings([stoppedSession({ process: null }), resumedSession()], [firstRequest, { body: resumedBody([]), receivedAt: CALL + 6000 }]);
    expect(checkInterruptedCall(rec, OPTIONS)).toEqual(notReached("session s1 was not stopped within the 30000 ms the Bash call runs: nothing was interrupted"));
  });

  it("a stop exactly when the tool would have finished interrupted nothing", () => {
    const rec = recordings([stoppedSession({ process: { startedAt: 0, endedAt: CALL + 30_000 } }), resumedSession()], [firstRequest, { body: resumedBody([]), receivedAt: CALL + 6000 }]);
    expect(checkInterruptedCall(rec, OPTIONS).reached).toEqual({ ok: false, reason: "session s1 was not stopped within the 30000 ms the Bash call runs: nothing was interrupted" });
  });

  it("a tool_result printed exactly at the earliest stop time does not count as before the stop", () => {
    const s1 = stoppedSession({
      stdout: [
        { t: CALL, raw: assistantLine([bashUse("toolu_1")]) },
        { t: CALL + OPTIONS.stopAfterMs, raw: userLine([{ type: "tool_result", tool_use_id: "toolu_1", content: "cut" }]) },
      ],
    });
    const rec = recordings([s1, resumedSession()], [firstRequest, { body: resumedBody([]), receivedAt: CALL + 6000 }]);
    const out = checkInterruptedCall(rec, OPTIONS);
    expect(out.reached).toEqual({ ok: true });
    expect(out.notes[0]).toBe("the Bash call toolu_1 was printed at stdout line 0 and stopped 2500 ms later without a tool_result");
  });

  it("a tool_result printed before the stop is found in a user message that also carries text", () => {
    const s1 = stoppedSession({
      stdout: [
        { t: CALL, raw: assistantLine([bashUse("toolu_1")]) },
        { t: CALL + 300, raw: userLine([{ type: "text", text: "note" }, { type: "tool_result", tool_use_id: "toolu_1", content: "done" }]) },
      ],
    });
    const rec = recordings([s1, resumedSession()], [firstRequest, { body: resumedBody([]), receivedAt: CALL + 6000 }]);
    expect(checkInterruptedCall(rec, OPTIONS)).toEqual(notReached("the Bash call toolu_1 had its tool_result (stdout line 1) before the stop: it was not running"));
  });

  it("an interrupt sent in the same millisecond the call was printed is the stop", () => {
    const s1 = stoppedSession({ stdin: [{ t: CALL - 1000, raw: PROMPT_LINE }, { t: CALL, raw: INTERRUPT }] });
    const rec = recordings([s1, resumedSession()], [firstRequest, { body: resumedBody([]), receivedAt: CALL + 6000 }]);
    expect(checkInterruptedCall(rec, OPTIONS).notes[0]).toBe("the Bash call toolu_1 was printed at stdout line 1 and stopped 0 ms later without a tool_result");
  });

  it("a request received the same millisecond the resumed session started is the resumed request", () => {
    const rec = recordings([stoppedSession(), resumedSession()], [firstRequest, { body: resumedBody([]), receivedAt: CALL + 5000 }]);
    const out = checkInterruptedCall(rec, OPTIONS);
    expect(out.reached).toEqual({ ok: true });
    expect(out.findings.map((f) => [f.id, f.where])).toEqual([["interrupted-call-erased", "request 2 (s2)"]]);
  });
});
