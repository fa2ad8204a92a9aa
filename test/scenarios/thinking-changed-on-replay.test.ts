// thinking-changed-on-replay's check on recorded runs (test/fixtures/runs/README.md): 2.1.152 with --fallback-model strips
// the main model's thinking mid tool loop (RED, on the mock's rule thinking-dropped-in-tool-loop); 2.1.154, a release
// the Opus 4.8 reports name, with --model claude-opus-4-8 and thinking between two parallel tool calls, sends every block
// back as served, also after a kill and --resume (GREEN). The other ways and the INCONCLUSIVE branches on edited copies.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("thinking-changed-on-replay")!;
const FALLBACK = "thinking-fallback-stripped-2.1.152";
const INTERLEAVED = "thinking-interleaved-opus48-2.1.154";
const OPUS48 = { how: "interleaved", model: "claude-opus-4-8" };

function check(dir: string, params: Record<string, unknown>) {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id) };
}
type Line = Record<string, unknown> & { kind?: string; seq?: number; reply?: Record<string, unknown> };
const editRequests = (dir: string, edit: (line: Line) => Line) =>
  editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((l: Line) => (l.kind === "request" ? edit(l) : l)));
const violation = (rule: string) => ({ rule, status: 400, errorType: "invalid_request_error", message: `the API's ${rule}`, messageVerified: true, messageIndex: 2, path: "$.messages[2].content[0]" });
const withViolation = (seq: number, rule: string) => (l: Line) => (l.seq === seq ? { ...l, conformance: [violation(rule)] } : l);

