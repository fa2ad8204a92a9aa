// resume-history-lost on a cached release: the scenario's own step damages session 1's transcript (a line that is not
// JSON after the first answer, or a row cut off at the end), and the resumed request still carries every message.
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
});
