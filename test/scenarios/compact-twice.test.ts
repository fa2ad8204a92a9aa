// compact-twice's check on runs recorded from real releases (test/fixtures/runs README), the two sides of a bisected
// boundary: 2.1.153 re-appends the rows the first /compact summarised (RED rows-reappended), 2.1.310 does not (GREEN);
// and edits of the 2.1.310 run that add one copy, one stale prompt or take one premise away.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editBody, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("compact-twice")!;
const check = (dir: string, params: Record<string, string> = {}) => {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id), red: result.findings.filter((f) => f.red).map((f) => f.id) };
};
const RED = "compact-twice-red-2.1.153";
const GREEN = "compact-twice-green-2.1.310";
const transcriptFile = (dir: string) => {
  const name = fs.readdirSync(path.join(dir, "transcripts", "-RUN-iso-work")).find((f) => f.endsWith(".jsonl") && !f.startsWith("agent-"))!;
  return { relative: path.join("transcripts", "-RUN-iso-work", name), where: `-RUN-iso-work/${name}` };
};
// Edits the transcript as a list of lines (line n is index n - 1).
const editLines = (dir: string, edit: (lines: string[]) => string[]) => editFile(dir, transcriptFile(dir).relative, (text) => edit(text.split("\n")).join("\n"));
const uuidOf = (line: string) => (JSON.parse(line) as { uuid: string }).uuid;
// Rows are numbered from 0 in the findings; below, lines from 1. In the 2.1.310 run: line 33 is "say first 2" (before the first boundary, line 42), line 82 the answer to "say second 2",
// line 84 the last row before the second boundary (line 87).
const green = () => {
  const dir = copyRun(recordedRun(GREEN));
  const lines = fs.readFileSync(path.join(dir, transcriptFile(dir).relative), "utf8").split("\n");
  expect(lines[32]).toContain("say first 2");
  expect(lines[41]).toContain('"subtype":"compact_boundary"');
  expect(lines[86]).toContain('"subtype":"compact_boundary"');
  return { dir, lines };
};
// Inserts copies of the given (1-based) lines after line `after`.
const insertCopies = (dir: string, lines: string[], after: number, copies: number[]) => editLines(dir, (current) => [...current.slice(0, after), ...copies.map((n) => lines[n - 1]!), ...current.slice(after)]);

