// resume-history-lost's check on runs recorded from real releases (test/fixtures/runs README), a transcript padded past
// 5 MiB with a corrupt line (size=large): 2.1.111 resumes without what follows the corrupt line (RED history-lost), 2.1.118
// refuses the resume (RED resume-refused), 2.1.121 skips the line (GREEN, the CHANGELOG 2.1.121 fix);
// 2.1.332 resuming a small transcript with a corrupt line inserted (corrupt-line) and with the first answer's row
// destroyed (corrupt-row), both GREEN; RED and INCONCLUSIVE from edits of them that change one fact the check reads.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { conversationRows, transcriptOf as loadTranscript } from "../../checker/transcripts.ts";
import { copyRun, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("resume-history-lost")!;
const check = (dir: string, params: Record<string, string> = {}) => {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id) };
};
const LINE = "history-corrupt-line-2.1.332";
const ROW = "history-corrupt-row-2.1.332";
const transcriptOf = (dir: string) => {
  const name = fs.readdirSync(path.join(dir, "transcripts", "-RUN-iso-work")).find((f) => f.endsWith(".jsonl"))!;
  return { relative: path.join("transcripts", "-RUN-iso-work", name), where: `-RUN-iso-work/${name}` };
};
// The resumed session's request is #3 in both runs.
const editResumedBody = (dir: string, edit: (text: string) => string) => editFile(dir, "mock/requests/000003.body", edit);
const editTranscript = (dir: string, edit: (text: string) => string) => editFile(dir, transcriptOf(dir).relative, edit);
// Makes session 2 send only side requests and end with the given `result` line (none when null).
function refuse(dir: string, isError: boolean, result: Record<string, unknown> | null = { errors: ["No conversation found with session ID: x"] }) {
  editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((l) => (l.kind === "request" && l.seq === 3 ? { ...l, stream: "side" } : l)));
  editJsonLines(dir, "sessions/s2/stdout.jsonl", (lines) => [
    ...lines.filter((l) => !String(l.raw).includes('"type":"result"')),
    ...(result === null ? [] : [{ t: (lines.at(-1)!.t as number) + 1, raw: JSON.stringify({ type: "result", subtype: "error_during_execution", is_error: isError, ...result }) }]),
  ]);
}

