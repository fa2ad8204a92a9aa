// resume-points-at-nothing's check on a run recorded from a real release (test/fixtures/runs README): 2.1.332 refuses
// `-p --resume ID` of a session killed before it wrote a transcript (exit 1, "No conversation found"), GREEN; RED and
// INCONCLUSIVE from edits of that run (no release measured answered as a new session).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("resume-points-at-nothing")!;
const check = (dir: string) => {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse({}));
  return { ...result, ids: result.findings.map((f) => f.id) };
};
const GREEN = "resume-nothing-green-2.1.332";
const ID = "3c0e1f2a-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
const OTHER = "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a";
const S2_PID = 7257;
const editSession = (dir: string, label: string, edit: (s: Record<string, unknown>) => Record<string, unknown>) =>
  editFile(dir, `sessions/${label}/session.json`, (text) => JSON.stringify(edit(JSON.parse(text) as Record<string, unknown>), null, 2));
const startedAt = (dir: string) => (JSON.parse(fs.readFileSync(path.join(dir, "sessions", "s2", "session.json"), "utf8")) as { startedAt: number }).startedAt;

// The run as a release with the bug would leave it: session 2 exits 0, prints an init line under another id and a
// successful result, and its request is answered as the "again" conversation.
function answeredAsNew(options: { initId?: string | null; exitCode?: number | null; isError?: boolean; stream?: string; result?: boolean; text?: string; pid?: number } = {}): string {
  const dir = copyRun(recordedRun(GREEN));
  const { initId = OTHER, exitCode = 0, isError = false, stream = "again", result = true, text = "fresh answer", pid = S2_PID } = options;
  const t = startedAt(dir);
  editSession(dir, "s2", (s) => ({ ...s, exitCode, sessionId: initId }));
  fs.writeFileSync(
    path.join(dir, "sessions", "s2", "stdout.jsonl"),
    [
      ...(initId === null ? [] : [{ t: t + 100, raw: JSON.stringify({ type: "system", subtype: "init", session_id: initId, tools: [] }) }]),
      ...(result ? [{ t: t + 400, raw: JSON.stringify({ type: "result", subtype: "success", is_error: isError, num_turns: 1, result: text, session_id: initId ?? ID }) }] : []),
    ]
      .map((l) => JSON.stringify(l))
      .join("\n") + "\n",
  );
  const body = JSON.stringify({ messages: [{ role: "user", content: "CCREPRO_NOTHING_AGAIN_3K go on" }] });
  fs.mkdirSync(path.join(dir, "mock", "requests"), { recursive: true });
  fs.writeFileSync(path.join(dir, "mock", "requests", "000001.body"), body);
  const request = {
    kind: "request", seq: 1, receivedAt: t + 200, method: "POST", path: "/v1/messages", query: "beta=true", headers: {}, bodyFile: "requests/000001.body",
    bodyBytes: Buffer.byteLength(body), bodySha256: "0".repeat(64), stream, step: 0, messageCount: 1, streaming: true, conformance: [],
    reply: { status: 200, kind: "sse", summary: 'text:"fresh answer"', fault: null, stopReason: "end_turn" },
    client: { remoteAddress: "127.0.0.1", remotePort: 40000, pid, command: "claude" },
  };
  fs.appendFileSync(path.join(dir, "mock", "index.jsonl"), JSON.stringify(request) + "\n" + JSON.stringify({ kind: "response-end", seq: 1, endedAt: t + 300, outcome: "complete" }) + "\n");
  return dir;
}

// A transcript of session 1's id with one row written at `at`.
function transcriptRow(dir: string, at: number | null, id = ID) {
  const folder = path.join(dir, "transcripts", "-RUN-iso-work");
  fs.mkdirSync(folder, { recursive: true });
  const row = { type: "user", uuid: "a0000000-0000-4000-8000-000000000001", sessionId: id, ...(at === null ? {} : { timestamp: new Date(at).toISOString() }), message: { role: "user", content: "hello" } };
  fs.writeFileSync(path.join(folder, `${id}.jsonl`), JSON.stringify(row) + "\n");
}

