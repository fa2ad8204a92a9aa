// A cell's outcome from its repeats: one verdict (flaky when they disagree), its expectation, and the tallies over cells.
import { combineRepeats } from "../pipeline/verdict-rules.ts";
import { scenarioByName } from "../pipeline/scenario-registry.ts";
import { expectationFor, meetsExpectation, type Expectation, type LedgerEntry } from "./ledger.ts";
import type { PlannedCell } from "./matrix.ts";
import type { Cell, RunSummary, Totals } from "./summary.ts";

// A release that lacks what a scenario needs is no surprise, unless a ledger entry says the scenario ran there.
function unsupportedAsExpected(verdict: Cell["verdict"], expectation: Cell["expectation"]): boolean {
  return verdict === "UNSUPPORTED" && expectation.source === "default";
}

// Verdicts a cell can be expected to have (ERROR never is; UNSUPPORTED is the release's, not the scenario's).
const EXPECTABLE = ["GREEN", "RED", "INCONCLUSIVE"] as const;

// The previous nightly as the ledger's last entry, for a cell that the config and the `known` lists say nothing of:
// it is expected as that nightly found it, so a RED nobody wrote down fails the night it appears (and a GREEN that
// was RED fails once too), and is reported, not failed, on the nights after. A plain GREEN is the default already.
// A night whose cell ended in a harness ERROR found nothing about claude, so it passes on what that night held from
// the one before it: a held RED survives an ERROR night instead of failing again as new the night after.
export function heldByPrevious(before: Cell | undefined): Expectation | null {
  if (before?.verdict === "ERROR") return before.expectation.source === "previous" ? before.expectation : null;
  if (!before || (before.verdict === "GREEN" && !before.flaky)) return null;
  // A cell that raced is expected to race again, with the verdict most of its runs had.
  const counted = (v: (typeof EXPECTABLE)[number]) => before.counts?.[v] ?? (before.verdict === v ? 1 : 0);
  const verdict = before.flaky ? [...EXPECTABLE].sort((a, b) => counted(b) - counted(a))[0]! : EXPECTABLE.find((v) => v === before.verdict);
  if (verdict === undefined || counted(verdict) === 0) return null;
  return {
    verdict,
    finding: null,
    reason: `it was ${before.rate ?? before.verdict}${before.redFindings.length ? ` (${before.redFindings.join(", ")})` : ""} then`,
    link: null,
    versions: before.version,
    source: "previous",
    ...(before.flaky ? { flaky: true } : {}),
  };
}

// `previous`: the previous nightly's cells by key, when there is one.
export function cellFromRuns(planned: PlannedCell, runs: readonly RunSummary[], ledger: readonly LedgerEntry[], previous?: ReadonlyMap<string, Cell>): Cell {
  const results = runs.map((run) => run.result);
  const { verdict, reason, flaky, rates, label } = combineRepeats(results);
  const written = expectationFor(ledger, planned);
  const expectation = written.source === "default" ? (heldByPrevious(previous?.get(planned.key)) ?? written) : written;
  // A cell the ledger knows to race meets it when its runs disagree and include the expected verdict ("RED 8/10"
  // meets RED; so does "GREEN 2/3": at a rate of 0.8, early-stopped confirmation runs give that in 4 % of nightlies).
  const racesAsKnown = expectation.flaky === true && flaky && results.some((r) => r.verdict === expectation.verdict);
  const status =
    verdict === "ERROR" ? "error" : racesAsKnown || meetsExpectation(expectation, verdict, results) || unsupportedAsExpected(verdict, expectation) ? "expected" : "unexpected";
  const redFindings = [...new Set(results.flatMap((r) => r.findings.filter((f) => f.red).map((f) => f.id)))].sort();
  const counts = Object.fromEntries(rates.verdicts.map((r) => [r.what, r.count]));
  const link = scenarioByName(planned.scenario)?.link;
  return { ...planned, ...(link ? { link } : {}), verdict, reason, flaky, rate: label, counts, redFindings, expectation, status, runs: [...runs] };
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
