// resume-orphaned-background-task judges only runs whose premise held: the background task was still running when
// session 1 died, or session 2 reported it stopped. Recorded runs (test/fixtures/runs/README.md), edited on temp copies.
import { describe, expect, it } from "vitest";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { copyRun, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";

const s1 = "sessions/s1/session.json";
const s2Stdout = "sessions/s2/stdout.jsonl";
const s1Stdout = "sessions/s1/stdout.jsonl";

// Rewrites the params in run.json, as if the run had been asked for another stop.
const withParams = (dir: string, params: Record<string, unknown>) =>
  editFile(dir, "run.json", (text) => {
    const run = JSON.parse(text) as { params: Record<string, unknown> };
    run.params = { ...run.params, ...params };
    return JSON.stringify(run, null, 2);
  });

const withoutStoppedReport = (dir: string) =>
  editJsonLines(dir, s2Stdout, (lines) => lines.filter((l) => !String(l["raw"]).includes('"subtype":"task_notification"')));

describe("resume-orphaned-background-task: the premise", () => {
  it.each(["orphan-red-2.1.234", "orphan-red-2.1.332"])("%s as recorded (SIGKILL, task still running): RED", (name) => {
    const result = checkRecordedRun(recordedRun(name), scenarioByName);
    expect(result.verdict).toBe("RED");
    expect(result.notes).toContainEqual(expect.stringMatching(/^premise: session s2 reported task \w+ stopped/));
  });

  it("stop=stdin with session 1 still alive when session 2 started: INCONCLUSIVE", () => {
    const dir = copyRun(recordedRun("orphan-red-2.1.332"));
    withParams(dir, { stop: "stdin" });
    editFile(dir, s1, (text) => {
      const p = JSON.parse(text) as Record<string, unknown>;
      return JSON.stringify({ ...p, endedAt: (p["endedAt"] as number) + 5000, signal: null, exitCode: 0, stoppedBy: ["close-stdin"] });
    });
    withoutStoppedReport(dir);
    const result = checkRecordedRun(dir, scenarioByName);
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toMatch(/session s1 was still alive when session s2 started/);
  });

  // Session 1 ending its own task (SIGTERM; or 2.1.234 at the Agent SDK's graceful close) orphans nothing by itself.
  const killedBySession1 = () => {
    const dir = copyRun(recordedRun("orphan-red-2.1.332"));
    withParams(dir, { stop: "sigterm" });
    editFile(dir, s1, (text) => JSON.stringify({ ...(JSON.parse(text) as object), signal: "SIGTERM", stoppedBy: ["close-stdin", "SIGTERM"] }));
    editJsonLines(dir, s1Stdout, (lines) => {
      const last = lines.at(-1)!;
      const killed = { type: "system", subtype: "task_notification", task_id: "bmh4w29zr", tool_use_id: "toolu_mock_1_0", status: "killed", output_file: "", summary: "killed", session_id: "x", uuid: "u" };
      return [...lines, { t: (last["t"] as number) + 1, raw: JSON.stringify(killed) }];
    });
    return dir;
  };

  it("sigterm where session 1 reported its own task killed and session 2 never mentions it: INCONCLUSIVE", () => {
    const dir = killedBySession1();
    withoutStoppedReport(dir);
    const result = checkRecordedRun(dir, scenarioByName);
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toMatch(/session s1 reported task bmh4w29zr killed before it ended, and session s2 never mentioned it/);
  });

  it("session 1 reported its own task killed, but session 2 still reports it stopped: the premise holds (RED as recorded)", () => {
    const result = checkRecordedRun(killedBySession1(), scenarioByName);
    expect(result.verdict).toBe("RED");
    expect(result.notes.join("\n")).toMatch(/premise: session s2 reported task bmh4w29zr stopped/);
  });

  it("sigterm with no report from either session: INCONCLUSIVE (the CLI may have killed its task silently)", () => {
    const dir = copyRun(recordedRun("orphan-red-2.1.332"));
    withParams(dir, { stop: "sigterm" });
    editFile(dir, s1, (text) => JSON.stringify({ ...(JSON.parse(text) as object), signal: "SIGTERM", stoppedBy: ["close-stdin", "SIGTERM"] }));
    withoutStoppedReport(dir);
    const result = checkRecordedRun(dir, scenarioByName);
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toMatch(/ended by SIGTERM/);
  });

  it("sigterm where session 2 reports the task stopped: the premise holds and the run is judged", () => {
    const dir = copyRun(recordedRun("orphan-red-2.1.332"));
    withParams(dir, { stop: "sigterm" });
    editFile(dir, s1, (text) => JSON.stringify({ ...(JSON.parse(text) as object), signal: "SIGTERM", stoppedBy: ["close-stdin", "SIGTERM"] }));
    const result = checkRecordedRun(dir, scenarioByName);
    expect(result.verdict).toBe("RED");
    expect(result.notes).toContainEqual(expect.stringMatching(/^premise: session s2 reported task bmh4w29zr stopped/));
  });

  it("no task_started in session 1: INCONCLUSIVE, its findings informational", () => {
    const dir = copyRun(recordedRun("orphan-red-2.1.332"));
    editJsonLines(dir, s1Stdout, (lines) => lines.filter((l) => !String(l["raw"]).includes('"subtype":"task_started"')));
    const result = checkRecordedRun(dir, scenarioByName);
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toBe("session s1 never started a background task, so nothing was orphaned");
    expect(result.findings.map((f) => [f.id, f.red])).toEqual([["prompt-settled-by-extra-result", false]]);
  });

  it("the control variant needs no orphan: GREEN as recorded", () => {
    expect(checkRecordedRun(recordedRun("orphan-control-2.1.234"), scenarioByName).verdict).toBe("GREEN");
  });
});
