// The typed views on hand-built recordings: result and init lines, process exits, request views and filters, hook calls, MCP events, working-directory files and answeredAndSettled.
import { describe, expect, it } from "vitest";
import { toStdoutRecord, type HookRecord, type Recordings, type SessionProcess, type SessionRecording, type StdoutRecord } from "../../harness/recordings.ts";
import type { RequestEntry, ResponseEndEntry } from "../../mock-api/log-entry.ts";
import {
  answeredAndSettled,
  exitOf,
  fileOf,
  filesOf,
  hookCallsOf,
  initOf,
  mcpEventsOf,
  requestsOf,
  resultOf,
  resultsOf,
  sessionOf,
  viewRequest,
} from "../../checker/views.ts";

const recordings = (over: Partial<Recordings>): Recordings => ({ sessions: [], requests: [], responseEnds: new Map(), hooks: [], workdir: { afterSession: {}, atEnd: null }, body: () => Buffer.alloc(0), ...over });

const proc = (over: Partial<SessionProcess>): SessionProcess => ({ label: "s1", argv: [], resumeOf: null, pid: null, startedAt: 0, endedAt: null, exitCode: null, signal: null, stoppedBy: [], sessionId: null, ...over });

const session = (label: string, stdout: StdoutRecord[] = [], process: SessionProcess | null = null): SessionRecording => ({ label, stdout, stdin: [], process });

const lines = (...events: unknown[]): StdoutRecord[] => events.map((event, i) => toStdoutRecord(i, 100 + i, typeof event === "string" ? event : JSON.stringify(event)));

function entry(seq: number, over: Partial<RequestEntry> = {}): RequestEntry {
  return {
    kind: "request",
    seq,
    receivedAt: 1000 + seq,
    method: "POST",
    path: "/v1/messages",
    query: "",
    headers: {},
    bodyFile: `requests/${seq}.body`,
    bodyBytes: 0,
    bodySha256: "",
    stream: "main",
    step: 0,
    messageCount: 1,
    streaming: true,
    conformance: [],
    reply: { status: 200, kind: "sse", summary: "text", fault: null, stopReason: "end_turn" },
    client: { remoteAddress: null, remotePort: null },
    ...over,
  };
}

const bodies = (map: Record<number, unknown>) => (seq: number) => {
  const value = map[seq];
  return Buffer.from(typeof value === "string" ? value : JSON.stringify(value ?? {}), "utf8");
};

const ended = (seq: number, endedAt: number): [number, ResponseEndEntry] => [seq, { kind: "response-end", seq, endedAt, outcome: "complete" }];

