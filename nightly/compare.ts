// What changed since the previous nightly — new RED, fixed, finding changed, flaky, newly published releases — and the exit code.
import { isDeepStrictEqual } from "node:util";
import type { Cell, CellChange, CellChangeKind, Change, Release, Summary } from "./summary.ts";
import { NIGHTLY_EXIT } from "./summary.ts";

function cellChangeKind(before: Cell | undefined, after: Cell): CellChangeKind | null {
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
