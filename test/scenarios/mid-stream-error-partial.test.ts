// mid-stream-error-partial's check on recorded runs (test/fixtures/runs/README.md), with a text block streamed before the
// overloaded_error event: 2.1.198 keeps the partial in its transcript with no incomplete notice, 2.1.245 keeps it with
// the notice, 2.1.246 resumes the cut reply itself. The RED findings and the INCONCLUSIVE branches on edited copies.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editBody, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("mid-stream-error-partial")!;
const PARTIAL = "PARTIAL_OUTPUT_KEPT_9X";

function check(dir: string, params: Record<string, unknown> = { partial: "text" }) {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id), reds: result.findings.filter((f) => f.red).map((f) => f.id) };
}
const fixture = (name: string) => recordedRun(name);
// The one transcript file of a copied run.
function transcriptFile(dir: string): string {
  const project = path.join(dir, "transcripts", "-RUN-iso-work");
  return path.join("transcripts", "-RUN-iso-work", fs.readdirSync(project)[0]!);
}
type Row = Record<string, unknown> & { message?: { content?: unknown } };

describe("mid-stream-error-partial's check on the recorded runs (partial=text)", () => {
  it("2.1.198: GREEN, the partial is kept; informational: not resumed, and no incomplete notice", () => {
    const r = check(fixture("partial-unmarked-2.1.198"));
    expect(r.verdict).toBe("GREEN");
    expect(r.ids).toEqual(["cut-reply-not-resumed", "incomplete-notice-missing"]);
    expect(r.reds).toEqual([]);
    expect(r.findings[0]!.where).toBe("request #1 (error after 1 blocks) → no later request");
    expect(r.findings[1]!.where).toBe('line 6: API Error: Overloaded');
    expect(r.notes).toEqual([
      "error after partial output on #1; later: none",
      'transcript: partial in 1 assistant row(s); error rows: "API Error: Overloaded"',
      "api_retry: none; tool ran 0×; result success; exit 1",
    ]);
  });

  it("2.1.245: GREEN, the partial is kept with the incomplete notice; informational: not resumed", () => {
    const r = check(fixture("partial-not-resumed-2.1.245"));
    expect(r.verdict).toBe("GREEN");
    expect(r.ids).toEqual(["cut-reply-not-resumed"]);
    expect(r.findings[0]!.red).toBe(false);
    expect(r.notes?.[1]).toBe('transcript: partial in 1 assistant row(s); error rows: "API Error: Server error mid-response. The response above may be incomplete."');
  });

  it("2.1.246: GREEN with no finding, the next request (step 1) carries the partial back", () => {
    const r = check(fixture("partial-resumed-2.1.246"));
    expect(r.verdict).toBe("GREEN");
    expect(r.ids).toEqual([]);
    expect(r.notes?.[0]).toBe("error after partial output on #1; later: #2 step 1");
    expect(r.notes?.[1]).toBe("transcript: partial in 1 assistant row(s); error rows: none");
    expect(r.notes?.[2]).toBe("api_retry: none; tool ran 0×; result success; exit 0");
  });
});

