// The words every report uses for a summary: headline, tally, expectations and changes, so they all say the same.
import type { Verdict } from "../core/verdict.ts";
import type { Expectation } from "../nightly/ledger.ts";
import type { Cell, Change, Summary } from "../nightly/summary.ts";

// "2026-11-30 16:14 UTC"
export function utc(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export function title(summary: Summary): string {
  const what = summary.kind === "run" ? `ccrepro run ${summary.cells[0]?.key ?? ""}` : "ccrepro nightly";
  const shard = summary.shard ? ` (shard ${summary.shard.index}/${summary.shard.count})` : "";
  return `${what}${shard} — ${utc(summary.startedAt)}`;
}

export function regressions(summary: Summary): Change[] {
  return summary.changes.filter((c) => "regression" in c && c.regression);
}

// One sentence a person reads first: is anything wrong, and what kind of wrong.
export function headline(summary: Summary): string {
  const { totals } = summary;
  const changed = regressions(summary).filter((c) => "key" in c && !summary.cells.some((cell) => cell.key === c.key && cell.status === "unexpected"));
  if (summary.exitCode === 3) return `harness errors in ${totals.ERROR} of ${totals.cells} cells — those cells have no verdict (exit 3)`;
  if (summary.exitCode === 1) {
    const parts = [totals.unexpected ? `${totals.unexpected} not as expected` : "", changed.length ? `${changed.length} changed since the previous nightly` : ""];
    return `${parts.filter(Boolean).join(", ")} (exit 1)`;
  }
  return `all ${totals.cells} cells as the ledger expects (exit 0)`;
}

export function tally(summary: Summary): string {
  const t = summary.totals;
  return [
    `${t.cells} cells: ${t.GREEN} GREEN, ${t.RED} RED, ${t.INCONCLUSIVE} INCONCLUSIVE, ${t.ERROR} ERROR${t.UNSUPPORTED ? `, ${t.UNSUPPORTED} UNSUPPORTED` : ""}`,
    `${t.expected} as expected, ${t.unexpected} not`,
    ...(t.flaky ? [`${t.flaky} flaky`] : []),
  ].join(" · ");
}

export function verdictText(verdict: Verdict, redFindings: readonly string[]): string {
  return redFindings.length ? `${verdict} ${redFindings.join(", ")}` : verdict;
}

export function cellVerdictText(cell: Cell): string {
  // A flaky cell shows its rate, "RED 8/10 (flaky)", where its summary has one.
  if (cell.flaky && cell.rate !== undefined) return `${cell.rate} (flaky)`;
  return `${verdictText(cell.verdict, cell.redFindings)}${cell.flaky ? " (flaky)" : ""}`;
}

export function expectationText(e: Expectation): string {
  return e.finding ? `${e.verdict} ${e.finding}` : e.verdict;
}

// Where the expectation comes from, said so a person knows what to edit.
export function expectationSource(e: Expectation): string {
  if (e.source === "default") return "no ledger entry: GREEN by default";
  if (e.source === "previous") return `the previous nightly, ${e.versions}: ${e.reason}`;
  return `${e.source === "config" ? "nightly config" : "scenario known list"}, ${e.versions}: ${e.reason}`;
}

export const CHANGE_LABEL: Record<Change["kind"], string> = {
  "new-red": "new RED",
  fixed: "fixed",
  "finding-changed": "finding changed",
  "verdict-changed": "verdict changed",
  flaky: "flaky",
  "rate-changed": "rate changed",
  "new-release": "new release",
};

export function changeSubject(change: Change): string {
  return "key" in change ? change.key : change.version;
}

export function changeDetail(change: Change): string {
  if (change.kind === "new-release") return change.publishedAt ? `published ${utc(change.publishedAt)}` : "published";
  const before = change.before ? verdictText(change.before.verdict, change.before.redFindings) : "not in the previous nightly";
  return `${before} → ${verdictText(change.after.verdict, change.after.redFindings)}`;
}

// A boundary drawn across releases that judged nothing (issue 42): "a range: between them 2.1.330 INCONCLUSIVE (why),
// …, judged neither side", for the sweep and atlas outputs and the release strip alike. A run of neighbours with one
// verdict is one span ("1.0.64–1.0.127 INCONCLUSIVE (11 measured: why; 40 assumed from them)"): an atlas names every
// release of a long unjudged stretch, most of them not run.
export function unjudgedRange(unjudged: readonly { version: string; verdict: string; reason: string; assumed?: boolean }[]): string {
  if (unjudged.length === 0) return "";
  const spans: (typeof unjudged)[number][][] = [];
  for (const release of unjudged) {
    const span = spans.at(-1);
    if (span && span[0]!.verdict === release.verdict) span.push(release);
    else spans.push([release]);
  }
  const spanText = (span: (typeof unjudged)[number][]) => {
    const [first] = span;
    if (span.length === 1) return `${first!.version} ${first!.verdict} (${first!.reason})`;
    const measured = span.filter((release) => !release.assumed);
    const reasons = [...new Set(measured.map((release) => release.reason))].join("; ");
    const assumed = span.length - measured.length;
    const why = [measured.length ? `${measured.length} measured: ${reasons}` : null, assumed ? `${assumed} assumed from them` : null].filter(Boolean).join("; ");
    return `${first!.version}–${span.at(-1)!.version} ${first!.verdict} (${why})`;
  };
  return `a range: between them ${spans.map(spanText).join(", ")}, judged neither side`;
}
