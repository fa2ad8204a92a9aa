// summary.md: changes and surprises first, then the matrix — sized for a CI job summary.
import type { Verdict } from "../core/verdict.ts";
import type { Cell, Summary } from "../nightly/summary.ts";
import { nightlyAtlasLines } from "./atlas-site.ts";
import type { ReportInput } from "./report-target.ts";
import {
  CHANGE_LABEL,
  cellVerdictText,
  changeDetail,
  changeSubject,
  expectationSource,
  expectationText,
  headline,
  tally,
  title,
  utc,
} from "./wording.ts";

// GitHub renders emoji everywhere; they make the matrix readable at a glance.
export const VERDICT_MARK: Record<Verdict, string> = { GREEN: "🟢", RED: "🔴", INCONCLUSIVE: "🟡", ERROR: "⚫", UNSUPPORTED: "⚪" };
const EXIT_MARK: Record<Summary["exitCode"], string> = { 0: "✅", 1: "❌", 3: "⚠️" };

// Table cells cannot hold pipes or line breaks.
const cellText = (text: string) => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
export const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;
// Free text from runs and ledgers: GitHub drops what looks like an HTML tag, e.g. <task-notification>.
export const prose = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");

function row(values: readonly string[]): string {
  return `| ${values.map(cellText).join(" | ")} |`;
}

export function table(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [row(head), row(head.map(() => "---")), ...rows.map(row)];
}

function link(text: string | null): string {
  if (!text) return "";
  return /^https?:\/\//.test(text) ? ` — [${text}](${text})` : ` — ${prose(text)}`;
}

// A RED cell's reason is its finding ids, already shown; other verdicts need their reason.
function got(cell: Cell): string {
  const text = `${VERDICT_MARK[cell.verdict]} ${cellVerdictText(cell)}`;
  return cell.verdict === "RED" || cell.verdict === "GREEN" ? text : `${text}: ${prose(cell.reason)}`;
}

function mark(cell: Cell): string {
  const status = cell.status === "expected" ? "✓" : cell.status === "unexpected" ? "✗" : "!";
  return `${VERDICT_MARK[cell.verdict]} ${cellVerdictText(cell)} ${status}`;
}

function matrix(summary: Summary): string[] {
  const versions = [...new Set(summary.cells.map((c) => c.version))];
  const rows = [...new Set(summary.cells.map((c) => `${c.scenario}\u0000${c.paramsLabel}`))].map((id) => {
    const [scenario, label] = id.split("\u0000") as [string, string];
    const name = label ? `${scenario} ${code(label)}` : scenario;
    return [name, ...versions.map((v) => {
      const cell = summary.cells.find((c) => c.scenario === scenario && c.paramsLabel === label && c.version === v);
      return cell ? mark(cell) : "";
    })];
  });
  return [...table(["scenario", ...versions], rows), "", "✓ as the ledger expects · ✗ not as expected · ! harness error"];
}

export function renderMarkdown({ summary }: ReportInput): string {
  const out = [`# ${title(summary)}`, "", `**${EXIT_MARK[summary.exitCode]} ${headline(summary)}**`, "", tally(summary)];
  if (summary.previous) out.push("", `Compared with the nightly of ${utc(summary.previous.startedAt)} (${code(summary.previous.path)}).`);
  else if (summary.kind === "nightly") out.push("", "No previous nightly to compare with.");

  if (summary.changes.length > 0) {
    out.push("", "## Changes since the previous nightly", "");
    out.push(...table(["", "what", "change", "counts against"], summary.changes.map((c) => [CHANGE_LABEL[c.kind], code(changeSubject(c)), changeDetail(c), "regression" in c && c.regression ? "yes" : ""])));
  }

  const surprising = summary.cells.filter((c) => c.status !== "expected");
  if (surprising.length > 0) {
    out.push("", "## Not as expected", "");
    out.push(...table(["cell", "got", "expected", "why that was expected"], surprising.map((c) => [code(c.key), got(c), expectationText(c.expectation), prose(expectationSource(c.expectation))])));
  }

  out.push("", "## Matrix", "", ...matrix(summary));

  // Like vite-ecosystem-ci's known failures: each entry once, with the cells it covers, its reason and its link.
  const entries = new Map<string, Cell[]>();
  for (const c of summary.cells.filter((c) => c.expectation.verdict !== "GREEN")) {
    const id = JSON.stringify([c.scenario, c.paramsLabel, c.expectation]);
    entries.set(id, [...(entries.get(id) ?? []), c]);
  }
  if (entries.size > 0) {
    out.push("", "## Expected failures (ledger)", "");
    for (const cells of entries.values()) {
      const { scenario, paramsLabel, expectation: e } = cells[0]!;
      const on = cells.map((c) => c.version).join(", ");
      out.push(`- ${code(paramsLabel ? `${scenario} ${paramsLabel}` : scenario)} on ${on}: ${expectationText(e)} — ${prose(e.reason)}${link(e.link)}`);
    }
  }

  if (summary.releases.length > 0 && summary.kind === "nightly") {
    out.push("", "## Releases", "");
    for (const word of summary.versionWords) out.push(`- ${code(word.word)} → ${word.versions.length ? word.versions.join(", ") : "no release"}`);
  }
  if (summary.atlas) {
    const atlas = nightlyAtlasLines(summary.atlas);
    out.push("", "## Atlas", "", `[The atlas site](${atlas.site}) (kept in ${code(summary.atlas.dir)}): ${atlas.head}`, "", ...atlas.entries.map((line) => `- ${prose(line)}`));
  }
  if (summary.mergedFrom.length > 0) out.push("", `Merged from ${summary.mergedFrom.map(code).join(", ")}.`);
  out.push("", `Started ${utc(summary.startedAt)}, took ${Math.round(summary.wallMs / 1000)} s. Open index.html beside this file for timelines and diffs.`);
  return `${out.join("\n")}\n`;
}