describe("thinking-changed-on-replay's check on the recorded runs", () => {
  it("2.1.152 how=fallback: RED, the switch to the fallback model drops the thinking mid tool loop", () => {
    const r = check(recordedRun(FALLBACK), { how: "fallback" });
    expect(r.verdict).toBe("RED");
    expect(r.ids).toEqual(["thinking-changed-on-replay"]);
    const f = r.findings[0]!;
    expect(f.title).toMatch(/^after the switch to the fallback model, a thinking block came back changed or was dropped mid tool loop: the API would answer 400 "messages\.1\.content\.0\.type: Expected `thinking`/);
    expect(f.where).toBe("request #6 $.messages[1].content[0].type");
    expect(f.detail).toEqual(["#6 (s1): thinking-dropped-in-tool-loop at $.messages[1].content[0].type"]);
    expect(r.notes).toEqual([
      "thinking sent back: #1 s1 step 0 claude-opus-4-5: 0 sent back; #2 s1 step 1 claude-opus-4-5 (http-error 529): 1 sent back; #3 s1 step 1 claude-opus-4-5 (http-error 529): 1 sent back; " +
        "#4 s1 step 1 claude-opus-4-5 (http-error 529): 1 sent back; #5 s1 step 1 claude-haiku-4-5: 0 sent back; #6 s1 step 2 claude-haiku-4-5: 1 sent back, 1 changed; #7 s1 step 3 claude-opus-4-5: 1 sent back",
    ]);
  });

  it("2.1.154 Opus 4.8, thinking between parallel tool calls: GREEN, every block as served, also after the resume", () => {
    const r = check(recordedRun(INTERLEAVED), OPUS48);
    expect(r.verdict).toBe("GREEN");
    expect(r.ids).toEqual([]);
    expect(r.notes).toEqual(["thinking sent back: #1 s1 step 0 claude-opus-4-8: 0 sent back; #2 s1 step 1 claude-opus-4-8: 2 sent back; #3 s2 step 2 claude-opus-4-8: 3 sent back"]);
  });

  it("the same run judged as kill-resume: the same GREEN", () => {
    expect(check(recordedRun(INTERLEAVED), { how: "kill-resume", model: "claude-opus-4-8" }).verdict).toBe("GREEN");
  });
});

describe("thinking-changed-on-replay's check on edited copies", () => {
  it("RED after the resume when the resumed request's block breaks a thinking rule", () => {
    const dir = copyRun(recordedRun(INTERLEAVED));
    editRequests(dir, withViolation(3, "thinking-signature-invalid"));
    const r = check(dir, OPUS48);
    expect(r.verdict).toBe("RED");
    expect(r.findings[0]!.title).toBe('after the resume, a thinking block came back changed or was dropped mid tool loop: the API would answer 400 "the API\'s thinking-signature-invalid"');
    expect(r.findings[0]!.where).toBe("request #3 $.messages[2].content[0]");
    expect(r.findings[0]!.detail).toEqual(["#3 (s2): thinking-signature-invalid at $.messages[2].content[0]"]);
    expect(r.notes?.[0]).toContain("#3 s2 step 2 claude-opus-4-8: 3 sent back, 1 changed");
  });

  it("RED in the tool loop when the loop's request breaks a thinking rule; every bad request is listed", () => {
    const dir = copyRun(recordedRun(INTERLEAVED));
    editRequests(dir, (l) => withViolation(3, "thinking-signature-missing")(withViolation(2, "thinking-signature-missing")(l)));
    const r = check(dir, OPUS48);
    expect(r.findings[0]!.title).toMatch(/^in the tool loop, /);
    expect(r.findings[0]!.detail).toEqual(["#2 (s1): thinking-signature-missing at $.messages[2].content[0]", "#3 (s2): thinking-signature-missing at $.messages[2].content[0]"]);
  });

  it("a conformance rule that is not about thinking is not this finding", () => {
    const dir = copyRun(recordedRun(INTERLEAVED));
    editRequests(dir, withViolation(3, "empty-text-block"));
    const r = check(dir, OPUS48);
    expect(r.ids).toEqual([]);
    expect(r.notes?.[0]).toMatch(/#3 s2 step 2 claude-opus-4-8: 3 sent back$/);
  });

  it("after the error, and after the interrupt: the place names the way", () => {
    for (const [how, place] of [
      ["error-after-thinking", "after the error"],
      ["interrupt", "after the interrupt"],
    ] as const) {
      const r = check(recordedRun(FALLBACK), { how });
      expect(r.verdict, how).toBe("RED");
      expect(r.findings[0]!.title.startsWith(`${place}, `), how).toBe(true);
    }
  });

  it("a bad request before the fault is in the tool loop", () => {
    const dir = copyRun(recordedRun(FALLBACK));
    editRequests(dir, (l) => (l.seq === 6 ? { ...l, conformance: [] } : l.seq === 1 ? { ...l, conformance: [violation("thinking-signature-invalid")] } : l));
    expect(check(dir, { how: "fallback" }).findings[0]!.title).toMatch(/^in the tool loop, /);
  });

  it("INCONCLUSIVE when no reply was faulted, named by the way", () => {
    const cases = [
      ["interrupt", "no reply stalled inside its thinking block"],
      ["fallback", "no request was answered 529"],
      ["error-after-thinking", "no stream ended in an error after its thinking block"],
    ] as const;
    for (const [how, reason] of cases) {
      const r = check(recordedRun(INTERLEAVED), { how });
      expect(r.verdict, how).toBe("INCONCLUSIVE");
      expect(r.reason, how).toContain(reason);
      expect(r.ids).toEqual([]);
    }
  });

  it("INCONCLUSIVE when no request followed the fault", () => {
    const dir = copyRun(recordedRun(FALLBACK));
    editRequests(dir, (l) => ({ ...l, reply: { ...l.reply, fault: l.seq === 7 ? "http-error 529" : null } }));
    expect(check(dir, { how: "error-after-thinking" }).reason).toContain("no request followed the error");
    expect(check(dir, { how: "interrupt" }).reason).toContain("no request followed the interrupt");
  });

  it("INCONCLUSIVE with fallback when the fallback model was never asked", () => {
    const dir = copyRun(recordedRun(FALLBACK));
    for (const seq of [5, 6]) editFile(dir, `mock/requests/00000${seq}.body`, (text) => text.replaceAll("claude-haiku-4-5", "claude-opus-4-5"));
    const r = check(dir, { how: "fallback" });
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.reason).toContain("the fallback model was never asked");
  });

  it("INCONCLUSIVE with kill-resume when no request sent a thinking block back", () => {
    const dir = copyRun(recordedRun(INTERLEAVED));
    for (const seq of [2, 3]) editFile(dir, `mock/requests/00000${seq}.body`, (text) => text.replace(/"type": ?"thinking"/g, '"type":"reasoning"'));
    const r = check(dir, OPUS48);
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.reason).toContain("no request sent back a thinking block the mock served");
  });

  it("INCONCLUSIVE with kill-resume when the resumed session made no request, or printed no result", () => {
    const r = check(recordedRun(FALLBACK), { how: "kill-resume" });
    expect(r.verdict).toBe("INCONCLUSIVE");
    expect(r.reason).toContain("the resumed session made no request or printed no result");
    const dir = copyRun(recordedRun(INTERLEAVED));
    editJsonLines(dir, "sessions/s2/stdout.jsonl", (lines) => lines.filter((l) => !String(l.raw).includes('"type":"result"')));
    expect(check(dir, OPUS48).reason).toContain("the resumed session made no request or printed no result");
  });

  // Mutants of the check met in the whole mutation run (2026-12-06). Read and left as equivalent: `r.session === "s1"`
  // made `true` where a request must follow the fault (without a resume the run has one session, s1), and the "?" put
  // for a request with no session or no model (every recorded request comes from a session's process and names its
  // model).
  it("only the main conversation's faults count: a 529 on another stream is no trigger", () => {
    const dir = copyRun(recordedRun(FALLBACK));
    editRequests(dir, (l) => (l.reply?.fault ? { ...l, stream: "side" } : l));
    expect(check(dir, { how: "fallback" })).toMatchObject({ verdict: "INCONCLUSIVE", reason: "no request was answered 529", ids: [] });
  });

  it("a bad request that is itself the one answered 529 is in the tool loop, not after the switch", () => {
    const dir = copyRun(recordedRun(FALLBACK));
    editRequests(dir, (l) => (l.seq === 6 ? { ...l, conformance: [] } : l.seq === 2 ? { ...l, conformance: [violation("thinking-signature-invalid")] } : l));
    const r = check(dir, { how: "fallback" });
    expect(r.findings[0]!.title).toMatch(/^in the tool loop, /);
    expect(r.findings[0]!.where).toBe("request #2 $.messages[2].content[0]");
  });

  it("a request that breaks two rules lists both, comma-separated", () => {
    const dir = copyRun(recordedRun(INTERLEAVED));
    editRequests(dir, (l) => (l.seq === 3 ? { ...l, conformance: [violation("thinking-signature-invalid"), violation("thinking-signature-missing")] } : l));
    expect(check(dir, OPUS48).findings[0]!.detail).toEqual(["#3 (s2): thinking-signature-invalid at $.messages[2].content[0], thinking-signature-missing at $.messages[2].content[0]"]);
  });

  it("INCONCLUSIVE with kill-resume when the resumed session printed a result but its only request left the main conversation", () => {
    const dir = copyRun(recordedRun(INTERLEAVED));
    editRequests(dir, (l) => (l.seq === 3 ? { ...l, stream: "side" } : l)); // #3 is session 2's one request
    expect(check(dir, OPUS48)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the resumed session made no request or printed no result", ids: [] });
  });
});
