// What changed since the previous nightly — new RED, fixed, finding changed, flaky, newly published releases — and the exit code.
import { isDeepStrictEqual } from "node:util";
import type { Cell, CellChange, CellChangeKind, Change, Release, Summary } from "./summary.ts";
import { NIGHTLY_EXIT } from "./summary.ts";

// The share of a cell's runs with each verdict, from its counts (a summary written before rates has one verdict).
function shares(cell: Cell): { counts: Record<string, number>; n: number } {
  const counts: Record<string, number> = cell.counts ?? { [cell.verdict]: cell.runs.length || 1 };
  return { counts, n: Object.values(counts).reduce((a, b) => a + b, 0) };
}

// Whether two cells' rates differ beyond chance for some verdict: a two-sided two-proportion z-test at 5 % (|z| ≥ 1.96).
// RED 10/10 after RED 8/10 does not (a rate of 0.8 gives 10 of 10 in 11 % of nightlies); RED 10/10 after GREEN 10/10 does.
export function ratesDiffer(before: Cell, after: Cell): boolean {
  const a = shares(before);
  const b = shares(after);
  for (const verdict of new Set([...Object.keys(a.counts), ...Object.keys(b.counts)])) {
    const x = a.counts[verdict] ?? 0;
    const y = b.counts[verdict] ?? 0;
    const pooled = (x + y) / (a.n + b.n);
    const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.n + 1 / b.n));
    if (se > 0 && Math.abs(x / a.n - y / b.n) / se >= 1.96) return true;
  }
  return false;
}

function cellChangeKind(before: Cell | undefined, after: Cell): CellChangeKind | null {
  // A race the ledger knows, running as it is known to: not news, however its rate came out this time.
  if (after.flaky && after.expectation.flaky === true && after.status === "expected" && (!before || before.flaky || !ratesDiffer(before, after))) return null;
  // A cell that raced before: a change only when the rates differ beyond chance (a stable cell that starts to race
  // is news, below, as it always was).
  if (before?.flaky) {
    if (!ratesDiffer(before, after)) return null;
    return after.flaky ? "rate-changed" : after.verdict === "RED" ? "new-red" : after.verdict === "GREEN" ? "fixed" : "verdict-changed";
  }
  if (after.flaky) return "flaky";
  if (!before) return after.verdict === "RED" ? "new-red" : null;
  if (after.verdict === "RED" && before.verdict !== "RED") return "new-red";
  if (after.verdict === "GREEN" && before.verdict === "RED") return "fixed";
  if (after.verdict === "RED" && !isDeepStrictEqual(before.redFindings, after.redFindings)) return "finding-changed";
  if (after.verdict !== before.verdict) return "verdict-changed";
  return null;
}

// Cells match on their key; releases are new when published after the previous nightly started.
export function compareWithPrevious(cells: readonly Cell[], releases: readonly Release[], previous: Summary | null): Change[] {
  if (previous === null) return [];
  const before = new Map(previous.cells.map((cell) => [cell.key, cell]));
  const since = Date.parse(previous.startedAt);
  const changes: Change[] = releases
    .filter((r) => r.publishedAt !== null && Date.parse(r.publishedAt) > since)
    .map((r) => ({ kind: "new-release", version: r.version, publishedAt: r.publishedAt }));
  for (const cell of cells) {
    const old = before.get(cell.key);
    const kind = cellChangeKind(old, cell);
    if (kind === null) continue;
    const change: CellChange = {
      kind,
      key: cell.key,
      before: old ? { verdict: old.verdict, redFindings: old.redFindings } : null,
      after: { verdict: cell.verdict, redFindings: cell.redFindings },
      // A change the ledger expects (a release in a known-RED range) is news, not a regression; these never are.
      regression: cell.status === "unexpected" || kind === "finding-changed" || kind === "flaky",
    };
    changes.push(change);
  }
  return changes;
}

// Harness errors first: with cells missing, the rest of the answer is incomplete.
export function nightlyExitCode(cells: readonly Cell[], changes: readonly Change[]): 0 | 1 | 3 {
  if (cells.some((c) => c.status === "error")) return NIGHTLY_EXIT.harnessError;
  const regressed = cells.some((c) => c.status === "unexpected") || changes.some((c) => "regression" in c && c.regression);
  return regressed ? NIGHTLY_EXIT.regressed : NIGHTLY_EXIT.ok;
}