describe("resultsOf, resultOf and initOf", () => {
  const stdout = lines(
    { type: "system", subtype: "init", session_id: "sid-1", tools: ["Bash"], mcp_servers: [{ name: "srv", status: "connected" }], cwd: "/w", claude_code_version: "2.1.332" },
    "not json at all",
    { type: "result", subtype: "success", is_error: false, result: "one", terminal_reason: "completed", duration_ms: 12 },
    { type: "assistant", message: { role: "assistant", content: [] } },
    // A result line whose later-release fields are of the wrong type is no result line.
    { type: "result", subtype: "success", duration_ms: "slow" },
    { type: "result", subtype: "error_max_turns", is_error: true, errors: ["too many"] },
    { type: "system", subtype: "init", session_id: "sid-2" },
  );
  const rec = recordings({ sessions: [session("s1", stdout), session("quiet", lines({ type: "system", subtype: "status" }))] });

  it("gives every result line in order with its line index and time, and the last one", () => {
    expect(resultsOf(rec, "s1").map((r) => [r.line, r.t, r.subtype, r.result ?? null, r.terminal_reason ?? null, r.duration_ms ?? null, r.errors ?? null])).toEqual([
      [2, 102, "success", "one", "completed", 12, null],
      [5, 105, "error_max_turns", null, null, null, ["too many"]],
    ]);
    expect(resultOf(rec, { name: "s1" })).toMatchObject({ line: 5, subtype: "error_max_turns", is_error: true });
    expect(resultOf(rec, "quiet")).toBeNull();
    // The last of three, not the second.
    const three = lines({ type: "result", subtype: "a" }, { type: "result", subtype: "b" }, { type: "result", subtype: "c" });
    expect(resultOf(recordings({ sessions: [session("s3", three)] }), "s3")?.subtype).toBe("c");
    expect(resultsOf(rec, "nobody")).toEqual([]);
  });

  it("gives the first init line, with defaults for the lists a release left out", () => {
    expect(initOf(rec, "s1")).toMatchObject({ line: 0, t: 100, session_id: "sid-1", tools: ["Bash"], mcp_servers: [{ name: "srv", status: "connected" }], cwd: "/w", claude_code_version: "2.1.332" });
    const bare = initOf(recordings({ sessions: [session("s2", lines({ type: "system", subtype: "init", session_id: "x" }))] }), "s2");
    expect(bare).toEqual({ type: "system", subtype: "init", session_id: "x", tools: [], mcp_servers: [], line: 0, t: 100 });
    expect(initOf(rec, "quiet")).toBeNull();
    expect(initOf(rec, "nobody")).toBeNull();
  });

  it("takes no init line whose MCP servers lack a name or a status, or whose tools are not names", () => {
    const init = (extra: object) => initOf(recordings({ sessions: [session("s", lines({ type: "system", subtype: "init", session_id: "x", ...extra }))] }), "s");
    expect(init({ mcp_servers: [{ name: "srv" }] })).toBeNull();
    expect(init({ mcp_servers: [{ status: "failed" }] })).toBeNull();
    expect(init({ tools: [1] })).toBeNull();
    expect(init({ session_id: 5 })).toBeNull();
    expect(init({ mcp_servers: [{ name: "srv", status: "failed", extra: 1 }] })?.mcp_servers).toEqual([{ name: "srv", status: "failed", extra: 1 }]);
  });

  it("finds a session by its label or by a handle's name", () => {
    const rec2 = recordings({ sessions: [session("a"), session("b")] });
    expect(sessionOf(rec2, "b")?.label).toBe("b");
    expect(sessionOf(rec2, { name: "a" })?.label).toBe("a");
    expect(sessionOf(rec2, "c")).toBeUndefined();
  });
});

describe("exitOf", () => {
  it("gives the exit code and signal of an ended process, and null for one running, one never started, or no session", () => {
    const rec = recordings({
      sessions: [
        session("done", [], proc({ endedAt: 50, exitCode: 0, signal: null })),
        session("killed", [], proc({ endedAt: 60, exitCode: null, signal: "SIGKILL" })),
        session("ended-at-zero", [], proc({ endedAt: 0, exitCode: 3 })),
        session("running", [], proc({ endedAt: null })),
        session("unstarted"),
      ],
    });
    expect(exitOf(rec, "done")).toEqual({ exitCode: 0, signal: null });
    expect(exitOf(rec, "killed")).toEqual({ exitCode: null, signal: "SIGKILL" });
    expect(exitOf(rec, "ended-at-zero")).toEqual({ exitCode: 3, signal: null });
    expect(exitOf(rec, "running")).toBeNull();
    expect(exitOf(rec, "unstarted")).toBeNull();
    expect(exitOf(rec, "nobody")).toBeNull();
  });
});

