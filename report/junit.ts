// junit.xml: one testcase per cell — not as expected is a failure, INCONCLUSIVE and UNSUPPORTED a skip with its reason, ERROR an error.
import type { Cell, Summary } from "../nightly/summary.ts";
import { escapeMarkup as x } from "./escape.ts";
import type { ReportInput } from "./report-target.ts";
import { cellVerdictText, changeDetail, expectationSource, expectationText, regressions } from "./wording.ts";

type TestcaseStatus = { kind: "pass" } | { kind: "failure" | "error"; message: string; type: string; body: string } | { kind: "skipped"; message: string };

function findingsText(cell: Cell): string {
  return cell.runs
    .flatMap((run, i) => [
      `run ${i + 1}: ${run.dir ?? "(no run directory)"} — ${run.result.verdict}: ${run.result.reason}`,
      ...run.result.findings.flatMap((f) => [`  ${f.red ? "✗" : "·"} ${f.id} — ${f.title}`, `    at ${f.where}`, ...(f.diff ? f.diff.split("\n").map((l) => `    ${l}`) : [])]),
    ])
    .join("\n");
}

function outcomeOf(cell: Cell, summary: Summary): TestcaseStatus {
  if (cell.verdict === "ERROR") return { kind: "error", type: "ERROR", message: cell.reason, body: findingsText(cell) };
  if (cell.verdict === "INCONCLUSIVE") return { kind: "skipped", message: `INCONCLUSIVE: ${cell.reason}` };
  if (cell.verdict === "UNSUPPORTED") return { kind: "skipped", message: `UNSUPPORTED: ${cell.reason}` };
  if (cell.status === "unexpected") {
    const message = `${cellVerdictText(cell)}, expected ${expectationText(cell.expectation)} (${expectationSource(cell.expectation)})`;
    return { kind: "failure", type: cell.verdict, message, body: findingsText(cell) };
  }
  const change = regressions(summary).find((c) => "key" in c && c.key === cell.key);
  if (change) return { kind: "failure", type: change.kind, message: `${change.kind} since the previous nightly: ${changeDetail(change)}`, body: findingsText(cell) };
  return { kind: "pass" };
}

const seconds = (cell: Cell) => cell.runs.reduce((sum, r) => sum + (r.wallMs ?? 0), 0) / 1000;

function testcase(cell: Cell, summary: Summary): string {
  const outcome = outcomeOf(cell, summary);
  const open = `    <testcase classname="ccrepro.${x(cell.scenario)}" name="${x(cell.key)}" time="${seconds(cell).toFixed(3)}">`;
  const inner =
    outcome.kind === "pass"
      ? []
      : outcome.kind === "skipped"
        ? [`      <skipped message="${x(outcome.message)}"/>`]
        : [`      <${outcome.kind} message="${x(outcome.message)}" type="${x(outcome.type)}">${x(outcome.body)}</${outcome.kind}>`];
  const runs = cell.runs.map((r, i) => `run ${i + 1}: ${r.dir ?? "(no run directory)"} — ${r.result.verdict}`);
  const out = `      <system-out>${x([`${cellVerdictText(cell)}, ${cell.status}: ${cell.reason}`, ...runs].join("\n"))}</system-out>`;
  return [open, ...inner, out, "    </testcase>"].join("\n");
}

function counts(cells: readonly Cell[], summary: Summary) {
  const kinds = cells.map((c) => outcomeOf(c, summary).kind);
  const n = (k: TestcaseStatus["kind"]) => kinds.filter((kind) => kind === k).length;
  const time = cells.reduce((sum, c) => sum + seconds(c), 0).toFixed(3);
  return `tests="${cells.length}" failures="${n("failure")}" errors="${n("error")}" skipped="${n("skipped")}" time="${time}"`;
}

// One testsuite per scenario, so CI test views group a scenario's releases together.
export function renderJunit({ summary }: ReportInput): string {
  const scenarios = [...new Set(summary.cells.map((c) => c.scenario))];
  const suites = scenarios.map((scenario) => {
    const cells = summary.cells.filter((c) => c.scenario === scenario);
    return [
      `  <testsuite name="${x(scenario)}" ${counts(cells, summary)} timestamp="${x(summary.startedAt)}">`,
      ...cells.map((c) => testcase(c, summary)),
      "  </testsuite>",
    ].join("\n");
  });
  return [`<?xml version="1.0" encoding="UTF-8"?>`, `<testsuites name="ccrepro ${summary.kind}" ${counts(summary.cells, summary)}>`, ...suites, "</testsuites>", ""].join("\n");
}