describe("mid-stream-error-partial's check on edited copies", () => {
  it("RED partial-output-discarded when the transcript holds no assistant row with the partial", () => {
    const dir = copyRun(fixture("partial-not-resumed-2.1.245"));
    editJsonLines(dir, transcriptFile(dir), (rows) => rows.filter((row) => !JSON.stringify((row as Row).message?.content ?? "").includes(PARTIAL)));
    const r = check(dir);
    expect(r.verdict).toBe("RED");
    expect(r.reds).toEqual(["partial-output-discarded"]);
    expect(r.findings[0]!.title).toBe("the output streamed before the error is not in the session's transcript");
    expect(r.findings[0]!.where).toMatch(/^request #1 \(error after 1 blocks\); -RUN-iso-work\/[0-9a-f-]+\.jsonl$/);
    expect(r.notes?.[1]).toMatch(/^transcript: partial in 0 assistant row/);
  });

  it("an error row that carries the partial does not count as keeping it", () => {
    const dir = copyRun(fixture("partial-not-resumed-2.1.245"));
    editJsonLines(dir, transcriptFile(dir), (rows) =>
      rows.map((row) => (JSON.stringify((row as Row).message?.content ?? "").includes(PARTIAL) ? { ...row, isApiErrorMessage: true } : row)),
    );
    expect(check(dir).reds).toEqual(["partial-output-discarded"]);
  });

  it("a user row with the partial does not count as keeping it", () => {
    const dir = copyRun(fixture("partial-not-resumed-2.1.245"));
    editJsonLines(dir, transcriptFile(dir), (rows) =>
      rows.map((row) => (JSON.stringify((row as Row).message?.content ?? "").includes(PARTIAL) ? { ...row, type: "user" } : row)),
    );
    expect(check(dir).reds).toEqual(["partial-output-discarded"]);
  });

  it("RED partial-output-duplicated when the resumed request carries the partial text twice", () => {
    const dir = copyRun(fixture("partial-resumed-2.1.246"));
    editBody(dir, 2, (body) => {
      const assistant = body.messages[1] as { content: { type: string; text: string }[] };
      assistant.content.push({ type: "text", text: PARTIAL });
    });
    const r = check(dir);
    expect(r.verdict).toBe("RED");
    expect(r.reds).toEqual(["partial-output-duplicated"]);
    expect(r.findings[0]!.title).toBe("the partial output is sent back twice");
    expect(r.findings[0]!.where).toBe("request #2");
  });

  it("RED partial-output-duplicated when a later request carries the partial tool call twice (text-and-tool)", () => {
    const dir = copyRun(fixture("partial-resumed-2.1.246"));
    const use = { type: "tool_use", id: "toolu_mock_1_1", name: "Bash", input: {} };
    editBody(dir, 2, (body) => {
      (body.messages[1] as { content: unknown[] }).content.push(use, use);
    });
    editJsonLines(dir, transcriptFile(dir), (rows) =>
      rows.map((row) => (row.type === "assistant" && JSON.stringify((row as Row).message?.content ?? "").includes(PARTIAL) ? { ...row, message: { role: "assistant", content: [use] } } : row)),
    );
    const r = check(dir, { partial: "text-and-tool" });
    expect(r.reds).toEqual(["partial-output-duplicated"]);
    expect(r.ids).toEqual(["partial-output-duplicated"]);
    expect(r.notes?.[1]).toMatch(/^transcript: partial in 1 assistant row/);
  });

  it("text-and-tool: the partial tool call once beside another call is not a duplicate", () => {
    const dir = copyRun(fixture("partial-resumed-2.1.246"));
    editBody(dir, 2, (body) => {
      (body.messages[1] as { content: unknown[] }).content.push({ type: "tool_use", id: "toolu_mock_1_1", name: "Bash", input: {} }, { type: "tool_use", id: "toolu_other", name: "Bash", input: {} });
    });
    const r = check(dir, { partial: "text-and-tool" });
    expect(r.ids).not.toContain("partial-output-duplicated");
    expect(r.ids).not.toContain("cut-reply-not-resumed");
  });

  it("text-and-tool: the partial is its tool call by id, not its text", () => {
    const r = check(fixture("partial-resumed-2.1.246"), { partial: "text-and-tool" });
    // The recording streamed only the text, so neither the transcript nor the next request holds toolu_mock_1_1.
    expect(r.reds).toEqual(["partial-output-discarded"]);
    expect(r.ids).toEqual(["partial-output-discarded", "cut-reply-not-resumed", "incomplete-notice-missing"]);
    expect(r.findings[0]!.where).toMatch(/^request #1 \(error after 2 blocks\)/);
  });

  it("a later user message with the partial is not a resume", () => {
    const dir = copyRun(fixture("partial-resumed-2.1.246"));
    editBody(dir, 2, (body) => {
      (body.messages[1] as { role: string }).role = "user";
    });
    const r = check(dir);
    expect(r.ids).toContain("cut-reply-not-resumed");
    expect(r.findings.find((f) => f.id === "cut-reply-not-resumed")!.where).toBe("request #1 (error after 1 blocks) → #2");
  });

  it("INCONCLUSIVE when no request got the fault", () => {
    const dir = copyRun(fixture("partial-resumed-2.1.246"));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((l) => (l.kind === "request" ? { ...l, reply: { ...(l.reply as object), fault: null } } : l)));
    const r = check(dir);
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.reason).toContain("no request was answered with the mid-stream error");
    expect(r.ids).toEqual([]);
  });

  it("INCONCLUSIVE when claude did not exit by itself", () => {
    const dir = copyRun(fixture("partial-resumed-2.1.246"));
    editFile(dir, "sessions/s1/session.json", (text) => text.replace('"exitCode": 0', '"exitCode": null'));
    const r = check(dir);
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.reason).toContain("claude -p did not exit by itself");
  });

  it("INCONCLUSIVE when claude wrote no transcript", () => {
    const dir = copyRun(fixture("partial-resumed-2.1.246"));
    fs.rmSync(path.join(dir, "transcripts"), { recursive: true });
    const r = check(dir);
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.reason).toContain("claude wrote no transcript for the session");
  });

  it("counts the tool's runs from side.txt", () => {
    const dir = copyRun(fixture("partial-resumed-2.1.246"));
    editFile(dir, "workdir-at-end.json", (text) => {
      const files = JSON.parse(text) as { files?: unknown[] } & Record<string, unknown>;
      return JSON.stringify({ ...files, files: [...(files.files ?? []), { path: "side.txt", size: 8, sha256: "0".repeat(64), text: "ran\nran\n" }] });
    });
    expect(check(dir).notes?.[2]).toBe("api_retry: none; tool ran 2×; result success; exit 0");
  });
});
