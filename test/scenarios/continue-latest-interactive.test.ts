// continue-latest-interactive's check on runs recorded from real releases beside the ones its end-to-end test runs
// (test/fixtures/runs/README.md): 2.1.89, the last whose UI continues a `-p` session, and 2.1.90, whose UI finds
// nothing and exits; and on edits of them that change which conversation the UI carried on, or how it ended.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editBody, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("continue-latest-interactive")!;
const check = (dir: string) => {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse({}));
  return { ...result, ids: result.findings.map((f) => f.id) };
};

const GREEN = "continue-ui-green-2.1.89";
const RED = "continue-ui-red-2.1.90";
// The session ids (transcripts) of the recorded runs.
const [FIRST_89, SECOND_89] = ["7feb1ee7-1787-494b-9068-8597ba222dd2", "2c87c309-d1d3-4e0f-9249-bc315204eb6b"];
const [FIRST_90, SECOND_90] = ["c00084a6-f746-4cac-a5d3-d1aa929281c3", "0eecb49f-9aa6-4659-8e31-df17544376e6"];
const transcript = (id: string) => `transcripts/-RUN-iso-work/${id}.jsonl`;
const ids89 = `session ids: first ${FIRST_89}, second ${SECOND_89}`;
// The UI's request (#3) said to carry another conversation than it did.
const streamOf3 = (stream: string) => (lines: Record<string, unknown>[]) => lines.map((line) => (line.seq === 3 && line.kind === "request" ? { ...line, stream } : line));
const uiSession = (dir: string, edit: (s: Record<string, unknown>) => void) =>
  editFile(dir, "sessions/ui/session.json", (text) => {
    const s = JSON.parse(text) as Record<string, unknown>;
    edit(s);
    return JSON.stringify(s);
  });

