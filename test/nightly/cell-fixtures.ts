// Cells judged as a nightly judges them, for tests of the comparison and of what reports make of it: one scenario, a
// ledger that expects RED (finding a) on >=2.1.300 and GREEN elsewhere, results given by verdict and finding ids.
import { finding, type CheckResult, type Verdict } from "../../core/verdict.ts";
import { assembleSummary } from "../../nightly/assemble.ts";
import { cellFromRuns } from "../../nightly/cell-outcome.ts";
import { parseNightlyConfig } from "../../nightly/config.ts";
import { buildLedger } from "../../nightly/ledger.ts";
import { cellKey } from "../../nightly/matrix.ts";
import type { Cell, Summary } from "../../nightly/summary.ts";

export const SCENARIO = "resume-orphaned-background-task";
// RED with finding a is expected on >=2.1.300; everything else defaults to GREEN.
const ledger = buildLedger(
  parseNightlyConfig(
    { versions: ["latest"], seedFromScenarios: false, expectations: [{ scenario: SCENARIO, versions: ">=2.1.300", verdict: "RED", finding: "a", reason: "open bug" }] },
    "test.json",
  ),
);

export const result = (verdict: Verdict, ...ids: string[]): CheckResult => ({
  verdict,
  reason: ids.join(", ") || verdict.toLowerCase(),
  findings: ids.map((id) => finding({ id, red: true, title: id, where: "w" })),
  notes: [],
});

// The cell judged on a night whose previous nightly had `before`.
export function cellAfter(before: readonly Cell[], version: string, ...results: CheckResult[]): Cell {
  const planned = { key: cellKey(SCENARIO, "", version), scenario: SCENARIO, params: {}, paramsLabel: "", version };
  return cellFromRuns(planned, results.map((r) => ({ dir: null, result: r, wallMs: 1 })), ledger, new Map(before.map((c) => [c.key, c])));
}

export function cell(version: string, ...results: CheckResult[]): Cell {
  return cellAfter([], version, ...results);
}

// A nightly of these cells, compared with `previous` when given.
export function summaryOf(cells: Cell[], startedAt = "2026-11-01T00:00:00.000Z", previous: Summary | null = null): Summary {
  return assembleSummary({
    kind: "nightly",
    startedAt,
    endedAt: startedAt,
    config: null,
    versionWords: [],
    releases: [],
    shard: null,
    mergedFrom: [],
    cells,
    previous: previous ? { summary: previous, path: "previous/summary.json" } : null,
  });
}
