// The continuation classifier on request logs recorded from real /background runs (pruned), and on edits of them.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkContinuation, classifyTurn, turnAnswered } from "../../checker/continuation.ts";
import { judge } from "../../core/verdict.ts";
import { loadRequestLog, type Recordings } from "../../harness/recordings.ts";
import type { RequestEntry } from "../../mock-api/log-entry.ts";

type Log = Pick<Recordings, "requests" | "responseEnds" | "body">;

const FIXTURES = path.join(import.meta.dirname, "..", "fixtures", "background");

function fixture(name: string): { log: Log; foregroundPid: number } {
  const dir = path.join(FIXTURES, name);
  const { pid } = JSON.parse(fs.readFileSync(path.join(dir, "foreground.json"), "utf8")) as { pid: number };
  return { log: loadRequestLog(path.join(dir, "mock")), foregroundPid: pid };
}

function check(name: string, edit: (log: Log) => Log = (log) => log) {
  const { log, foregroundPid } = fixture(name);
  const result = checkContinuation(edit(log), { stream: "main", foregroundPid });
  return { ...result, verdict: judge(result).verdict, ids: result.findings.map((f) => f.id) };
}

// A copy of the log with request `seq`'s entry and/or body replaced.
function editRequest(log: Log, seq: number, entry: (e: RequestEntry) => RequestEntry, body?: (text: string) => string): Log {
  return {
    requests: log.requests.map((e) => (e.seq === seq ? entry(e) : e)),
    responseEnds: log.responseEnds,
    body: (n) => (n === seq && body ? Buffer.from(body(log.body(n).toString("utf8"))) : log.body(n)),
  };
}

// A copy of the log with request `seq` sent once more, as request `newSeq`, by another process.
function repeatRequest(log: Log, seq: number, newSeq: number, pid: number): Log {
  const original = log.requests.find((e) => e.seq === seq)!;
  const end = log.responseEnds.get(seq)!;
  return {
    requests: [...log.requests, { ...original, seq: newSeq, client: { ...original.client, pid } }],
    responseEnds: new Map([...log.responseEnds, [newSeq, { ...end, seq: newSeq }]]),
    body: (n) => log.body(n === newSeq ? seq : n),
  };
}

describe("classifyTurn on recorded logs", () => {
  it("2.1.150: the original tool call and nothing after it", () => {
    const { log, foregroundPid } = fixture("2.1.150-dropped");
    const { requests } = classifyTurn(log, { stream: "main", foregroundPid });
    expect(requests.map((r) => [r.seq, r.role, r.foreground, r.foregroundBy])).toEqual([[2, "original", true, "pid"]]);
  });

  it("2.1.150: the exiting UI reports the killed tool and gets the answer", () => {
    const { log, foregroundPid } = fixture("2.1.150-killed-in-foreground");
    const { requests } = classifyTurn(log, { stream: "main", foregroundPid });
    expect(requests.map((r) => [r.seq, r.role, r.continues, r.foreground, r.answered])).toEqual([
      [2, "original", null, true, false],
      [4, "continuation", 2, true, true],
    ]);
    expect(requests[1]!.result).toEqual({ toolUseId: "toolu_mock_2_0", isError: true, text: "Exit code 137", killed: true });
  });

  it("2.1.332: another process re-sends the prompt, runs the tool again and answers", () => {
    const { log, foregroundPid } = fixture("2.1.332-rerun");
    const { requests } = classifyTurn(log, { stream: "main", foregroundPid });
    expect(requests.map((r) => [r.seq, r.role, r.continues, r.foreground, r.answered])).toEqual([
      [1, "original", null, true, false],
      [3, "resend", null, false, false],
      [5, "continuation", 3, false, true],
    ]);
    expect(requests[1]!.sessionId).not.toBe(requests[0]!.sessionId);
    expect(requests[1]!.pid).toBe(requests[2]!.pid);
    expect(requests[2]!.result).toMatchObject({ isError: false, text: "SLOW_TOOL_DONE", killed: false });
  });
});