describe("viewRequest", () => {
  const messages = [
    { role: "user", content: "plain text" },
    {
      role: "assistant",
      content: [
        { type: "text", text: "running" },
        { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } },
        { type: "tool_use" },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "a" }, { type: "image" }, null, { type: "text", text: 5 }, { type: "text", text: "b" }] },
        { type: "tool_result", tool_use_id: "toolu_2", is_error: true, content: "failed" },
        { type: "tool_result", is_error: "yes", content: 42 },
        { type: "text", text: "after" },
      ],
    },
  ];
  const body = { model: "claude-x", messages, tools: [{ name: "Bash" }, { description: "nameless" }, { name: "Read" }], metadata: { user_id: "u" } };

  it("parses the messages, the tools' names, every tool_use and tool_result, the model and the reply", () => {
    const e = entry(3, { stream: "side", streaming: false, receivedAt: 77, reply: { status: 529, kind: "error", summary: "overloaded", fault: "overloaded", stopReason: null } });
    const rec = recordings({ requests: [e], body: bodies({ 3: body }) });
    const view = viewRequest(rec, e);
    expect(view).toMatchObject({ seq: 3, stream: "side", receivedAt: 77, model: "claude-x", streaming: false, session: null, tools: ["Bash", "Read"], reply: { status: 529, fault: "overloaded" } });
    expect(view.entry).toBe(e);
    expect(view.messages).toEqual(messages);
    expect(view.raw().toString("utf8")).toBe(JSON.stringify(body));
    expect(view.toolUses).toEqual([
      { message: 1, id: "toolu_1", name: "Bash", input: { command: "ls" } },
      { message: 1, id: "", name: "", input: undefined },
    ]);
    expect(view.toolResults).toEqual([
      { message: 2, tool_use_id: "toolu_1", is_error: false, text: "ab", block: messages[2]!.content[0] },
      { message: 2, tool_use_id: "toolu_2", is_error: true, text: "failed", block: messages[2]!.content[1] },
      { message: 2, tool_use_id: "", is_error: false, text: "", block: messages[2]!.content[2] },
    ]);
  });

  it("views a body without messages or tools as having none", () => {
    const e = entry(1);
    const view = viewRequest(recordings({ requests: [e], body: bodies({ 1: { model: "m" } }) }), e);
    expect(view).toMatchObject({ model: "m", messages: [], tools: [], toolResults: [], toolUses: [] });
  });

  it("views a body that is not JSON, or not a Messages request, as empty", () => {
    const off = [
      { messages: "nope", model: "m" },
      { model: "m", messages: [{ role: 1, content: "x" }] },
      { model: "m", messages: [{ role: "user", content: 2 }] },
      { model: "m", messages: [{ role: "user", content: [{ text: "a block without a type" }] }] },
      { model: "m", messages: [], tools: [{ name: 5 }] },
      { model: "m", messages: [], metadata: { user_id: 5 } },
      { model: 5, messages: [] },
    ];
    for (const text of ["{not json", "null", ...off.map((b) => JSON.stringify(b))]) {
      const e = entry(1);
      const view = viewRequest(recordings({ requests: [e], body: bodies({ 1: text }) }), e);
      expect(view).toMatchObject({ model: null, messages: [], tools: [], toolResults: [], toolUses: [] });
      expect(view.raw().toString("utf8")).toBe(text);
    }
  });

  it("names the sender by the process that held the connection, else by the session id the request carries", () => {
    const sid = "0f8fad5b-d9cb-469f-a165-70867728950e";
    const other = "11111111-2222-3333-4444-555555555555";
    const rec = recordings({
      // A process that has not reported its pid or session id yet must not match a request that carries neither.
      sessions: [session("pidless", [], proc({ pid: null, sessionId: null })), session("byPid", [], proc({ pid: 42, sessionId: other })), session("byId", [], proc({ pid: 7, sessionId: sid })), session("unstarted")],
      body: bodies({ 1: { messages: [], metadata: { user_id: `user_abc_session_${sid}` } }, 2: { messages: [] }, 3: { messages: [], metadata: { user_id: "user_abc_session_nothex" } } }),
    });
    const view = (e: RequestEntry) => viewRequest(rec, e).session;
    // The pid wins over the id in the body.
    expect(view(entry(1, { client: { remoteAddress: null, remotePort: null, pid: 42 } }))).toBe("byPid");
    // No pid, or a pid of no session: the session id in metadata.user_id.
    expect(view(entry(1))).toBe("byId");
    expect(view(entry(1, { client: { remoteAddress: null, remotePort: null, pid: null } }))).toBe("byId");
    expect(view(entry(1, { client: { remoteAddress: null, remotePort: null, pid: 999 } }))).toBe("byId");
    // The session header wins over metadata.user_id.
    expect(view(entry(1, { headers: { "x-claude-code-session-id": other } }))).toBe("byPid");
    expect(view(entry(2, { headers: { "x-claude-code-session-id": sid } }))).toBe("byId");
    // An empty header is no header.
    expect(view(entry(1, { headers: { "x-claude-code-session-id": "" } }))).toBe("byId");
    // Nothing to go by, or an id no session has.
    expect(view(entry(2))).toBeNull();
    expect(view(entry(3))).toBeNull();
    // An id no session reported, with no process seen: the one running session whose id is unknown.
    expect(view(entry(2, { headers: { "x-claude-code-session-id": "unknown" } }))).toBe("pidless");
  });

  // continue-latest-interactive on 1.0.53–2.0.x: the UI's requests carry its session id, which the UI never prints,
  // through the proxy; they were no one's, and its wait ran out.
  it("gives a request whose session id no session reported to the one running session whose id is unknown, and only that", () => {
    const unknownId = { "x-claude-code-session-id": "cccccccc-cccc-cccc-cccc-cccccccccccc" };
    const ui = session("ui", [], proc({ sessionId: null }));
    expect(viewRequest(recordings({ sessions: [ui], body: bodies({ 1: { messages: [] } }) }), entry(1, { headers: unknownId })).session).toBe("ui");
    // A running session with another, known id did not send it.
    const known = session("s1", [], proc({ sessionId: "dddddddd-dddd-dddd-dddd-dddddddddddd" }));
    expect(viewRequest(recordings({ sessions: [known], body: bodies({ 1: { messages: [] } }) }), entry(1, { headers: unknownId })).session).toBeNull();
    expect(viewRequest(recordings({ sessions: [known, ui], body: bodies({ 1: { messages: [] } }) }), entry(1, { headers: unknownId })).session).toBe("ui");
    // Nor is it the UI's when a process that is no session's held the connection.
    expect(viewRequest(recordings({ sessions: [ui], body: bodies({ 1: { messages: [] } }) }), entry(1, { headers: unknownId, client: { remoteAddress: null, remotePort: null, pid: 5 } })).session).toBeNull();
  });

  // Releases before 1.0.93 reach the mock through the harness's proxy (no process on the connection) and before 1.0.53
  // carry no session id: thinking-changed-on-replay's resumed session on 1.0.51 sent its request as the only session
  // running, and belonged to none.
  it("gives a request with no process and no session id to the one session running when it came", () => {
    const sessions = [session("s1", [], proc({ startedAt: 900, endedAt: 1000 })), session("s2", [], proc({ startedAt: 1002, endedAt: null }))];
    const rec = recordings({ sessions, body: bodies({ 1: { messages: [] }, 5: { messages: [] } }) });
    const at = (seq: number, over: Partial<RequestEntry> = {}) => viewRequest(rec, entry(seq, over)).session;
    expect(at(5)).toBe("s2");
    expect(at(5, { receivedAt: 950 })).toBe("s1");
    // Between the two, or while both run: no one.
    expect(at(1, { receivedAt: 1001 })).toBeNull();
    const both = recordings({ sessions: [session("a", [], proc({ startedAt: 0 })), session("b", [], proc({ startedAt: 0 }))], body: bodies({ 1: { messages: [] } }) });
    expect(viewRequest(both, entry(1)).session).toBeNull();
    // A process on the connection that is no session's (a daemon) is not the running session's.
    expect(at(5, { client: { remoteAddress: null, remotePort: null, pid: 4242 } })).toBeNull();
  });
});