describe("resume-history-lost's check", () => {
  it("2.1.118, size=large: RED resume-refused — \"Failed to resume session: JSON Parse error\", no request sent", () => {
    const result = check(recordedRun("history-large-refused-2.1.118"), { size: "large" });
    expect(result.verdict).toBe("RED");
    expect(result.ids).toEqual(["resume-refused"]);
    expect(result.findings[0]).toMatchObject({
      red: true,
      title: "the resume was refused (error_during_execution: Failed to resume session: JSON Parse error: Unterminated string), though the transcript holds 4 messages",
      where: "session s2 result line 0",
    });
  });

  it("2.1.111, size=large: RED history-lost — the resumed request stops at the corrupt line", () => {
    const result = check(recordedRun("history-large-lost-2.1.111"), { size: "large" });
    expect(result.verdict).toBe("RED");
    expect(result.ids).toEqual(["history-lost"]);
    expect(result.findings[0]).toMatchObject({ red: true, title: 'the resumed request lacks the user message "CCREPRO_HIST_TWO_6N say two" (transcript line 104)', where: "request #3" });
    expect(result.notes?.[0]).toMatch(/: 4 messages before the resume; the resumed request starts from-one$/);
  });

  it("2.1.121, size=large: GREEN — the corrupt line is skipped, the four messages come back", () => {
    const result = check(recordedRun("history-large-kept-2.1.121"), { size: "large" });
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes?.[0]).toMatch(/: 4 messages before the resume; the resumed request starts from-one$/);
  });

  it("2.1.332 corrupt-line: GREEN — the bad line is skipped, the four messages held come back", () => {
    const dir = recordedRun(LINE);
    const result = check(dir);
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes).toEqual([`transcript ${transcriptOf(dir).where}: 4 messages before the resume; the resumed request starts from-one`]);
  });

  it("2.1.332 corrupt-row: GREEN — only the destroyed row's message is missing, and it is not held", () => {
    const dir = recordedRun(ROW);
    const result = check(dir, { damage: "corrupt-row" });
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes?.[0]).toContain(": 3 messages before the resume; the resumed request starts from-one");
  });

  it("RED history-lost, one finding per held message the resumed request lacks", () => {
    const dir = copyRun(recordedRun(LINE));
    editResumedBody(dir, (text) => text.replaceAll("CCREPRO_HIST_TWO_6N say two", "something else"));
    const result = check(dir);
    expect(result.verdict).toBe("RED");
    expect(result.ids).toEqual(["history-lost"]);
    expect(result.findings[0]).toMatchObject({ red: true, title: 'the resumed request lacks the user message "CCREPRO_HIST_TWO_6N say two" (transcript line 26)', where: "request #3" });
  });

  it("a held message found inside a longer text of the request counts as sent", () => {
    const dir = copyRun(recordedRun(LINE));
    editResumedBody(dir, (text) => text.replaceAll('"CCREPRO_HIST_TWO_6N say two"', '"CCREPRO_HIST_TWO_6N say two, and more"'));
    expect(check(dir)).toMatchObject({ verdict: "GREEN", ids: [] });
  });

  it("rows written after session 2 started are not required of its first request", () => {
    const dir = copyRun(recordedRun(LINE));
    editTranscript(dir, (text) => text.replace('"role":"user","content":"CCREPRO_HIST_THREE_6N say three"', '"role":"user","content":"CCREPRO_HIST_THREE_6N written later"'));
    expect(check(dir)).toMatchObject({ verdict: "GREEN", ids: [] });
  });

  it("RED resume-refused when the resume sent nothing and printed an error result", () => {
    const dir = copyRun(recordedRun(LINE));
    refuse(dir, true);
    const result = check(dir);
    expect(result.verdict).toBe("RED");
    expect(result.ids).toEqual(["resume-refused"]);
    expect(result.findings[0]!.title).toBe("the resume was refused (error_during_execution: No conversation found with session ID: x), though the transcript holds 4 messages");
    expect(result.findings[0]!.where).toMatch(/^session s2 result line \d+$/);
  });

  it("INCONCLUSIVE when the resume sent nothing and reported no error", () => {
    const dir = copyRun(recordedRun(LINE));
    refuse(dir, false);
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the resumed session sent no request and reported no error", findings: [] });
  });

  it("INCONCLUSIVE when the transcript holds no damaged line, unless damage=none", () => {
    const dir = copyRun(recordedRun(LINE));
    editTranscript(dir, (text) => text.replace('{"type":"user","message":{"role":"user","content":"cut off\n', ""));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the transcript holds no damaged line" });
    expect(check(dir, { damage: "none" })).toMatchObject({ verdict: "GREEN" });
  });

  it("INCONCLUSIVE when session 2 never started, or session 1 left no transcript", () => {
    const noS2 = copyRun(recordedRun(LINE));
    fs.rmSync(path.join(noS2, "sessions", "s2"), { recursive: true });
    expect(check(noS2)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session 1 left no transcript, or session 2 never started" });
    const noTranscript = copyRun(recordedRun(LINE));
    fs.rmSync(path.join(noTranscript, "transcripts"), { recursive: true });
    expect(check(noTranscript)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session 1 left no transcript, or session 2 never started" });
  });

  it("resume-refused names the result's text, else its first error, cut to 200 characters", () => {
    const withText = copyRun(recordedRun(LINE));
    refuse(withText, true, { result: "Session not found", errors: ["other"] });
    expect(check(withText).findings[0]!.title).toBe("the resume was refused (error_during_execution: Session not found), though the transcript holds 4 messages");
    const bare = copyRun(recordedRun(LINE));
    refuse(bare, true, {});
    expect(check(bare).findings[0]!.title).toBe("the resume was refused (error_during_execution: ), though the transcript holds 4 messages");
    const long = copyRun(recordedRun(LINE));
    refuse(long, true, { errors: ["e".repeat(300)] });
    expect(check(long).findings[0]!.title).toBe(`${"the resume was refused (error_during_execution: ".concat("e".repeat(300)).slice(0, 200)}, though the transcript holds 4 messages`);
  });

  it("INCONCLUSIVE when the resume sent nothing and printed no result at all", () => {
    const dir = copyRun(recordedRun(LINE));
    refuse(dir, true, null);
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the resumed session sent no request and reported no error" });
  });

  it("compares texts as the request's JSON holds them (quotes escaped), and names a lost message by its first 60 characters", () => {
    const quoted = copyRun(recordedRun(LINE));
    editTranscript(quoted, (text) => text.replace('"role":"user","content":"CCREPRO_HIST_TWO_6N say two"', '"role":"user","content":"CCREPRO_HIST_TWO_6N say \\"two\\""'));
    editResumedBody(quoted, (text) => text.replaceAll('"CCREPRO_HIST_TWO_6N say two"', '"CCREPRO_HIST_TWO_6N say \\"two\\""'));
    expect(check(quoted)).toMatchObject({ verdict: "GREEN", ids: [] });
    const long = copyRun(recordedRun(LINE));
    const text = `CCREPRO_HIST_TWO_6N ${"y".repeat(100)}`;
    editTranscript(long, (t) => t.replace('"role":"user","content":"CCREPRO_HIST_TWO_6N say two"', `"role":"user","content":"${text}"`));
    expect(check(long).findings[0]!.title).toBe(`the resumed request lacks the user message "${text.slice(0, 60)}" (transcript line 26)`);
  });

  it("a conversation row without a timestamp is not counted as held", () => {
    const dir = copyRun(recordedRun(LINE));
    editTranscript(dir, (text) =>
      text
        .split("\n")
        .map((line) => (line.includes('"role":"user","content":"CCREPRO_HIST_TWO_6N say two"') ? JSON.stringify({ ...JSON.parse(line), timestamp: undefined, message: { role: "user", content: "never sent" } }) : line))
        .join("\n"),
    );
    expect(check(dir)).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(check(dir).notes?.[0]).toContain(": 3 messages before the resume");
  });

  it("holds the rows written before session 2 started: one written at that very moment is not held", () => {
    const dir = copyRun(recordedRun(LINE));
    const before = check(dir).notes?.[0];
    expect(before).toMatch(/: 4 messages before the resume;/);
    const started = (JSON.parse(fs.readFileSync(path.join(dir, "sessions", "s2", "session.json"), "utf8")) as { startedAt: number }).startedAt;
    const held = conversationRows(loadTranscript(loadRecordings(dir), "s1")!).filter((row) => row.at !== null && row.at < started);
    const last = Math.max(...held.map((row) => row.at!));
    editFile(dir, "sessions/s2/session.json", (text) => text.replace(/"startedAt": [0-9.]+/, `"startedAt": ${last}`));
    expect(check(dir).notes?.[0]).toMatch(/: 3 messages before the resume;/);
  });
});
