// resume-monitor-starts-turn's check on runs recorded from real releases (test/fixtures/runs/README.md): 2.1.218,
// whose resumed UI asks the API by itself about the monitor SIGKILL left behind, and 2.1.332, which waits for the
// typed prompt; and on edits of them.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editBody, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("resume-monitor-starts-turn")!;
const check = (dir: string) => {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse({}));
  return { ...result, ids: result.findings.map((f) => f.id) };
};
const RED = "monitor-resume-red-2.1.218";
const GREEN = "monitor-resume-green-2.1.332";

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
});
