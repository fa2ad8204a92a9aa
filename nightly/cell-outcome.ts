// A cell's outcome from its repeats: one verdict (flaky when they disagree), its expectation, and the tallies over cells.
import { combineRepeats } from "../pipeline/verdict-rules.ts";
import { expectationFor, meetsExpectation, type LedgerEntry } from "./ledger.ts";
import type { PlannedCell } from "./matrix.ts";
import type { Cell, RunSummary, Totals } from "./summary.ts";

// A release that lacks what a scenario needs is no surprise, unless a ledger entry says the scenario ran there.
function unsupportedAsExpected(verdict: Cell["verdict"], expectation: Cell["expectation"]): boolean {
  return verdict === "UNSUPPORTED" && expectation.source === "default";
}

export function cellFromRuns(planned: PlannedCell, runs: readonly RunSummary[], ledger: readonly LedgerEntry[]): Cell {
  const results = runs.map((run) => run.result);
  const { verdict, reason, flaky, rates, label } = combineRepeats(results);
  const expectation = expectationFor(ledger, planned);
  // A cell the ledger knows to race meets it when its runs disagree and include the expected verdict ("RED 8/10"
  // meets RED; so does "GREEN 2/3": at a rate of 0.8, early-stopped confirmation runs give that in 4 % of nightlies).
  const racesAsKnown = expectation.flaky === true && flaky && results.some((r) => r.verdict === expectation.verdict);
  const status =
    verdict === "ERROR" ? "error" : racesAsKnown || meetsExpectation(expectation, verdict, results) || unsupportedAsExpected(verdict, expectation) ? "expected" : "unexpected";
  const redFindings = [...new Set(results.flatMap((r) => r.findings.filter((f) => f.red).map((f) => f.id)))].sort();
  const counts = Object.fromEntries(rates.verdicts.map((r) => [r.what, r.count]));
  return { ...planned, verdict, reason, flaky, rate: label, counts, redFindings, expectation, status, runs: [...runs] };
}

export function totalsOf(cells: readonly Cell[]): Totals {
  const count = (predicate: (cell: Cell) => boolean) => cells.filter(predicate).length;
  return {
    cells: cells.length,
    GREEN: count((c) => c.verdict === "GREEN"),
    RED: count((c) => c.verdict === "RED"),
    INCONCLUSIVE: count((c) => c.verdict === "INCONCLUSIVE"),
    ERROR: count((c) => c.verdict === "ERROR"),
    UNSUPPORTED: count((c) => c.verdict === "UNSUPPORTED"),
    expected: count((c) => c.status === "expected"),
    unexpected: count((c) => c.status === "unexpected"),
    flaky: count((c) => c.flaky),
  };
}
