// resume-monitor-starts-turn's check on runs recorded from real releases (test/fixtures/runs/README.md): 2.1.218,
// whose resumed UI asks the API by itself about the monitor SIGKILL left behind, and 2.1.332, which waits for the
// typed prompt; and on edits of them.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editBody, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("resume-monitor-starts-turn")!;
const check = (dir: string) => {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse({}));
  return { ...result, ids: result.findings.map((f) => f.id) };
};
const RED = "monitor-resume-red-2.1.218";
const GREEN = "monitor-resume-green-2.1.332";
const TYPED = "CCREPRO_MONITOR_TYPED_8M";
// Moves the requests `seqs` of the mock's index out of the main conversation (to a side stream), bodies unchanged.
const offMain = (dir: string, seqs: number[]) => editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((l) => (l.kind === "request" && seqs.includes(l.seq as number) ? { ...l, stream: "side" } : l)));

describe("resume-monitor-starts-turn's check", () => {
  it("2.1.218: RED, the resumed session's request #4 came before any typed prompt", () => {
    const result = check(recordedRun(RED));
    expect(result).toMatchObject({ verdict: "RED", ids: ["resume-starts-turn-unprompted"], notes: ["1 unprompted request(s) after the resume"] });
    expect(result.findings[0]?.where).toBe("request #4 of the resumed session, before the typed prompt");
  });

  it("2.1.332: GREEN, the resumed session's only request carries the typed prompt", () => {
    expect(check(recordedRun(GREEN))).toMatchObject({ verdict: "GREEN", ids: [], notes: ["0 unprompted request(s) after the resume"] });
  });

  it("is GREEN when the unprompted request is made to carry the typed prompt", () => {
    const dir = copyRun(recordedRun(RED));
    editBody(dir, 4, (body) => body.messages.push({ role: "user", content: "CCREPRO_MONITOR_TYPED_8M say ok" }));
    expect(check(dir).ids).toEqual([]);
  });

  it("is not reached when the first session's Monitor call never started a monitor", () => {
    const dir = copyRun(recordedRun(GREEN));
    editBody(dir, 2, (body) => {
      body.messages = JSON.parse(JSON.stringify(body.messages).replaceAll("Monitor started", "No such tool"));
    });
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", ids: [] });
  });

  // In the 2.1.218 run, requests #2 and #3 are session 1's main loop (#3 carries "Monitor started"), #4 the resumed
  // session's unprompted request, #5 its typed prompt.
  it("says why when the Monitor never started, and is INCONCLUSIVE (not a crash) when session 1 made fewer than 2 main requests", () => {
    const dir = copyRun(recordedRun(RED));
    offMain(dir, [2, 3]);
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: 'the first session\'s Monitor call never started a monitor (no "Monitor started" tool result)', ids: [] });
  });

  it("the monitor started if any tool result of session 1's second request says so, not only if all do", () => {
    const dir = copyRun(recordedRun(RED));
    editBody(dir, 3, (body) => {
      const last = body.messages.at(-1) as { content: unknown[] };
      last.content.push({ type: "tool_result", tool_use_id: "toolu_other", content: "another tool's result" });
    });
    expect(check(dir)).toMatchObject({ verdict: "RED", ids: ["resume-starts-turn-unprompted"] });
  });

  it("INCONCLUSIVE when the resumed session's main loop sent nothing at all (its typed prompt went to another stream)", () => {
    const dir = copyRun(recordedRun(GREEN));
    offMain(dir, [3]); // 2.1.332's request #3 is the resumed session's only one, the typed prompt
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the resumed UI never sent the typed prompt", ids: [] });
  });

  it("RED without the typed prompt: an unprompted request is the finding whether or not the user's prompt followed", () => {
    const dir = copyRun(recordedRun(RED));
    offMain(dir, [5]);
    expect(check(dir)).toMatchObject({ verdict: "RED", ids: ["resume-starts-turn-unprompted"] });
  });

  it("names every unprompted request, plural, comma-separated", () => {
    const dir = copyRun(recordedRun(RED));
    editBody(dir, 5, (body) => {
      body.messages = JSON.parse(JSON.stringify(body.messages).replaceAll(TYPED, "SOMETHING_ELSE"));
    });
    const result = check(dir);
    expect(result.findings[0]?.where).toBe("requests #4, #5 of the resumed session, before the typed prompt");
    expect(result.notes).toEqual(["2 unprompted request(s) after the resume"]);
  });
});
