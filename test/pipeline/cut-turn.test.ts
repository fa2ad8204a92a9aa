// A run short of its plan cannot be GREEN (issue 42, item 1): a `-p` turn killed at its step's limit (a release that
// keeps retrying), a wait that timed out, steps that never ran. Replayed on recorded GREEN runs (test/fixtures/runs:
// hook-ask-denied-2.1.85 on 2.1.85, notification-green-2.1.332 on 2.1.332) with their run.json edited as such a run
// records it; a timeout the scenario allows leaves the verdict as it was, with the timeout in the notes.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readRunRecord, writeRunRecord } from "../../harness/run-record.ts";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { copyRun, recordedRun } from "../fixtures/runs/edit-run.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";

describe("a print step cut at its limit", () => {
  it("turns what the check found GREEN into INCONCLUSIVE, naming the step", () => {
    const dir = copyRun(recordedRun("hook-ask-denied-2.1.85"));
    expect(checkRecordedRun(dir, scenarioByName).verdict).toBe("GREEN");
    const file = path.join(dir, "run.json");
    const record = readRunRecord(file);
    const detail = "claude -p (session s1) was still running after 100000 ms and was killed: not reached";
    writeRunRecord(file, { ...record, steps: record.steps.map((s) => ({ ...s, outcome: "timeout" as const, detail })) });
    expect(checkRecordedRun(dir, scenarioByName)).toMatchObject({ verdict: "INCONCLUSIVE", reason: `step 1 (print s1) timed out: ${detail}` });
  });

  it("leaves a RED alone: the bug showed before the cut", () => {
    const dir = copyRun(recordedRun("hook-ask-ran-2.1.84"));
    const file = path.join(dir, "run.json");
    const record = readRunRecord(file);
    writeRunRecord(file, { ...record, steps: record.steps.map((s) => ({ ...s, outcome: "timeout" as const, detail: "cut" })) });
    expect(checkRecordedRun(dir, scenarioByName).verdict).toBe("RED");
  });
});

describe("a wait that timed out", () => {
  // notification-green-2.1.332: a GREEN run whose last step is the wait the check's point rests on.
  const GREEN_RUN = "notification-green-2.1.332";
  const timedOut = (allowed: boolean) => {
    const dir = copyRun(recordedRun(GREEN_RUN));
    const file = path.join(dir, "run.json");
    const record = readRunRecord(file);
    const at = record.steps.findIndex((s) => s.kind === "wait");
    const steps = record.steps.map((s, i) => (i === at ? { ...s, outcome: "timeout" as const, detail: "not reached within 20000 ms", ...(allowed ? { mayTimeOut: true } : {}) } : s));
    writeRunRecord(file, { ...record, steps, stepsSkipped: allowed ? [] : ["stop s1"] });
    return { dir, label: record.steps[at]!.label, index: at + 1 };
  };

  it("is INCONCLUSIVE, naming the step and what never ran, although the check found its point", () => {
    expect(checkRecordedRun(recordedRun(GREEN_RUN), scenarioByName).verdict).toBe("GREEN");
    const { dir, label, index } = timedOut(false);
    expect(checkRecordedRun(dir, scenarioByName)).toMatchObject({
      verdict: "INCONCLUSIVE",
      reason: `step ${index} (${label}) timed out: not reached within 20000 ms; 1 step(s) never ran: stop s1`,
    });
  });

  it("allowed by the scenario (onTimeout: \"continue\", a watch) keeps the verdict, and says so in the notes", () => {
    const { dir, label, index } = timedOut(true);
    const result = checkRecordedRun(dir, scenarioByName);
    expect(result.verdict).toBe("GREEN");
    expect(result.notes).toContain(`step ${index} (${label}) timed out, as the scenario allows: not reached within 20000 ms`);
  });

  it("steps that never ran leave the run short of its plan even with every recorded step ok", () => {
    const dir = copyRun(recordedRun("hook-ask-denied-2.1.85"));
    const file = path.join(dir, "run.json");
    writeRunRecord(file, { ...readRunRecord(file), stepsSkipped: ["a step after the end"] });
    expect(checkRecordedRun(dir, scenarioByName)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the run stopped short of its plan; 1 step(s) never ran: a step after the end" });
  });
});