describe("compact-twice's check", () => {
  it("2.1.153: RED rows-reappended — the second /compact writes again the 6 rows from before the first boundary", () => {
    const dir = recordedRun(RED);
    const result = check(dir);
    expect(result.verdict).toBe("RED");
    expect(result.ids).toEqual(["rows-reappended"]);
    const [f] = result.findings;
    expect(f).toMatchObject({ red: true, title: "the transcript holds again 6 row(s) (same uuid) the first compaction summarised", where: transcriptFile(dir).where });
    expect(f!.detail).toEqual([
      "line 36 repeats line 2: user f2d19ef6-3441-49ec-9cd9-70b819fc043f",
      "line 37 repeats line 3: attachment 676a5229-50c0-42aa-b722-c219837c8a0c",
      "line 38 repeats line 4: assistant 7f924efb-2856-4a35-b4c5-832d079019f1",
      "line 39 repeats line 7: user b4393fd5-199b-4998-9615-133da98923a0",
      "line 40 repeats line 8: assistant 34d6573e-30cf-42bf-a6ba-53517e6daa4a",
      "line 41 repeats line 11: user 00cea86c-fb4b-4340-bb8c-211d480c7c0e",
    ]);
    expect(result.notes).toEqual(["transcript: 52 rows, boundaries at lines 16 and 42; repeated uuids: 6 copied across the first boundary, 0 within a stretch", "request #9 after the second compaction: 3 messages"]);
  });

  it("2.1.310: GREEN — no row written twice, the request after the second compaction starts from the summary", () => {
    const result = check(recordedRun(GREEN));
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes).toEqual(["transcript: 114 rows, boundaries at lines 41 and 86; repeated uuids: 0 copied across the first boundary, 0 within a stretch", "request #9 after the second compaction: 3 messages"]);
  });

  it("a copy of the last turn just before a boundary, within its stretch: turn-rewritten, not red", () => {
    const { dir, lines } = green();
    insertCopies(dir, lines, 86, [82]);
    const result = check(dir);
    expect(result).toMatchObject({ verdict: "GREEN", ids: ["turn-rewritten"], red: [] });
    expect(result.findings[0]).toMatchObject({ title: "1 row(s) written again (same uuid) in the stretch they belong to, just before a boundary", detail: [`line 86 repeats line 81: assistant ${uuidOf(lines[81]!)}`] });
    expect(result.notes?.[0]).toContain("repeated uuids: 0 copied across the first boundary, 1 within a stretch");
  });

  it("a row from before the first boundary copied after it, alone: RED rows-reappended", () => {
    const { dir, lines } = green();
    insertCopies(dir, lines, 84, [33]);
    const result = check(dir);
    expect(result.red).toEqual(["rows-reappended"]);
    expect(result.findings[0]!.detail).toEqual([`line 84 repeats line 32: user ${uuidOf(lines[32]!)}`]);
  });

  it.each([
    ["the row, then the boundary", [33, 42], ["line 84 repeats line 32", "line 85 repeats line 41"], "41 and 85 and 88"],
    ["the boundary, then the row", [42, 33], ["line 84 repeats line 41", "line 85 repeats line 32"], "41 and 84 and 88"],
  ])("a rewritten stretch that holds a boundary copy (%s) is turn-rewritten, not the bug", (_label, copies, details, boundaries) => {
    const { dir, lines } = green();
    insertCopies(dir, lines, 84, copies);
    const result = check(dir);
    expect(result).toMatchObject({ verdict: "GREEN", ids: ["turn-rewritten"] });
    expect(result.findings[0]!.detail!.map((d) => d.split(":")[0])).toEqual(details);
    expect(result.notes?.[0]).toBe(`transcript: 116 rows, boundaries at lines ${boundaries}; repeated uuids: 0 copied across the first boundary, 2 within a stretch`);
  });

  it("a copied row and a boundary copy apart (a row between them) are two findings: the row is the bug", () => {
    const { dir, lines } = green();
    insertCopies(dir, lines, 84, [33]);
    editLines(dir, (current) => [...current.slice(0, 99), lines[41]!, ...current.slice(99)]);
    const result = check(dir);
    expect(result.verdict).toBe("RED");
    expect(result.ids).toEqual(["rows-reappended", "turn-rewritten"]);
    expect(result.findings[0]!.detail).toEqual([`line 84 repeats line 32: user ${uuidOf(lines[32]!)}`]);
    expect(result.findings[1]!.detail).toEqual([`line 99 repeats line 41: system ${uuidOf(lines[41]!)}`]);
  });

  it("lists at most 12 copies in a finding's detail", () => {
    const { dir, lines } = green();
    insertCopies(dir, lines, 84, [3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 20, 21, 26]);
    const result = check(dir);
    expect(result.findings[0]).toMatchObject({ id: "rows-reappended", title: "the transcript holds again 14 row(s) (same uuid) the first compaction summarised" });
    expect(result.findings[0]!.detail).toHaveLength(12);
  });

  it("RED request-carries-summarised when the request after the second compaction carries a prompt from before the first", () => {
    const dir = copyRun(recordedRun(GREEN));
    editBody(dir, 9, (body) => body.messages.unshift({ role: "user", content: "say first 1" }, { role: "assistant", content: "a word" }));
    const result = check(dir);
    expect(result.red).toEqual(["request-carries-summarised"]);
    expect(result.findings[0]).toMatchObject({ title: "the request after the second compaction carries prompts the first compaction replaced (say first 1)", where: "request #9" });
    expect(result.notes?.[1]).toBe("request #9 after the second compaction: 5 messages");
    // The prompts looked for are the `turns` sent before the first /compact: with one, "say first 1" was never one.
    expect(check(dir, { turns: "1" }).ids).toEqual([]);
    expect(check(dir, { turns: "2" }).ids).toEqual(["request-carries-summarised"]);
  });

  it("INCONCLUSIVE with only one boundary", () => {
    const { dir } = green();
    editLines(dir, (current) => current.filter((_, i) => i !== 86));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session 1's transcript holds 1 compaction boundaries and 2 summaries, not 2 of each (did each /compact compact?)" });
  });

  it("INCONCLUSIVE with only one summary row, and a summary only in a row that is not a user row does not count", () => {
    const { dir } = green();
    editLines(dir, (current) => current.map((line, i) => (i === 87 ? line.replace('"type":"user"', '"type":"assistant"') : line)));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session 1's transcript holds 2 compaction boundaries and 1 summaries, not 2 of each (did each /compact compact?)" });
  });

  it("INCONCLUSIVE when a boundary row is not a system row", () => {
    const { dir } = green();
    editLines(dir, (current) => current.map((line, i) => (i === 41 ? line.replace('"type":"system"', '"type":"attachment"') : line)));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session 1's transcript holds 1 compaction boundaries and 2 summaries, not 2 of each (did each /compact compact?)" });
  });

  it("INCONCLUSIVE when no request after the second compaction carried the last prompt", () => {
    const dir = copyRun(recordedRun(GREEN));
    editFile(dir, "mock/requests/000009.body", (text) => text.replaceAll("say last", "say else"));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "no request after the second compaction carried the last prompt" });
  });

  it("INCONCLUSIVE when no request was of the compacted conversation", () => {
    const dir = copyRun(recordedRun(GREEN));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((l) => (l.kind === "request" && l.stream === "compacted" ? { ...l, stream: "main" } : l)));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "no request after the second compaction carried the last prompt" });
  });

  it("takes the last compacted request: an earlier one with the last prompt does not count", () => {
    const dir = copyRun(recordedRun(GREEN));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.filter((l) => !(l.kind === "request" && l.seq === 9)));
    // #9 gone, the last compacted request is an earlier one (its body was not kept): not reached.
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "no request after the second compaction carried the last prompt" });
  });

  it("INCONCLUSIVE when session 1 left no transcript", () => {
    const dir = copyRun(recordedRun(GREEN));
    fs.rmSync(path.join(dir, "transcripts"), { recursive: true });
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session 1's transcript holds 0 compaction boundaries and 0 summaries, not 2 of each (did each /compact compact?)" });
  });

  it("a system row that is not a compaction boundary is not counted as one", () => {
    const { dir } = green();
    editLines(dir, (current) => current.map((line, i) => (i === 86 ? line.replace('"subtype":"compact_boundary"', '"subtype":"informational"') : line)));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session 1's transcript holds 1 compaction boundaries and 2 summaries, not 2 of each (did each /compact compact?)" });
  });

  it("only a copied boundary marks a rewritten stretch: a copied system row of another kind beside the copied row does not", () => {
    const { dir, lines } = green();
    insertCopies(dir, lines, 84, [33]);
    editLines(dir, (current) => [...current.slice(0, 85), lines[41]!.replace('"subtype":"compact_boundary"', '"subtype":"informational"'), ...current.slice(85)]);
    const result = check(dir);
    expect(result.red).toEqual(["rows-reappended"]);
    expect(result.findings[0]!.detail).toEqual([`line 84 repeats line 32: user ${uuidOf(lines[32]!)}`]);
  });

  it("a boundary copy earlier in the file, apart from the copied row, does not make the row's copy a rewrite", () => {
    const { dir, lines } = green();
    insertCopies(dir, lines, 84, [33]);
    editLines(dir, (current) => [...current.slice(0, 60), lines[41]!, ...current.slice(60)]);
    const result = check(dir);
    expect(result.ids).toEqual(["rows-reappended", "turn-rewritten"]);
    expect(result.findings[0]!.detail).toEqual([`line 85 repeats line 32: user ${uuidOf(lines[32]!)}`]);
  });

  it("a row copied before the first boundary, within its own stretch, is turn-rewritten, not the bug", () => {
    const { dir, lines } = green();
    insertCopies(dir, lines, 40, [33]);
    const result = check(dir);
    expect(result).toMatchObject({ verdict: "GREEN", ids: ["turn-rewritten"] });
    expect(result.findings[0]!.detail).toEqual([`line 40 repeats line 32: user ${uuidOf(lines[32]!)}`]);
    // turn-rewritten names the transcript's file, as rows-reappended does.
    expect(result.findings[0]!.where).toBe(transcriptFile(dir).where);
  });

  // Mutants of the check read and left (the whole mutation run, 2026-12-06), equivalent for every run a release makes:
  // - `view?.rows ?? []` made `["Stryker was here"]`: with no transcript no row is a boundary or a summary either way,
  //   and the reason is the same ("0 compaction boundaries and 0 summaries").
  // - `row.json?.subtype` and `r.json?.subtype` without `?.`, and `r.type === "system" &&` made `true &&`: a row's type
  //   is read from its JSON, so a system row always has JSON, and only system rows carry subtype compact_boundary.
  // - `view?.path ?? "the transcript"` (and its fallback strings, never reached): the findings come after the premise
  //   that the transcript has two boundaries, so the view and its path are there.
  // - `requestsOf(rec, { session: s1 })` made `{}`: the scenario has one session.
  // - `r.line > cut` made `>=`: the row on line `cut` is the first boundary; a copy there would repeat an earlier
  //   boundary, which would then be the first.

  it("request-carries-summarised lists every stale prompt it found", () => {
    const dir = copyRun(recordedRun(GREEN));
    editBody(dir, 9, (body) => body.messages.unshift({ role: "user", content: "say first 1 and say first 2" }, { role: "assistant", content: "a word" }));
    expect(check(dir).findings[0]!.title).toBe("the request after the second compaction carries prompts the first compaction replaced (say first 1, say first 2)");
  });
});
