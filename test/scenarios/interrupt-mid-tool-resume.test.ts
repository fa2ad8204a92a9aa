// interrupt-mid-tool-resume's check (RED up to 1.0.27 through the API's pairing rule, GREEN from 1.0.33) on runs recorded from real releases
// (test/fixtures/runs/README.md: interrupt-rejected-1.0.24, interrupt-erased-2.1.234, interrupt-kept-2.1.332,
// interrupt-control-2.1.234), and on
// edits of them that make the stop miss the call. Its INCONCLUSIVE edges for the resumed request: test/scenarios/checks.test.ts.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("interrupt-mid-tool-resume")!;
const check = (dir: string, params: Record<string, string> = {}) => {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id), red: result.findings.filter((f) => f.red).map((f) => f.id) };
};

describe("interrupt-mid-tool-resume's check", () => {
  it("1.0.24 SIGKILL: the resumed request keeps the tool_use with no tool_result, which the run judges RED request-rejected-by-api (#5317's 400)", () => {
    const dir = recordedRun("interrupt-rejected-1.0.24");
    // The scenario's own check reaches the point and says what the request holds; the API's rule adds the RED finding.
    const result = check(dir);
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes).toContain("kept: tool_use toolu_mock_1_0 at messages[1], with no tool_result");
    expect(result.notes).toContain("resumed request 6: 3 messages, the API would reject it (tool-use-without-result)");
    const judged = checkRecordedRun(dir, scenario);
    expect(judged.verdict).toBe("RED");
    expect(judged.findings.map((f) => f.id)).toEqual(["request-rejected-by-api"]);
    expect(judged.findings[0]!.detail.join("\n")).toMatch(/messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_mock_1_0/);
  });

  it("2.1.234 SIGKILL: GREEN, the call erased (informational) from the resumed request #2 of session s2", () => {
    const result = check(recordedRun("interrupt-erased-2.1.234"));
    expect(result).toMatchObject({ verdict: "GREEN", ids: ["interrupted-call-erased"], red: [] });
    expect(result.findings[0]!.where).toBe("request 2 (s2)");
    expect(result.notes.slice(0, 2)).toEqual([
      "the Bash call toolu_mock_1_0 was printed at stdout line 1 and stopped 2820 ms later without a tool_result",
      "resumed request 2: 3 messages, conforms",
    ]);
  });

  it("2.1.332 SIGKILL: GREEN, the call kept with a synthetic [Tool call interrupted…] result", () => {
    const result = check(recordedRun("interrupt-kept-2.1.332"));
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes.at(-1)).toMatch(/^kept: tool_use toolu_mock_1_0 at messages\[1\], answered by tool_result "\[Tool call interrupted/);
  });

  it("2.1.234 interrupt control request: GREEN, kept with the rejected-tool-use result", () => {
    const result = check(recordedRun("interrupt-control-2.1.234"), { how: "interrupt" });
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes[0]).toBe("the Bash call toolu_mock_1_0 was printed at stdout line 1 and stopped 2513 ms later without a tool_result");
  });

  it("is INCONCLUSIVE when session s1 printed no tool_use: nothing was running to interrupt", () => {
    const dir = copyRun(recordedRun("interrupt-kept-2.1.332"));
    editJsonLines(dir, "sessions/s1/stdout.jsonl", (lines) => lines.filter((line) => !(line.raw as string).includes('"tool_use"')));
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "session s1 never printed a tool_use: no tool call was running to interrupt", ids: [] });
  });
});