describe("resume-points-at-nothing's check", () => {
  it("2.1.332: GREEN — the resume exits 1 with error_during_execution, no init line", () => {
    const result = check(recordedRun(GREEN));
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes).toEqual([`resume of ${ID}: exit 1, init session none, result error_during_execution ["No conversation found with session ID: ${ID}"]`]);
  });

  it("RED resumed-into-new-session when the resume exits 0 and answers as a new session under another id", () => {
    const result = check(answeredAsNew());
    expect(result.verdict).toBe("RED");
    expect(result.ids).toEqual(["resumed-into-new-session"]);
    expect(result.findings[0]).toMatchObject({ red: true, title: `--resume ${ID} answered as a new session ${OTHER}, with no transcript of ${ID} on disk and no error`, where: "request #1" });
    expect(result.notes).toEqual([`resume of ${ID}: exit 0, init session ${OTHER}, result success "fresh answer"`]);
  });

  it.each([
    ["no init line", { initId: null }],
    ["the init line carries the resumed id", { initId: ID }],
    ["it exits 1", { exitCode: 1 }],
    ["its result is an error", { isError: true }],
    ["no request of the new conversation was made", { stream: "side" }],
  ])("GREEN, not RED, when %s", (_label, options) => {
    expect(check(answeredAsNew(options))).toMatchObject({ verdict: "GREEN", ids: [] });
  });

  it("INCONCLUSIVE when session 1 wrote transcript rows before the resume started; rows written after do not count", () => {
    const before = copyRun(recordedRun(GREEN));
    transcriptRow(before, startedAt(before) - 1000);
    expect(check(before)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session 1 wrote 1 transcript rows before it was killed: its resume points at something" });
    const after = copyRun(recordedRun(GREEN));
    transcriptRow(after, startedAt(after) + 1000);
    expect(check(after).verdict).toBe("GREEN");
  });

  it("INCONCLUSIVE when session 1 printed a result (it had a turn)", () => {
    const dir = copyRun(recordedRun(GREEN));
    editJsonLines(dir, "sessions/s1/stdout.jsonl", (lines) => [...lines, { t: startedAt(dir) - 10, raw: JSON.stringify({ type: "result", subtype: "success", is_error: false }) }]);
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session 1 did not end before its first turn, or session 2 never ran" });
  });

  it("INCONCLUSIVE when session 1 never ended, or session 2 never ran", () => {
    const running = copyRun(recordedRun(GREEN));
    editSession(running, "s1", (s) => ({ ...s, endedAt: null }));
    expect(check(running)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session 1 did not end before its first turn, or session 2 never ran" });
    const noS2 = copyRun(recordedRun(GREEN));
    fs.rmSync(path.join(noS2, "sessions", "s2"), { recursive: true });
    expect(check(noS2)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session 1 did not end before its first turn, or session 2 never ran" });
  });

  it("RED also without a result line (exit 0, a new session id, answered); the note says so", () => {
    const result = check(answeredAsNew({ result: false }));
    expect(result.ids).toEqual(["resumed-into-new-session"]);
    expect(result.notes).toEqual([`resume of ${ID}: exit 0, init session ${OTHER}, result none ""`]);
  });

  it("the note: exit - for a resume ended by a signal, the result text cut to 160 characters", () => {
    const result = check(answeredAsNew({ exitCode: null, text: "z".repeat(300) }));
    expect(result.verdict).toBe("GREEN");
    expect(result.notes).toEqual([`resume of ${ID}: exit -, init session ${OTHER}, result success ${JSON.stringify("z".repeat(300)).slice(0, 160)}`]);
  });

  it("only session 2's own request counts as answering the new conversation", () => {
    expect(check(answeredAsNew({ pid: 7242 }))).toMatchObject({ verdict: "GREEN", ids: [] });
  });

  it("rows of another session's transcript, or without a timestamp, are not session 1's flushed rows", () => {
    const other = copyRun(recordedRun(GREEN));
    transcriptRow(other, startedAt(other) - 1000, OTHER);
    expect(check(other).verdict).toBe("GREEN");
    const untimed = copyRun(recordedRun(GREEN));
    transcriptRow(untimed, null);
    expect(check(untimed).verdict).toBe("GREEN");
  });

  it("a resume still running (no exit recorded): no RED, the note says exit -", () => {
    const dir = answeredAsNew();
    editSession(dir, "s2", (s) => ({ ...s, endedAt: null, exitCode: null }));
    const result = check(dir);
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes?.[0]).toMatch(new RegExp(`^resume of ${ID}: exit -, init session ${OTHER}, `));
  });

  it("a row written in the very millisecond session 2 started is not one written before it", () => {
    const dir = copyRun(recordedRun(GREEN));
    const at = Math.floor(startedAt(dir)) + 1;
    editSession(dir, "s2", (s) => ({ ...s, startedAt: at }));
    transcriptRow(dir, at);
    expect(check(dir).verdict).toBe("GREEN");
  });
});
