// nonstreaming-fallback-replay's check on recorded runs of 2.1.19, the release the reports name (test/fixtures/runs
// README): a stream cut after its tool_use and retried by the non-streaming fallback with the same tool_use id, and the
// reports' own trigger, a plain tool call. Both GREEN there; the RED findings and INCONCLUSIVE branches on edited copies.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editBody, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("nonstreaming-fallback-replay")!;
const FALLBACK = "fallback-same-id-2.1.19";
const PLAIN = "tool-loop-once-2.1.19";
const FALLBACK_PARAMS = { cut: "drop", toolId: "same" };

function check(dir: string, params: Record<string, unknown>) {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id) };
}
// A second copy of the tool_use (same id) in the assistant message of request `seq`.
function duplicateToolUse(dir: string, seq: number): void {
  editBody(dir, seq, (body) => {
    const assistant = body.messages.find((m) => (m as { role: string }).role === "assistant") as { content: unknown[] };
    assistant.content.push(assistant.content[0]);
  });
}
function sideFile(dir: string, text: string): void {
  editFile(dir, "workdir-at-end.json", (json) => json.replace('"text": "ran\\n"', `"text": ${JSON.stringify(text)}`));
}

describe("nonstreaming-fallback-replay's check on the recorded runs of 2.1.19", () => {
  it("cut=drop toolId=same: GREEN, the non-streamed retry's tool_use is sent once and the tool ran once", () => {
    const r = check(recordedRun(FALLBACK), FALLBACK_PARAMS);
    expect(r.verdict).toBe("GREEN");
    expect(r.ids).toEqual([]);
    expect(r.notes).toEqual(["cut #1 (drop after 1 blocks); later: #3 step 0 NOT streamed, #5 step 1; tool ran 1×; exit 0"]);
  });

  it("cut=none (the reports' trigger): GREEN, the tool loop's next request carries the tool_use once", () => {
    const r = check(recordedRun(PLAIN), { cut: "none" });
    expect(r.verdict).toBe("GREEN");
    expect(r.ids).toEqual([]);
    expect(r.notes).toEqual(["first #1 (no fault); later: #4 step 1; tool ran 1×; exit 0"]);
  });
});

describe("nonstreaming-fallback-replay's check on edited copies", () => {
  it("RED duplicate-tool-use-ids when the next request carries the id twice", () => {
    const dir = copyRun(recordedRun(FALLBACK));
    duplicateToolUse(dir, 5);
    const r = check(dir, FALLBACK_PARAMS);
    expect(r.verdict).toBe("RED");
    expect(r.ids).toEqual(["duplicate-tool-use-ids"]);
    expect(r.findings[0]!.where).toBe("request #5");
    expect(r.findings[0]!.red).toBe(true);
  });

  it("RED tool-run-twice when side.txt holds the line twice", () => {
    const dir = copyRun(recordedRun(PLAIN));
    sideFile(dir, "ran\nran\n");
    const r = check(dir, { cut: "none" });
    expect(r.verdict).toBe("RED");
    expect(r.ids).toEqual(["tool-run-twice"]);
    expect(r.findings[0]!.title).toBe("the tool of the cut turn ran 2 times");
    expect(r.findings[0]!.where).toBe("side.txt");
    expect(r.notes?.[0]).toContain("tool ran 2×");
  });

  it("both findings at once, in that order", () => {
    const dir = copyRun(recordedRun(PLAIN));
    sideFile(dir, "ran\nran\nran\n");
    duplicateToolUse(dir, 4);
    const r = check(dir, { cut: "none" });
    expect(r.ids).toEqual(["tool-run-twice", "duplicate-tool-use-ids"]);
    expect(r.findings[0]!.title).toBe("the tool of the cut turn ran 3 times");
  });

  it("no side.txt: the tool ran 0 times, no finding", () => {
    const dir = copyRun(recordedRun(PLAIN));
    editFile(dir, "workdir-at-end.json", () => JSON.stringify({ t: 1, files: [], links: [] }));
    const r = check(dir, { cut: "none" });
    expect(r.ids).toEqual([]);
    expect(r.notes?.[0]).toContain("tool ran 0×");
  });

  it("INCONCLUSIVE with a cut asked for when no request was cut", () => {
    const r = check(recordedRun(PLAIN), { cut: "drop" });
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.reason).toContain("no request was cut after its tool_use");
  });

  it("INCONCLUSIVE with cut=none when no main request was made", () => {
    const dir = copyRun(recordedRun(PLAIN));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((l) => (l.kind === "request" ? { ...l, stream: "side" } : l)));
    const r = check(dir, { cut: "none" });
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.reason).toContain("no request of the turn was made");
  });

  it("INCONCLUSIVE with cut=none when the tool loop made no request after the call", () => {
    const dir = copyRun(recordedRun(PLAIN));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((l) => (l.kind === "request" && l.stream === "main" ? { ...l, step: 0 } : l)));
    const r = check(dir, { cut: "none" });
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.reason).toContain("the tool loop made no request after the tool call");
  });

  it("cut=none does not need a fault, and a later fault does not become the first request", () => {
    const dir = copyRun(recordedRun(PLAIN));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((l) => (l.kind === "request" && l.seq === 4 ? { ...l, reply: { ...(l.reply as object), fault: "drop after 1 blocks" } } : l)));
    const r = check(dir, { cut: "none" });
    expect(r.notes).toEqual(["first #1 (no fault); later: #4 step 1; tool ran 1×; exit 0"]);
  });

  it("INCONCLUSIVE when claude did not exit by itself", () => {
    const dir = copyRun(recordedRun(FALLBACK));
    editFile(dir, "sessions/s1/session.json", (text) => text.replace('"exitCode": 0', '"exitCode": null'));
    const r = check(dir, FALLBACK_PARAMS);
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.reason).toContain("claude -p did not exit by itself");
  });

  it("a streamed later request is listed without the NOT streamed mark", () => {
    const dir = copyRun(recordedRun(FALLBACK));
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((l) => (l.kind === "request" && l.seq === 3 ? { ...l, streaming: true } : l)));
    expect(check(dir, FALLBACK_PARAMS).notes?.[0]).toContain("later: #3 step 0, #5 step 1;");
  });
});
