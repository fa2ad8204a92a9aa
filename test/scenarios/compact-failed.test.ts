// compact-failed's check on a run recorded from a real release (test/fixtures/runs README): 2.1.332, every summary
// request of `/compact` answered 400 "prompt is too long", and the conversation kept (GREEN); RED and INCONCLUSIVE from
// edits of that run that change one fact the check reads.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("compact-failed")!;
const check = (dir: string, params: Record<string, string> = {}) => {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id) };
};
const GREEN = "compact-failed-green-2.1.332";
const fresh = () => copyRun(recordedRun(GREEN));
const transcript = (dir: string) => {
  const name = fs.readdirSync(path.join(dir, "transcripts", "-RUN-iso-work")).find((f) => f.endsWith(".jsonl") && !f.startsWith("agent-"))!;
  return path.join("transcripts", "-RUN-iso-work", name);
};
// Inserts rows into the transcript after line index `after` (0-based, as the check numbers rows).
const insertRows = (dir: string, after: number, rows: object[]) =>
  editFile(dir, transcript(dir), (text) => {
    const lines = text.split("\n");
    return [...lines.slice(0, after + 1), ...rows.map((r) => JSON.stringify(r)), ...lines.slice(after + 1)].join("\n");
  });
const BOUNDARY = { type: "system", subtype: "compact_boundary", uuid: "b0000000-0000-4000-8000-000000000001", content: "Conversation compacted" };
const SUMMARY_ROW = { type: "user", uuid: "b0000000-0000-4000-8000-000000000002", isCompactSummary: true, message: { role: "user", content: "API Error: 400 prompt is too long" } };
const restream = (dir: string, edit: (l: Record<string, unknown>) => Record<string, unknown>) => editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((l) => (l.kind === "request" ? edit(l) : l)));

describe("compact-failed's check", () => {
  it("2.1.332, fault 400-too-long: GREEN — five summary requests, each 400; no boundary, no summary row; the next request keeps the first prompt", () => {
    const result = check(recordedRun(GREEN));
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes).toEqual(["fault 400-too-long: 5 summary request(s) (#4, #5, #6, #7, #8), each http-error 400", "request #9 after it: 7 messages, first prompt kept"]);
    expect(check(recordedRun(GREEN), { fault: "500" }).notes?.[0]).toMatch(/^fault 500: /);
  });

  it("RED error-became-summary when the transcript records a boundary and a summary row though no summary was served", () => {
    const dir = fresh();
    insertRows(dir, 39, [BOUNDARY, SUMMARY_ROW]);
    const result = check(dir);
    expect(result.verdict).toBe("RED");
    expect(result.ids).toEqual(["error-became-summary"]);
    expect(result.findings[0]).toMatchObject({
      red: true,
      title: "no summary was served, yet the transcript records a compaction (1 boundary row(s), 1 summary row(s))",
      where: "transcript line 40",
      detail: ["line 41: API Error: 400 prompt is too long"],
    });
  });

  it("RED error-became-summary on a summary row alone, located at that row", () => {
    const dir = fresh();
    insertRows(dir, 40, [SUMMARY_ROW]);
    expect(check(dir).findings[0]).toMatchObject({ id: "error-became-summary", title: "no summary was served, yet the transcript records a compaction (0 boundary row(s), 1 summary row(s))", where: "transcript line 41" });
  });

  it("RED error-became-summary on a boundary row alone; a compact_boundary that is not a system row, or a row not flagged as summary, does not count", () => {
    const dir = fresh();
    insertRows(dir, 39, [BOUNDARY]);
    expect(check(dir).findings[0]).toMatchObject({ id: "error-became-summary", title: "no summary was served, yet the transcript records a compaction (1 boundary row(s), 0 summary row(s))", where: "transcript line 40", detail: [] });
    const other = fresh();
    insertRows(other, 39, [{ ...BOUNDARY, type: "attachment" }, { ...BOUNDARY, subtype: "local_command" }, { ...SUMMARY_ROW, isCompactSummary: "yes" }]);
    expect(check(other)).toMatchObject({ verdict: "GREEN", ids: [] });
  });

  it("RED history-lost when the request after the failed compaction no longer carries the first prompt", () => {
    const dir = fresh();
    editFile(dir, "mock/requests/000009.body", (text) => text.replaceAll("CCREPRO_FAILCOMPACT_7M", "GONE"));
    const result = check(dir);
    expect(result.verdict).toBe("RED");
    expect(result.ids).toEqual(["history-lost"]);
    expect(result.findings[0]).toMatchObject({ red: true, title: "the request after the failed compaction no longer carries the first prompt (7 messages)", where: "request #9" });
    expect(result.notes?.[1]).toBe("request #9 after it: 7 messages, first prompt gone");
  });

  it("INCONCLUSIVE when /compact made no summary request", () => {
    const dir = fresh();
    restream(dir, (l) => (l.stream === "summary" ? { ...l, stream: "side" } : l));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "/compact made no summary request", findings: [] });
  });

  it("INCONCLUSIVE when one summary request was answered without the fault", () => {
    const dir = fresh();
    restream(dir, (l) => (l.seq === 6 ? { ...l, reply: { ...(l.reply as object), fault: null } } : l));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "a summary request was answered without the fault" });
  });

  it("INCONCLUSIVE when no request carried the prompt sent after the compaction; a summary request that carries it does not count", () => {
    const dir = fresh();
    editFile(dir, "mock/requests/000009.body", (text) => text.replaceAll("say after", "say else"));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "no request carried the prompt sent after the failed compaction" });
    const summaryOnly = fresh();
    restream(summaryOnly, (l) => (l.seq === 9 ? { ...l, stream: "summary", reply: { ...(l.reply as object), fault: "http-error 400" } } : l));
    expect(check(summaryOnly)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "no request carried the prompt sent after the failed compaction" });
  });

  it("cuts a summary row's text to 200 characters in the finding's detail", () => {
    const dir = fresh();
    insertRows(dir, 40, [{ ...SUMMARY_ROW, message: { role: "user", content: `API Error: ${"x".repeat(300)}` } }]);
    expect(check(dir).findings[0]!.detail).toEqual([`line 41: API Error: ${"x".repeat(189)}`]);
  });

  it("without a transcript, judges from the requests alone", () => {
    const dir = fresh();
    fs.rmSync(path.join(dir, "transcripts"), { recursive: true });
    expect(check(dir)).toMatchObject({ verdict: "GREEN", ids: [] });
  });

  it("only session 1's requests count: one from no session of the run that carries the later prompt is not taken", () => {
    const dir = fresh();
    fs.copyFileSync(path.join(dir, "mock", "requests", "000009.body"), path.join(dir, "mock", "requests", "000100.body"));
    editFile(dir, "mock/requests/000009.body", (text) => text.replaceAll("say after", "say else"));
    editJsonLines(dir, "mock/index.jsonl", (lines) => {
      const nine = lines.find((l) => l.kind === "request" && l.seq === 9)!;
      return [...lines, { ...nine, seq: 100, bodyFile: "requests/000100.body", client: { ...(nine.client as object), pid: 1 } }];
    });
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "no request carried the prompt sent after the failed compaction" });
  });
});
