// A cell's verdict from its repeats, the comparison with the previous nightly, and the exit code they give.
import { describe, expect, it } from "vitest";
import { finding, type CheckResult, type Verdict } from "../../core/verdict.ts";
import { assembleSummary } from "../../nightly/assemble.ts";
import { cellFromRuns } from "../../nightly/cell-outcome.ts";
import { compareWithPrevious, nightlyExitCode } from "../../nightly/compare.ts";
import { parseNightlyConfig } from "../../nightly/config.ts";
import { buildLedger } from "../../nightly/ledger.ts";
import { cellKey } from "../../nightly/matrix.ts";
import type { Cell, Summary } from "../../nightly/summary.ts";

const SCENARIO = "resume-orphaned-background-task";
// RED with prompt-settled-by-extra-result is expected on >=2.1.300; everything else defaults to GREEN.
const ledger = buildLedger(
  parseNightlyConfig(
    { versions: ["latest"], seedFromScenarios: false, expectations: [{ scenario: SCENARIO, versions: ">=2.1.300", verdict: "RED", finding: "a", reason: "open bug" }] },
    "test.json",
  ),
);

const result = (verdict: Verdict, ...ids: string[]): CheckResult => ({
  verdict,
  reason: ids.join(", ") || verdict.toLowerCase(),
  findings: ids.map((id) => finding({ id, red: true, title: id, where: "w" })),
  notes: [],
});

function cell(version: string, ...results: CheckResult[]): Cell {
  const planned = { key: cellKey(SCENARIO, "", version), scenario: SCENARIO, params: {}, paramsLabel: "", version };
  return cellFromRuns(planned, results.map((r) => ({ dir: null, result: r, wallMs: 1 })), ledger);
}

function summaryOf(cells: Cell[], startedAt = "2026-11-01T00:00:00.000Z"): Summary {
  return assembleSummary({ kind: "nightly", startedAt, endedAt: startedAt, config: null, versionWords: [], releases: [], shard: null, mergedFrom: [], cells, previous: null });
}

describe("cellFromRuns", () => {
  it("gives agreeing repeats their verdict and judges it against the ledger", () => {
    expect(cell("2.1.332", result("RED", "a"), result("RED", "a"))).toMatchObject({ verdict: "RED", flaky: false, status: "expected", redFindings: ["a"] });
    expect(cell("2.1.281", result("RED", "a"))).toMatchObject({ status: "unexpected", expectation: { source: "default" } });
    expect(cell("2.1.332", result("RED", "b"))).toMatchObject({ status: "unexpected" });
  });

  it("makes disagreeing repeats INCONCLUSIVE and flaky, and any ERROR the cell's ERROR", () => {
    expect(cell("2.1.281", result("GREEN"), result("RED", "a"))).toMatchObject({ verdict: "INCONCLUSIVE", flaky: true, status: "unexpected", reason: "repeats disagree: GREEN, RED" });
    expect(cell("2.1.332", result("RED", "a"), result("ERROR"))).toMatchObject({ verdict: "ERROR", flaky: false, status: "error" });
  });
});

describe("compareWithPrevious", () => {
  const previous = summaryOf([
    cell("2.1.281", result("GREEN")),
    cell("2.1.290", result("RED", "a")),
    cell("2.1.300", result("RED", "a")),
    cell("2.1.310", result("RED", "a")),
    cell("2.1.320", result("GREEN")),
  ]);

  it("names each kind of change and whether it counts against the nightly", () => {
    const now = [
      cell("2.1.281", result("GREEN")), // unchanged
      cell("2.1.290", result("GREEN")), // fixed
      cell("2.1.300", result("RED", "a", "b")), // finding changed, still expected RED with a
      cell("2.1.310", result("INCONCLUSIVE")), // verdict changed
      cell("2.1.320", result("GREEN"), result("RED", "x")), // flaky
      cell("2.1.330", result("RED", "a")), // new cell, RED as the ledger expects
    ];
    const releases = [
      { version: "2.1.320", publishedAt: "2026-10-01T00:00:00.000Z" },
      { version: "2.1.330", publishedAt: "2026-11-02T00:00:00.000Z" },
    ];
    const changes = compareWithPrevious(now, releases, previous);
    expect(changes).toEqual([
      { kind: "new-release", version: "2.1.330", publishedAt: "2026-11-02T00:00:00.000Z" },
      { kind: "fixed", key: `${SCENARIO}@2.1.290`, before: { verdict: "RED", redFindings: ["a"] }, after: { verdict: "GREEN", redFindings: [] }, regression: false },
      { kind: "finding-changed", key: `${SCENARIO}@2.1.300`, before: { verdict: "RED", redFindings: ["a"] }, after: { verdict: "RED", redFindings: ["a", "b"] }, regression: true },
      { kind: "verdict-changed", key: `${SCENARIO}@2.1.310`, before: { verdict: "RED", redFindings: ["a"] }, after: { verdict: "INCONCLUSIVE", redFindings: [] }, regression: true },
      { kind: "flaky", key: `${SCENARIO}@2.1.320`, before: { verdict: "GREEN", redFindings: [] }, after: { verdict: "INCONCLUSIVE", redFindings: ["x"] }, regression: true },
      { kind: "new-red", key: `${SCENARIO}@2.1.330`, before: null, after: { verdict: "RED", redFindings: ["a"] }, regression: false },
    ]);
  });

  it("reports nothing without a previous nightly", () => {
    expect(compareWithPrevious([cell("2.1.281", result("RED", "a"))], [], null)).toEqual([]);
  });
});

describe("nightlyExitCode", () => {
  it("is 0 when everything is as expected, 1 for anything unexpected or a regression, 3 for harness errors", () => {
    const expected = [cell("2.1.281", result("GREEN")), cell("2.1.332", result("RED", "a"))];
    expect(nightlyExitCode(expected, [])).toBe(0);
    // An expected RED whose findings grew is still a change someone has to look at.
    expect(nightlyExitCode(expected, [{ kind: "finding-changed", key: "k", before: null, after: { verdict: "RED", redFindings: [] }, regression: true }])).toBe(1);
    expect(nightlyExitCode(expected, [{ kind: "new-release", version: "2.1.400", publishedAt: null }])).toBe(0);
    expect(nightlyExitCode([...expected, cell("2.1.290", result("RED", "a"))], [])).toBe(1);
    expect(nightlyExitCode([...expected, cell("2.1.290", result("RED", "a")), cell("2.1.295", result("ERROR"))], [])).toBe(3);
  });

  it("is what assembleSummary records, with the totals", () => {
    const s = summaryOf([cell("2.1.281", result("GREEN")), cell("2.1.290", result("RED", "a")), cell("2.1.295", result("GREEN"), result("RED", "a"))]);
    expect(s.exitCode).toBe(1);
    expect(s.totals).toEqual({ cells: 3, GREEN: 1, RED: 1, INCONCLUSIVE: 1, ERROR: 0, UNSUPPORTED: 0, expected: 1, unexpected: 2, flaky: 1 });
  });
});
