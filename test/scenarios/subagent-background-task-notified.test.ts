// subagent-background-task-notified's check on both sides of its bisected boundary, recorded from real releases
// (test/fixtures/runs README): up to 2.1.224 the subagent is never woken by its finished background command
// (2.1.112 may kill it instead); from 2.1.225 a request of the subagent carries the <task-notification>.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("subagent-background-task-notified")!;
const check = (name: string) => {
  const result = scenario.check(loadRecordings(recordedRun(name)), scenario.params.parse({}));
  return { ...result, ids: result.findings.map((f) => f.id) };
};

describe("subagent-background-task-notified's check", () => {
  it("2.1.224: RED subagent-never-notified — bg-done.txt written, no subagent request carries the notification", () => {
    expect(check("bg-never-notified-2.1.224")).toMatchObject({ verdict: "RED", ids: ["subagent-never-notified"] });
  });

  it("2.1.225: GREEN — the subagent's request #6 carries the notification", () => {
    expect(check("bg-notified-2.1.225")).toMatchObject({ verdict: "GREEN", ids: [], notes: expect.arrayContaining(["notified in subagent request #6"]) });
  });

  it("2.1.112: RED subagent-task-killed — the command started (bg-started.txt) and never finished", () => {
    expect(check("bg-task-killed-2.1.112")).toMatchObject({ verdict: "RED", ids: ["subagent-task-killed"] });
  });
});
