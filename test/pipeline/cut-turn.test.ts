// A `-p` turn killed at its step's limit (a release that keeps retrying) cannot be GREEN: replayed on the recorded
// GREEN run hook-ask-denied-2.1.85 (2.1.85, test/fixtures/runs) with its print step marked as timed out.
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
    expect(checkRecordedRun(dir, scenarioByName)).toMatchObject({ verdict: "INCONCLUSIVE", reason: `step 1 (print s1): ${detail}` });
  });

  it("leaves a RED alone: the bug showed before the cut", () => {
    const dir = copyRun(recordedRun("hook-ask-ran-2.1.84"));
    const file = path.join(dir, "run.json");
    const record = readRunRecord(file);
    writeRunRecord(file, { ...record, steps: record.steps.map((s) => ({ ...s, outcome: "timeout" as const, detail: "cut" })) });
    expect(checkRecordedRun(dir, scenarioByName).verdict).toBe("RED");
  });
});
