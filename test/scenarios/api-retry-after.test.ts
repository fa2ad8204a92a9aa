// api-retry-after's check on the recorded runs of both sides of its boundary (test/fixtures/runs/README.md):
// 2.1.92 waits out a 429's retry-after: 61 and succeeds; 2.1.94 gives up at once and exits 1.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { recordedRun } from "../fixtures/runs/edit-run.ts";

function check(dir: string, params: Record<string, unknown>) {
  const scenario = findScenario("api-retry-after")!;
  const result = scenario.check(loadRecordings(recordedRun(dir)), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id) };
}

describe("api-retry-after's check at the 2.1.92 → 2.1.94 boundary (retry-after: 61)", () => {
  it("2.1.92: GREEN, the retry came about 61 s after the 429", () => {
    const green = check("retry-after-61-waited-2.1.92", { retryAfter: 61 });
    expect(green.verdict).toBe("GREEN");
    expect(green.ids).toEqual([]);
    const gap = Number(/gaps ([\d.]+) s/.exec(green.notes?.join(" ") ?? "")?.[1]);
    expect(gap).toBeGreaterThan(60.5);
    expect(gap).toBeLessThan(70);
  });

  it("2.1.94: RED, claude exited 1 after the one 429 without a retry", () => {
    const red = check("retry-after-61-gave-up-2.1.94", { retryAfter: 61 });
    expect(red.verdict).toBe("RED");
    expect(red.ids).toEqual(["retryable-error-not-retried"]);
    expect(red.findings[0]!.where).toMatch(/exit 1/);
  });

  it("reads the 2.1.92 run as not honouring a longer retry-after than it waited", () => {
    expect(check("retry-after-61-waited-2.1.92", { retryAfter: 90 }).ids).toEqual(["retry-after-not-honoured"]);
  });
});
