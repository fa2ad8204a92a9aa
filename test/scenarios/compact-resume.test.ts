// compact-resume's check on runs recorded from real releases (test/fixtures/runs README): 2.1.332 headless (`-p`
// stream-json, `/compact` on stdin, `--resume`) and 2.0.72 in the interactive UI (#14462's trigger: `/compact`, Ctrl-C
// twice, a second UI `--resume`s it), both GREEN; RED and INCONCLUSIVE from edits of them that change one fact.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("compact-resume")!;
const check = (dir: string) => {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse({}));
  return { ...result, ids: result.findings.map((f) => f.id) };
};
const HEADLESS = "compact-resume-green-2.1.332";
const UI = "compact-resume-ui-green-2.0.72";
const transcript = (dir: string) => {
  const files = fs.readdirSync(path.join(dir, "transcripts", "-RUN-iso-work"));
  return `transcripts/-RUN-iso-work/${files.find((f) => !f.startsWith("agent-"))!}`;
};
// Sets the stream the mock recorded for the resumed session's (s2's) conversation request.
const restream = (dir: string, seq: number, stream: string) =>
  editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((l) => (l.kind === "request" && l.seq === seq ? { ...l, stream } : l)));

describe("compact-resume's check", () => {
  it("2.1.332 headless: GREEN, the resumed request starts from the summary (1 message)", () => {
    const result = check(recordedRun(HEADLESS));
    expect(result).toMatchObject({ verdict: "GREEN", ids: [], notes: ["resumed request #3: compacted, 1 messages"] });
  });

  it("2.0.72 in the UI (session id given by the scenario): GREEN, the resumed request starts from the summary (3 messages)", () => {
    const result = check(recordedRun(UI));
    expect(result).toMatchObject({ verdict: "GREEN", ids: [], notes: ["resumed request #13: compacted, 3 messages"] });
  });

  it.each([HEADLESS, UI])("%s edited so the resumed request is the old history's: RED compaction-lost", (name) => {
    const dir = copyRun(recordedRun(name));
    const seq = name === HEADLESS ? 3 : 13;
    restream(dir, seq, "main");
    const result = check(dir);
    expect(result.verdict).toBe("RED");
    expect(result.ids).toEqual(["compaction-lost"]);
    const messages = name === HEADLESS ? 1 : 3;
    expect(result.findings[0]).toMatchObject({
      red: true,
      title: `the resumed request carries the history /compact replaced ("CCREPRO_COMPACT_FIRST_5H say one", ${messages} messages), not the summary`,
      where: `request #${seq}`,
    });
    expect(result.notes).toEqual([`resumed request #${seq}: main, ${messages} messages`]);
  });

  it("is INCONCLUSIVE when the resumed session sent no request of the conversation (only side requests)", () => {
    const dir = copyRun(recordedRun(HEADLESS));
    restream(dir, 3, "side");
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the resumed session sent no request of the conversation", findings: [] });
  });

  it("takes the resumed session's first conversation request, not session 1's", () => {
    // Session 1's requests (#1, #2) are main; only s2's #3 counts.
    const result = check(recordedRun(HEADLESS));
    expect(result.notes?.[0]).toMatch(/^resumed request #3:/);
  });

  it.each([HEADLESS, UI])("%s: INCONCLUSIVE when session 1's transcript holds no summary row", (name) => {
    const dir = copyRun(recordedRun(name));
    editFile(dir, transcript(dir), (text) => text.replaceAll("CCREPRO_COMPACT_SUMMARY_5H", "SOMETHING_ELSE"));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session 1's transcript holds no compaction summary (was /compact run?)", findings: [] });
  });

  it("INCONCLUSIVE when the summary is only in a row that is not a user row", () => {
    const dir = copyRun(recordedRun(HEADLESS));
    editFile(dir, transcript(dir), (text) =>
      text
        .split("\n")
        .map((line) => (line.includes("CCREPRO_COMPACT_SUMMARY_5H") && line.includes('"type":"user"') ? line.replace('"type":"user"', '"type":"assistant"') : line))
        .join("\n"),
    );
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session 1's transcript holds no compaction summary (was /compact run?)" });
  });

  it("the UI run: INCONCLUSIVE when no transcript is named by the scenario's session id", () => {
    const dir = copyRun(recordedRun(UI));
    const file = path.join(dir, transcript(dir));
    fs.renameSync(file, file.replace("5a1c0e2d-7b3f-4c8e-9d1a-2f6e8b4c0d7a", "00000000-0000-4000-8000-000000000000"));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session 1's transcript holds no compaction summary (was /compact run?)" });
  });
});
