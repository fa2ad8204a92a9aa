// continue-latest's check on recorded runs of the releases beside the ones its end-to-end test runs (2.1.89, the last
// that continued a `-p` session, and 2.1.100, the last that did not; test/fixtures/runs/README.md says how), and on
// edits of them that change which conversation the continued request carries.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editBody, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("continue-latest")!;
const check = (dir: string) => scenario.check(loadRecordings(dir), scenario.params.parse({}));
const ids = (dir: string) => check(dir).findings.map((f) => f.id);

describe("continue-latest's check", () => {
  it("2.1.89: GREEN, the continued request carries the second session's turn and keeps its id", () => {
    const result = check(recordedRun("continue-green-2.1.89"));
    expect(result.verdict).toBe("GREEN");
    expect(result.notes.join("\n")).toMatch(/\(the second's\)/);
  });

  it("2.1.100: RED continued-nothing, the continued request holds only the new prompt", () => {
    const result = check(recordedRun("continue-red-2.1.100"));
    expect(result).toMatchObject({ verdict: "RED" });
    expect(result.findings.map((f) => f.id)).toEqual(["continued-nothing"]);
    expect(result.findings[0]!.where).toMatch(/^request #3 /);
  });

  it("2.0.26: RED history-missing, the continued request carries the subagent's Warmup exchange, not the second's turn", () => {
    // The mock routed it as a side request (its first prompt is no conversation's marker); it ends with the new prompt
    // and offers tools, so it is the main loop's.
    const result = check(recordedRun("continue-warmup-2.0.26"));
    expect(result).toMatchObject({ verdict: "RED" });
    expect(result.findings.map((f) => [f.id, f.where])).toEqual([["history-missing", expect.stringMatching(/^request #9 /)]]);
    expect(result.findings[0]!.title).toMatch(/it opens with "Warmup"/);
  });

  it("does not take a side request that quotes the new prompt but offers no tools for the main loop", () => {
    const dir = copyRun(recordedRun("continue-warmup-2.0.26"));
    editBody(dir, 9, (body) => void delete body["tools"]);
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", findings: [] });
  });

  it("is RED continued-wrong-session when the continued request is the first conversation's", () => {
    const dir = copyRun(recordedRun("continue-green-2.1.89"));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((line) => (line.seq === 3 && line.kind === "request" ? { ...line, stream: "first" } : line)));
    expect(ids(dir)).toEqual(["continued-wrong-session"]);
  });

  it("is INCONCLUSIVE when the continued session sent only side requests", () => {
    const dir = copyRun(recordedRun("continue-red-2.1.100"));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((line) => (line.seq === 3 && line.kind === "request" ? { ...line, stream: "side" } : line)));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", findings: [] });
  });

  const GREEN_IDS = { first: "e6b7e57a-c157-4645-aaed-2ff92d847d8e", second: "d6433439-5371-4bf0-871c-a38bedfb100a" };
  // The continued session's init line says another session id.
  const continuedAs = (dir: string, id: string) =>
    editJsonLines(dir, "sessions/continued/stdout.jsonl", (lines) => lines.map((line) => ({ ...line, raw: (line.raw as string).replaceAll(GREEN_IDS.second, id) })));

  it("2.1.89: the notes name the three session ids", () => {
    expect(check(recordedRun("continue-green-2.1.89")).notes).toEqual([
      `session ids: first ${GREEN_IDS.first}, second ${GREEN_IDS.second}, continued ${GREEN_IDS.second} (the second's)`,
    ]);
  });

  it("2.1.100: the finding says what the request held, and the notes that the id is a new one", () => {
    const result = check(recordedRun("continue-red-2.1.100"));
    expect(result.findings[0]).toMatchObject({
      red: true,
      title: '--continue started a new conversation: its first request holds only the new prompt, not "CCREPRO_CONT_SECOND_4T say two"',
      where: "request #3 (session id ec2cb241-251e-4fef-ba19-c190fa4e42ac)",
    });
    expect(result.notes[0]).toMatch(/, continued ec2cb241-251e-4fef-ba19-c190fa4e42ac \(a new one\)$/);
  });

  it("names the older session in continued-wrong-session, and a continued id equal to the first's", () => {
    const dir = copyRun(recordedRun("continue-green-2.1.89"));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((line) => (line.seq === 3 && line.kind === "request" ? { ...line, stream: "first" } : line)));
    continuedAs(dir, GREEN_IDS.first);
    const result = check(dir);
    expect(result.findings[0]).toMatchObject({
      title: `--continue carried on the older conversation (${GREEN_IDS.first}), not the most recent one (${GREEN_IDS.second})`,
      where: `request #3 (session id ${GREEN_IDS.first})`,
    });
    expect(result.notes[0]).toMatch(/\(the first's\)$/);
  });

  it.each([
    [2, ["history-missing"]],
    [3, []],
  ])("with %i messages in the continued request: %j", (count, expected) => {
    const dir = copyRun(recordedRun("continue-green-2.1.89"));
    editBody(dir, 3, (body) => {
      body.messages = body.messages.slice(-count);
    });
    const result = check(dir);
    expect(result.findings.map((f) => f.id)).toEqual(expected);
    if (expected.length > 0) expect(result.findings[0]!.title).toBe(`the continued request has ${count} messages, not the earlier turn and the new prompt`);
  });

  it.each(["first", "second", "continued"])("is INCONCLUSIVE when session %s printed no system/init line", (label) => {
    const dir = copyRun(recordedRun("continue-green-2.1.89"));
    editJsonLines(dir, `sessions/${label}/stdout.jsonl`, (lines) => lines.filter((line) => !(line.raw as string).includes('"subtype":"init"')));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "a session printed no system/init line", findings: [] });
  });

  it("is INCONCLUSIVE, with the reason, when the continued session sent no main-loop request", () => {
    const dir = copyRun(recordedRun("continue-red-2.1.100"));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((line) => (line.seq === 3 && line.kind === "request" ? { ...line, stream: "side" } : line)));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the continued session sent no main-loop request" });
  });
});