describe("checkContinuation", () => {
  it("is RED turn-dropped when no process continues the turn (2.1.150)", () => {
    const result = check("2.1.150-dropped");
    expect(result.verdict).toBe("RED");
    expect(result.ids).toEqual(["turn-dropped"]);
    expect(result.findings[0]!.data).toMatchObject({ original: 2, fromForeground: [] });
  });

  it("counts what the exiting UI sends as no continuation, and reports the killed tool (2.1.150)", () => {
    const result = check("2.1.150-killed-in-foreground");
    expect(result.ids).toEqual(["turn-dropped", "tool-killed"]);
    expect(result.findings.every((f) => f.red)).toBe(true);
    expect(result.findings[1]!.data).toMatchObject({ seq: 4, continues: 2, text: "Exit code 137", isError: true });
  });

  it("tells the foreground by its session id when the mock could not find the sending process", () => {
    const result = check("2.1.150-killed-in-foreground", (log) => editRequest(log, 4, (e) => ({ ...e, client: { ...e.client, pid: null, command: null } })));
    expect(result.ids).toEqual(["turn-dropped", "tool-killed"]);
    expect(result.notes.join("\n")).toContain("the foreground UI (by its session id)");
  });

  it("is GREEN for one continuation by another process, with the re-run as information (2.1.332)", () => {
    const result = check("2.1.332-rerun");
    expect(result.verdict).toBe("GREEN");
    expect(result.ids).toEqual(["turn-rerun"]);
    expect(result.findings[0]).toMatchObject({ red: false, data: { seq: 3, toolRanAgain: true } });
    expect(result.notes).toHaveLength(3);
  });

  it("is RED turn-duplicated when a second process answers the turn too", () => {
    const result = check("2.1.332-rerun", (log) => repeatRequest(log, 5, 9, 4242));
    expect(result.verdict).toBe("RED");
    expect(result.ids).toEqual(["turn-duplicated", "turn-rerun"]);
    expect(result.findings[0]!.data).toEqual({ answers: [5, 9] });
  });

  it("is RED tool-killed when the background session reports the tool as killed", () => {
    const killed = (text: string) => text.replace('"content": "SLOW_TOOL_DONE"', '"content": "Exit code 137"').replace('"is_error": false', '"is_error": true');
    const result = check("2.1.332-rerun", (log) => editRequest(log, 5, (e) => e, killed));
    expect(result.verdict).toBe("RED");
    expect(result.ids).toEqual(["tool-killed", "turn-rerun"]);
  });

  it("does not call a turn the foreground finished itself dropped: /background came too late", () => {
    const finished = (text: string) => text.replace('"content": "Exit code 137"', '"content": "SLOW_TOOL_DONE"').replace('"is_error": true', '"is_error": false');
    const result = check("2.1.150-killed-in-foreground", (log) => editRequest(log, 4, (e) => e, finished));
    expect(result.ids).toEqual([]);
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reached).toMatchObject({ ok: false, reason: expect.stringContaining("the foreground finished the tool itself") });
  });

  it("is INCONCLUSIVE when the turn was continued but the answer never arrived", () => {
    const result = check("2.1.332-rerun", (log) => ({ ...log, responseEnds: new Map([...log.responseEnds].map(([seq, end]) => [seq, seq === 5 ? { ...end, outcome: "aborted" as const } : end])) }));
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reached).toMatchObject({ ok: false, reason: expect.stringContaining("never answered") });
  });

  it("is INCONCLUSIVE, not GREEN, when only the exiting UI got the answer and the background re-run is still going", () => {
    // 2.1.332-rerun with the answering request 5 sent by the foreground UI: the background session (req 3) only re-sent the prompt.
    const { foregroundPid } = fixture("2.1.332-rerun");
    const result = check("2.1.332-rerun", (log) => editRequest(log, 5, (e) => ({ ...e, client: { ...e.client, pid: foregroundPid } })));
    expect(result.ids).toEqual(["turn-rerun"]);
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reached).toMatchObject({ ok: false, reason: expect.stringContaining("only the exiting foreground UI got an answer (req 5)") });
  });

  it("counts an answer to a request of an unidentified sender as reaching the point", () => {
    const result = check("2.1.332-rerun", (log) => editRequest(log, 5, (e) => ({ ...e, client: { ...e.client, pid: null, command: null } })));
    expect(result.verdict).toBe("GREEN");
  });

  it("is INCONCLUSIVE when no tool call was ever in flight", () => {
    const result = check("2.1.332-rerun", (log) => ({ ...log, requests: log.requests.filter((e) => e.stream !== "main") }));
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.findings).toEqual([]);
  });
});

describe("turnAnswered", () => {
  it("reads the answer from log entries alone", () => {
    expect(turnAnswered(fixture("2.1.332-rerun").log, "main")).toBe(true);
    expect(turnAnswered(fixture("2.1.150-dropped").log, "main")).toBe(false);
  });

  it("can leave out the answers one process got", () => {
    const { log, foregroundPid } = fixture("2.1.150-killed-in-foreground");
    expect(turnAnswered(log, "main")).toBe(true);
    expect(turnAnswered(log, "main", foregroundPid)).toBe(false);
  });

  it("tells the foreground's answer by its session id when the mock could not find the sending process", () => {
    const { log, foregroundPid } = fixture("2.1.150-killed-in-foreground");
    const vanished = editRequest(log, 4, (e) => ({ ...e, client: { ...e.client, pid: null, command: null } }));
    expect(turnAnswered(vanished, "main", foregroundPid)).toBe(false);
  });
});

describe("tool results in their other shapes (the recorded 2.1.150 kill, its body edited in memory)", () => {
  const withResult = (content: unknown, before: (messages: unknown[]) => void = () => undefined) =>
    check("2.1.150-killed-in-foreground", (log) =>
      editRequest(log, 4, (e) => e, (text) => {
        const body = JSON.parse(text) as { messages: { role: string; content: unknown }[] };
        (body.messages.at(-1)!.content as { content: unknown }[])[0]!.content = content;
        before(body.messages);
        return JSON.stringify(body);
      }),
    );

  it("joins the text blocks of an array result with newlines, skipping other blocks", () => {
    const result = withResult([{ type: "text", text: "Exit code 137" }, { type: "image" }, { type: "text", text: "second" }]);
    const killed = result.findings.find((f) => f.id === "tool-killed")!;
    expect(killed.data).toMatchObject({ text: "Exit code 137\nsecond", toolUseId: "toolu_mock_2_0", continues: 2 });
  });

  it("reads a result that is neither text nor blocks as empty: no kill", () => {
    expect(withResult({ odd: true }).ids).not.toContain("tool-killed");
  });

  it("finds no result when the last assistant message is plain text", () => {
    const result = withResult("Exit code 137", (messages) => {
      messages.splice(-2, 1, { role: "assistant", content: "plain text, no tool call" });
    });
    expect(result.ids).not.toContain("tool-killed");
    expect(result.notes.find((n) => n.startsWith("req 4"))).toMatch(/^req 4 step 1: other → end_turn/);
  });
});