describe("requestsOf", () => {
  const sid1 = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";
  const sid2 = "bbbbbbbb-bbbb-bbbb-bbbb-bbbbbbbbbbbb";
  const rec = recordings({
    sessions: [session("s1", [], proc({ sessionId: sid1 })), session("s2", [], proc({ sessionId: sid2 }))],
    requests: [
      entry(1, { headers: { "x-claude-code-session-id": sid1 } }),
      entry(2, { path: "/v1/messages/count_tokens", headers: { "x-claude-code-session-id": sid1 } }),
      entry(3, { path: "/v1/models", headers: { "x-claude-code-session-id": sid1 } }),
      entry(4, { stream: "side", headers: { "x-claude-code-session-id": sid1 } }),
      entry(5, { path: "/v1/messages?beta=true", headers: { "x-claude-code-session-id": sid2 } }),
      entry(6, { stream: "side", headers: { "x-claude-code-session-id": sid2 } }),
    ],
    body: bodies({}),
  });

  it("views the Messages requests in order, leaving out token counts and other endpoints", () => {
    expect(requestsOf(rec).map((r) => r.seq)).toEqual([1, 4, 5, 6]);
  });

  it("filters by stream, by session (label or handle), and by both", () => {
    expect(requestsOf(rec, { stream: "side" }).map((r) => r.seq)).toEqual([4, 6]);
    expect(requestsOf(rec, { session: "s1" }).map((r) => r.seq)).toEqual([1, 4]);
    expect(requestsOf(rec, { session: { name: "s2" } }).map((r) => r.seq)).toEqual([5, 6]);
    expect(requestsOf(rec, { stream: "main", session: "s2" }).map((r) => r.seq)).toEqual([5]);
    expect(requestsOf(rec, { stream: "nope" })).toEqual([]);
  });
});