describe("continue-latest-interactive's check", () => {
  it("2.1.89: GREEN, the UI's request #3 carries the second session's turn, the typed prompt in its transcript", () => {
    const result = check(recordedRun(GREEN));
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes).toEqual([`${ids89}; the typed prompt's transcript ${SECOND_89} (the second's)`]);
  });

  it("2.1.90: RED continued-nothing, the UI exited 1 before its prompt with both transcripts on disk", () => {
    const result = check(recordedRun(RED));
    expect(result).toMatchObject({ verdict: "RED", ids: ["continued-nothing"], notes: [`session ids: first ${FIRST_90}, second ${SECOND_90}`] });
    expect(result.findings[0]).toMatchObject({
      red: true,
      where: "the UI (pid 2081) exited 1 before its prompt",
      title: "--continue found no conversation to continue and the UI exited, while both earlier transcripts are on disk",
    });
  });

  it("is RED continued-wrong-session when the UI's request is the first conversation's", () => {
    const dir = copyRun(recordedRun(GREEN));
    editJsonLines(dir, "mock/index.jsonl", streamOf3("first"));
    const result = check(dir);
    expect(result).toMatchObject({ verdict: "RED", ids: ["continued-wrong-session"] });
    expect(result.findings[0]).toMatchObject({
      where: `request #3 (transcript ${SECOND_89})`,
      title: `--continue carried on the older conversation (${FIRST_89}), not the most recent one (${SECOND_89})`,
    });
  });

  it("is RED continued-nothing when the UI's request holds only the typed prompt", () => {
    const dir = copyRun(recordedRun(GREEN));
    editJsonLines(dir, "mock/index.jsonl", streamOf3("fresh"));
    const result = check(dir);
    expect(result).toMatchObject({ verdict: "RED", ids: ["continued-nothing"] });
    expect(result.findings[0]!.title).toBe('--continue started a new conversation: its first request holds only the new prompt, not "CCREPRO_UICONT_SECOND_5K say two"');
  });

  it.each([
    [2, ["history-missing"]],
    [3, []],
  ])("with %i messages in the UI's request: %j", (count, expected) => {
    const dir = copyRun(recordedRun(GREEN));
    editBody(dir, 3, (body) => {
      body.messages = body.messages.slice(-count);
    });
    const result = check(dir);
    expect(result.ids).toEqual(expected);
    if (expected.length > 0) expect(result.findings[0]!.title).toBe(`the continued request has ${count} messages, not the earlier turn and the new prompt`);
  });

  it("names the transcript the typed prompt landed in: the first's, a new one, or none", () => {
    const first = copyRun(recordedRun(GREEN));
    editFile(first, transcript(SECOND_89), (text) => text.replaceAll("CCREPRO_UICONT_THIRD_5K", "elsewhere"));
    editFile(first, transcript(FIRST_89), (text) => text.replaceAll("CCREPRO_UICONT_FIRST_5K say one", "CCREPRO_UICONT_FIRST_5K say one CCREPRO_UICONT_THIRD_5K"));
    expect(check(first).notes).toEqual([`${ids89}; the typed prompt's transcript ${FIRST_89} (the first's)`]);

    const fresh = copyRun(recordedRun(GREEN));
    const typed = fs.readFileSync(path.join(fresh, transcript(SECOND_89)), "utf8").split("\n").filter((line) => line.includes("CCREPRO_UICONT_THIRD_5K"));
    fs.writeFileSync(path.join(fresh, transcript("00000000-0000-0000-0000-000000000000")), typed.join("\n") + "\n");
    expect(check(fresh).notes).toEqual([`${ids89}; the typed prompt's transcript 00000000-0000-0000-0000-000000000000 (a new one)`]);

    const none = copyRun(recordedRun(GREEN));
    editFile(none, transcript(SECOND_89), (text) => text.replaceAll("CCREPRO_UICONT_THIRD_5K", "elsewhere"));
    const result = check(none);
    expect(result.notes).toEqual([`${ids89}; the typed prompt's transcript - (none holds it)`]);
    expect(result.verdict).toBe("GREEN");
  });

  it("says 'transcript none' where the typed prompt is in no transcript", () => {
    const dir = copyRun(recordedRun(GREEN));
    editJsonLines(dir, "mock/index.jsonl", streamOf3("fresh"));
    editFile(dir, transcript(SECOND_89), (text) => text.replaceAll("CCREPRO_UICONT_THIRD_5K", "elsewhere"));
    expect(check(dir).findings[0]!.where).toBe("request #3 (transcript none)");
  });

  it.each([FIRST_89, SECOND_89])("is INCONCLUSIVE when the transcript %s of an earlier session is missing", (id) => {
    const dir = copyRun(recordedRun(GREEN));
    fs.rmSync(path.join(dir, transcript(id)));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "an earlier session left no transcript holding its prompt", ids: [] });
  });

  it("is INCONCLUSIVE when the UI's request was never answered (and the UI did not exit non-zero before it)", () => {
    const dir = copyRun(recordedRun(GREEN));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.filter((line) => !(line.seq === 3 && line.kind === "response-end")));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the UI sent no main-loop request for the typed prompt", ids: [] });
  });

  it("is INCONCLUSIVE, not RED, when the UI sent a side request before it exited", () => {
    const dir = copyRun(recordedRun(RED));
    editJsonLines(dir, "mock/index.jsonl", (lines) => [
      ...lines,
      { ...lines[0]!, seq: 3, stream: "side", client: { ...(lines[0]!.client as object), pid: 2081 } },
    ]);
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the UI sent no main-loop request for the typed prompt", ids: [] });
  });

  it.each([
    ["exited 0", (s: Record<string, unknown>) => (s.exitCode = 0)],
    ["never ended", (s: Record<string, unknown>) => (s.endedAt = null)],
  ])("is INCONCLUSIVE, not RED, when the UI %s without a request", (_how, edit) => {
    const dir = copyRun(recordedRun(RED));
    uiSession(dir, edit);
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the UI sent no main-loop request for the typed prompt", ids: [] });
  });

  it("RED continued-nothing for a UI without a pid that exited 1 before its prompt, saying so", () => {
    const dir = copyRun(recordedRun(RED));
    uiSession(dir, (s) => (s.pid = null));
    expect(check(dir)).toMatchObject({ verdict: "RED", ids: ["continued-nothing"], findings: [{ where: "the UI (pid -) exited 1 before its prompt" }] });
  });

  it("is INCONCLUSIVE for a UI killed by a signal with no request: the harness kills a UI still waiting at the run's end", () => {
    // 1.0.5 sat at a "Missing API key" prompt until the run's wait ran out and its end killed the UI.
    const dir = copyRun(recordedRun(RED));
    uiSession(dir, (s) => ((s.exitCode = null), (s.signal = "SIGKILL")));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", ids: [] });
  });

  it("is INCONCLUSIVE, without throwing, when the UI session was never recorded at all", () => {
    const dir = copyRun(recordedRun(GREEN));
    fs.rmSync(path.join(dir, "sessions", "ui"), { recursive: true });
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the UI sent no main-loop request for the typed prompt", ids: [] });
  });

  it("is INCONCLUSIVE when the UI's process was never recorded", () => {
    const dir = copyRun(recordedRun(RED));
    fs.rmSync(path.join(dir, "sessions", "ui", "session.json"));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", ids: [] });
  });
});
