// resume-history-lost on a cached release: the scenario's own step pads session 1's transcript past 5 MiB (size=large,
// the default) and damages it (a line that is not JSON after the first answer, or a row cut off at the end); 2.1.332
// still sends every message, 2.1.120 refuses the resume and 2.1.121 (the CHANGELOG's fix) skips the line.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readRunRecord } from "../../harness/run-record.ts";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "resume-history-lost";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it.each(["corrupt-line", "cut-tail"])("2.1.332 with damage=%s: GREEN, the edit recorded as a step and kept in transcripts/", async (damage) => {
    const run = await runOnRelease(SCENARIO, "2.1.332", { damage });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result.verdict, verdictMessage(run)).toBe("GREEN");
    const edit = readRunRecord(path.join(run.runDir, "run.json")).steps.find((s) => s.kind === "edit-transcript")!;
    expect(edit.detail).toMatch(/^iso\/config\/projects\/.+\.jsonl: \d+ lines, \d+ bytes, sha256 \w+ → \d+ lines/);
    const copied = fs.readdirSync(path.join(run.runDir, "transcripts"), { recursive: true }).map(String);
    expect(copied.some((name) => name.endsWith(".jsonl"))).toBe(true);
  });

  it("the CHANGELOG 2.1.121 fix: 2.1.120 RED resume-refused, 2.1.121 GREEN", async () => {
    const red = await runOnRelease(SCENARIO, "2.1.120");
    expect(red.record.harnessError).toBeNull();
    expect(red.record.result.verdict, verdictMessage(red)).toBe("RED");
    expect(red.record.result.findings.map((f) => f.id)).toEqual(["resume-refused"]);
    const green = await runOnRelease(SCENARIO, "2.1.121");
    expect(green.record.result.verdict, verdictMessage(green)).toBe("GREEN");
  });
});