describe("hookCallsOf", () => {
  const hook = (t: number, event: string, payload: unknown): HookRecord => ({ t, event, durationMs: 1, raw: JSON.stringify(payload), payload, answer: null });
  const answer = { rule: 0, call: 0, exitCode: 2, stdout: "", stderr: "no", shell: false, signal: null };
  const rec = recordings({
    hooks: [
      hook(1, "UserPromptSubmit", { session_id: "s", hook_event_name: "UserPromptSubmit", prompt: "hi", extra: 1 }),
      { ...hook(2, "PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } }), answer },
      // A payload whose common field has the wrong type is viewed as empty; its raw bytes stay.
      hook(3, "UserPromptSubmit", { prompt: 5 }),
    ],
  });

  it("gives every call, or those of one event, with time, payload, raw bytes and answer", () => {
    expect(hookCallsOf(rec).map((h) => h.t)).toEqual([1, 2, 3]);
    expect(hookCallsOf(rec, "PreToolUse")).toEqual([{ t: 2, event: "PreToolUse", payload: { tool_name: "Bash", tool_input: { command: "ls" } }, raw: '{"tool_name":"Bash","tool_input":{"command":"ls"}}', answer }]);
    expect(hookCallsOf(rec, "UserPromptSubmit").map((h) => [h.t, h.payload, h.answer])).toEqual([
      [1, { session_id: "s", hook_event_name: "UserPromptSubmit", prompt: "hi", extra: 1 }, null],
      [3, {}, null],
    ]);
    expect(hookCallsOf(rec, "UserPromptSubmit")[1]!.raw).toBe('{"prompt":5}');
    expect(hookCallsOf(rec, "Stop")).toEqual([]);
  });
});

describe("mcpEventsOf", () => {
  it("gives every server's events, or one server's, and none for a run without MCP servers", () => {
    const events = [
      { t: 1, event: "started", pid: 10, server: "a" },
      { t: 2, event: "started", pid: 11, server: "b" },
      { t: 3, event: "request", pid: 10, method: "tools/list", server: "a" },
    ];
    const rec = recordings({ mcp: events });
    expect(mcpEventsOf(rec)).toEqual(events);
    expect(mcpEventsOf(rec, "a").map((e) => e.t)).toEqual([1, 3]);
    expect(mcpEventsOf(rec, "c")).toEqual([]);
    expect(mcpEventsOf(recordings({}))).toEqual([]);
    expect(mcpEventsOf(recordings({}), "a")).toEqual([]);
  });
});

describe("filesOf and fileOf", () => {
  const file = (path: string, text: string) => ({ path, size: text.length, sha256: "x", text });
  const rec = recordings({
    workdir: {
      afterSession: { s1: { t: 1, files: [file("a.txt", "after s1")] } },
      atEnd: { t: 2, files: [file("a.txt", "at end"), file("dir/b.txt", "b")] },
    },
  });

  it("reads the snapshot at the run's end by default, or the one after a session", () => {
    expect(filesOf(rec)?.map((f) => f.text)).toEqual(["at end", "b"]);
    expect(filesOf(rec, { after: "s1" })?.map((f) => f.text)).toEqual(["after s1"]);
    expect(filesOf(rec, { after: { name: "s1" } })?.map((f) => f.text)).toEqual(["after s1"]);
    expect(fileOf(rec, "dir/b.txt")?.text).toBe("b");
    expect(fileOf(rec, "a.txt", { after: "s1" })?.text).toBe("after s1");
    expect(fileOf(rec, "missing.txt")).toBeNull();
  });

  it("gives null files for a snapshot not taken, and refuses to guess a file from one", () => {
    expect(filesOf(rec, { after: "s2" })).toBeNull();
    expect(filesOf(recordings({}))).toBeNull();
    expect(() => fileOf(recordings({}), "a.txt")).toThrow(
      "the run has no working-directory snapshot at its end: run directories recorded before snapshots were kept have none; record the run again, or check `filesOf(rec) === null` first",
    );
    expect(() => fileOf(rec, "a.txt", { after: { name: "s2" } })).toThrow(/^the run has no working-directory snapshot after session s2: /);
  });
});

describe("answeredAndSettled", () => {
  const result = (t: number): StdoutRecord => ({ line: 0, t, raw: "", event: { type: "result", subtype: "success" } });
  const assistant = (t: number): StdoutRecord => ({ line: 0, t, raw: "", event: { type: "assistant" } });

  it("holds once the request was answered, nothing is in flight, and the session printed a result at or after the answer", () => {
    const base = { requests: [entry(1), entry(2)], responseEnds: new Map([ended(1, 10), ended(2, 20)]) };
    expect(answeredAndSettled(recordings({ ...base, sessions: [session("s1", [result(20)])] }), 2)).toBe(true);
    expect(answeredAndSettled(recordings({ ...base, sessions: [session("s1", [result(25)])] }), 2)).toBe(true);
    // A result printed before the answer ended, or no result line at all.
    expect(answeredAndSettled(recordings({ ...base, sessions: [session("s1", [result(19)])] }), 2)).toBe(false);
    expect(answeredAndSettled(recordings({ ...base, sessions: [session("s1", [assistant(30), { line: 1, t: 31, raw: "x", event: null }])] }), 2)).toBe(false);
  });

  it("is false while the request is unanswered or another is in flight, and without the session", () => {
    const sessions = [session("s1", [result(100)])];
    expect(answeredAndSettled(recordings({ sessions, requests: [entry(1)], responseEnds: new Map() }), 1)).toBe(false);
    expect(answeredAndSettled(recordings({ sessions, requests: [entry(1), entry(2)], responseEnds: new Map([ended(1, 10)]) }), 1)).toBe(false);
    expect(answeredAndSettled(recordings({ sessions: [], requests: [entry(1)], responseEnds: new Map([ended(1, 10)]) }), 1)).toBe(false);
    expect(answeredAndSettled(recordings({ sessions, requests: [entry(1)], responseEnds: new Map([ended(1, 10)]) }), 1, { session: "other" })).toBe(false);
  });

  it("reads the first session by default, or the one named", () => {
    const rec = recordings({ sessions: [session("s1", []), session("s2", [result(50)])], requests: [entry(1)], responseEnds: new Map([ended(1, 10)]) });
    expect(answeredAndSettled(rec, 1)).toBe(false);
    expect(answeredAndSettled(rec, 1, { session: "s2" })).toBe(true);
    expect(answeredAndSettled(rec, 1, { session: { name: "s2" } })).toBe(true);
  });
});
