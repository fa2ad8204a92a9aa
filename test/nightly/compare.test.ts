// A cell's verdict from its repeats, the comparison with the previous nightly, and the exit code they give.
import { describe, expect, it } from "vitest";
import { compareWithPrevious, nightlyExitCode } from "../../nightly/compare.ts";
import type { Cell } from "../../nightly/summary.ts";
import { cell, cellAfter, result, SCENARIO, summaryOf } from "./cell-fixtures.ts";

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

describe("the previous nightly as the ledger's last entry", () => {
  // The rule the CI action fails by (docs/ci.md): what nothing written down expects fails the night it changes, once.
  const exitAfter = (before: readonly Cell[], ...now: Cell[]) => nightlyExitCode(now, compareWithPrevious(now, [], before.length > 0 ? summaryOf([...before]) : null));

  it("fails a new RED, then reports it without failing while it stays", () => {
    const first = cellAfter([], "2.1.290", result("RED", "a"));
    expect(first).toMatchObject({ status: "unexpected", expectation: { source: "default" } });
    expect(exitAfter([], first)).toBe(1);
    const second = cellAfter([first], "2.1.290", result("RED", "a"));
    expect(second).toMatchObject({ status: "expected", expectation: { source: "previous", verdict: "RED", versions: "2.1.290", reason: "it was RED (a) then" } });
    expect(exitAfter([first], second)).toBe(0);
  });

  it("fails a GREEN that was RED, and a RED whose findings changed", () => {
    const red = cellAfter([], "2.1.290", result("RED", "a"));
    const green = cellAfter([red], "2.1.290", result("GREEN"));
    expect(green).toMatchObject({ status: "unexpected", expectation: { source: "previous", verdict: "RED" } });
    expect(exitAfter([red], green)).toBe(1);
    expect(exitAfter([red], cellAfter([red], "2.1.290", result("RED", "b")))).toBe(1);
  });

  it("leaves the config's and the known lists' entries first, and takes nothing from a plain GREEN or an ERROR that held nothing", () => {
    // The config expects RED on >=2.1.300: a GREEN there fails every night, whatever the night before found.
    const green = cellAfter([], "2.1.300", result("GREEN"));
    expect(cellAfter([green], "2.1.300", result("GREEN"))).toMatchObject({ status: "unexpected", expectation: { source: "config" } });
    const error = cellAfter([], "2.1.290", result("ERROR"));
    expect(error.expectation.source).toBe("default");
    expect(cellAfter([error], "2.1.290", result("RED", "a"))).toMatchObject({ status: "unexpected", expectation: { source: "default" } });
    const plain = cellAfter([], "2.1.290", result("GREEN"));
    expect(cellAfter([plain], "2.1.290", result("GREEN")).expectation.source).toBe("default");
  });

  it("keeps a held RED through nights of harness errors: the RED after them is reported, not failed", () => {
    const first = cellAfter([], "2.1.290", result("RED", "a"));
    const held = cellAfter([first], "2.1.290", result("RED", "a"));
    const error = cellAfter([held], "2.1.290", result("ERROR"));
    expect(error).toMatchObject({ status: "error", expectation: { source: "previous", verdict: "RED" } });
    expect(exitAfter([held], error)).toBe(3);
    const again = cellAfter([cellAfter([error], "2.1.290", result("ERROR"))], "2.1.290", result("RED", "a"));
    expect(again).toMatchObject({ status: "expected", expectation: { source: "previous", verdict: "RED", reason: "it was RED (a) then" } });
    expect(exitAfter([error], cellAfter([error], "2.1.290", result("RED", "a")))).toBe(0);
    // What the ERROR night held still decides: a GREEN after it is a GREEN that was RED.
    expect(exitAfter([error], cellAfter([error], "2.1.290", result("GREEN")))).toBe(1);
  });

  it("expects a cell that raced to race again, with the verdict most of its runs had", () => {
    const raced = cellAfter([], "2.1.290", result("RED", "a"), result("RED", "a"), result("GREEN"));
    const again = cellAfter([raced], "2.1.290", result("GREEN"), result("RED", "a"));
    expect(again).toMatchObject({ flaky: true, status: "expected", expectation: { source: "previous", verdict: "RED", flaky: true } });
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
