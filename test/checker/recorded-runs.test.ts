// Replays run directories recorded from real releases: the checker must give the verdict each release earned.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";

const fixture = (name: string) => path.join(import.meta.dirname, "..", "fixtures", "runs", name);

describe("subagent-resume-notification-header on recorded runs", () => {
  it("2.1.281: the absorbed notification's header flips, 446 characters shorter", () => {
    const result = checkRecordedRun(fixture("notification-changed-2.1.281"), scenarioByName);
    expect(result.verdict).toBe("RED");
    const changed = result.findings.filter((f) => f.id === "notification-changed");
    expect(changed).toHaveLength(1);
    expect(changed[0]!.detail.join("\n")).toContain("system-notification-preamble");
    expect(changed[0]!.detail.join("\n")).toContain("non-user-source");
    expect(changed[0]!.detail.join("\n")).toContain("delta 446");
    expect(changed[0]!.diff).toContain("-[SYSTEM NOTIFICATION - NOT USER INPUT]");
    expect(changed[0]!.diff).toContain("+[MESSAGE FROM NON-USER SOURCE - NOT USER INPUT]");
    // The flip is the only change: the rest of the prefix held.
    expect(result.findings.some((f) => f.id === "prefix-changed")).toBe(false);
  });

  it("2.1.251: the absorbed notification is dropped, not silently ignored", () => {
    const result = checkRecordedRun(fixture("notification-dropped-2.1.251"), scenarioByName);
    expect(result.verdict).toBe("RED");
    expect(result.findings.map((f) => f.id)).toContain("notification-dropped");
  });

  it("2.1.332: every notification and the whole prefix keep their bytes", () => {
    const result = checkRecordedRun(fixture("notification-green-2.1.332"), scenarioByName);
    expect(result.verdict).toBe("GREEN");
    expect(result.findings.filter((f) => f.red)).toEqual([]);
    expect(result.notes.join("\n")).toMatch(/continuation 1 \(sub, task notification\): req 6 → req 8, 1 notification compared/);
  });

  it("2.1.112: a subagent that is never resumed is INCONCLUSIVE, never GREEN", () => {
    const result = checkRecordedRun(fixture("notification-inconclusive-2.1.112"), scenarioByName);
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toMatch(/never resumed/);
  });
});

describe("resume-orphaned-background-task on recorded runs", () => {
  it.each(["orphan-red-2.1.234", "orphan-red-2.1.332"])("%s: the zero-work task-notification result settles the pushed prompt first", (name) => {
    const result = checkRecordedRun(fixture(name), scenarioByName);
    expect(result.verdict).toBe("RED");
    const extra = result.findings.filter((f) => f.id === "prompt-settled-by-extra-result");
    expect(extra).toHaveLength(1);
    expect(extra[0]!.data).toMatchObject({ origin: "task-notification", numTurns: 0, zeroWork: true, session: "s2" });
    // The human output: the aligned timeline around the finding, the way seed 000 shows it.
    const timeline = extra[0]!.detail.join("\n");
    expect(timeline).toMatch(/task_notification .*status=stopped/);
    expect(timeline).toMatch(/result .*num_turns=0 origin=task-notification usage=0/);
    expect(timeline).toMatch(/result .*num_turns=1 origin=- .*"second"/);
  });

  it("orphan-control-2.1.234: without a background task the prompt's first result is its answer", () => {
    const result = checkRecordedRun(fixture("orphan-control-2.1.234"), scenarioByName);
    expect(result.verdict).toBe("GREEN");
    expect(result.findings).toEqual([]);
  });
});
