// resume-background-daemon-gone on two releases: a turn sent to the background with /background, its agent stopped
// and its daemon gone, then `-p --resume` of the UI's id and of the background session's id. The control resumes while
// the agent still runs, to show the check sees the refusal when there is one.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "resume-background-daemon-gone";

// The three runs go at once: each has its own config folder and daemon socket (background-mid-turn's parallel runs
// hold that), and most of a run is waiting on the UI and the daemon, so together they take about the longest one's time.
describe(SCENARIO, { timeout: E2E_TIMEOUT_MS, concurrent: true }, () => {
  it("2.1.223 (reported in #86764): GREEN, both ids resume once the daemon is gone", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.223");
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result.notes.join("\n")).toMatch(/background session's id, on disk\): exit 0, [1-9]/);
  });

  // #86764's own path: the background session opened from the agents view of a new UI, which is then SIGKILLed. On
  // Linux the attach did not wedge, and with every listed session stopped both ids resume.
  // In 2 of 8 runs the background session stopped by itself before its first response (the turn dropped) and the view
  // offered only a fresh restart: nothing to attach, INCONCLUSIVE. Never RED.
  it("2.1.223 with attach=agents-view (#86764's path): the attach opens the session and both ids resume (GREEN), or nothing was there to open", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.223", { attach: "agents-view" });
    expect(run.record.harnessError).toBeNull();
    const { verdict, notes, reason } = run.record.result;
    expect(["GREEN", "INCONCLUSIVE"], verdictMessage(run)).toContain(verdict);
    if (verdict === "GREEN") expect(notes.join("\n")).toMatch(/background session's id, on disk\): exit 0, [1-9]/);
    else expect(reason).toBe("the background session's id was not resumed from disk: nothing the agents view opened was tried");
  });

  it("2.1.332: GREEN; the control, resumed while the agent runs, is refused (finding, not red)", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.332");
    expect(run.record.result.verdict, verdictMessage(run)).toBe("GREEN");
    const control = await runOnRelease(SCENARIO, "2.1.332", { end: "none" });
    expect(control.record.result.verdict, verdictMessage(control)).toBe("GREEN");
    expect(control.record.result.findings.map((f) => [f.id, f.red])).toContainEqual(["resume-refused-as-background", false]);
  });
});
