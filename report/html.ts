// index.html: one self-contained page — the matrix, then per cell its findings with diffs and its timelines.
import { releaseStripSection } from "./release-strip.ts";
import path from "node:path";
import type { Finding, Verdict } from "../core/verdict.ts";
import type { Cell, RunSummary, Summary } from "../nightly/summary.ts";
import { renderCacheBars } from "./cache-bar.ts";
import { escapeMarkup as h } from "./escape.ts";
import { SCRIPT, STYLE } from "./html-assets.ts";
import { nightlyAtlasLines } from "./atlas-site.ts";
import type { ReportInput } from "./report-target.ts";
import type { TimelineLine } from "./request-timeline.ts";
import { loadRunView } from "./run-view.ts";
import { asciinemaAssets } from "./asciinema.ts";
import { RUN_SECTIONS_SCRIPT, RUN_SECTIONS_STYLE, runSections } from "./run-sections.ts";
import { findingTargetId } from "./swimlane-model.ts";
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

const cellId = (i: number) => `cell-${i}`;
// A coloured dot rather than an emoji: headless and minimal systems often lack an emoji font.
const dot = (verdict: Verdict) => `<span class="dot ${verdict}" title="${verdict}"></span>`;
const STATUS_MARK = { expected: "✓", unexpected: "✗", error: "!" } as const;

function linkTo(text: string | null): string {
  if (!text) return "";
  return /^https?:\/\//.test(text) ? ` <a href="${h(text)}">${h(text)}</a>` : ` <span class="muted">(${h(text)})</span>`;
}

function diffBlock(diff: string): string {
  const lines = diff.split("\n").map((line) => {
    const cls = line.startsWith("@@") ? "hunk" : line.startsWith("+") && !line.startsWith("+++") ? "add" : line.startsWith("-") && !line.startsWith("---") ? "del" : "";
    return cls ? `<span class="${cls}">${h(line)}</span>` : `${h(line)}\n`;
  });
  return `<pre class="diff">${lines.join("")}</pre>`;
}

function findingBlock(f: Finding, id?: string): string {
  const body = [`<div class="muted">at ${h(f.where)}</div>`];
  if (f.detail.length) body.push(`<pre class="detail">${h(f.detail.join("\n"))}</pre>`);
  if (f.diff) body.push(diffBlock(f.diff));
  return `<details class="finding${f.red ? " red" : ""}"${id === undefined ? "" : ` id="${h(id)}"`} data-finding="${h(f.id)}"><summary>${f.red ? "✗" : "·"} <code>${h(f.id)}</code> — ${h(f.title)}</summary>${body.join("")}</details>`;
}

function timelineBlock(kind: string, label: string, lines: readonly TimelineLine[]): string {
  const text = lines.map((l) => (l.boundary ? `<span class="boundary">${h(l.text)}</span>` : `${h(l.text)}\n`)).join("");
  const marks = lines.filter((l) => l.boundary).length;
  return `<details class="timeline ${kind}"><summary>${h(label)}${marks ? ` — ${marks} boundar${marks === 1 ? "y" : "ies"}` : ""}</summary><pre>${text}</pre></details>`;
}

// A page that embeds its runs (a single run's report, a nightly cell's page) counts the players it holds, so their
// script goes in once, and only when needed.
interface Embedding {
  players: number;
}

// Ids of one run's elements on a page that may hold several runs.
const runPrefix = (cellIndex: number, runIndex: number) => `c${cellIndex}r${runIndex}-`;

function runBlock(run: RunSummary, index: number, baseDir: string, embed: Embedding | null = null, prefix = ""): string {
  const parts = [
    `<div><b>run ${index + 1}</b>: ${dot(run.result.verdict)} ${h(run.result.verdict)} — ${h(run.result.reason)}</div>`,
    `<div class="muted">${run.dir === null ? "no run directory" : `<code>${h(run.dir)}</code>`}${run.wallMs === null ? "" : `, ${(run.wallMs / 1000).toFixed(1)} s`}</div>`,
  ];
  if (run.result.notes.length) parts.push(`<ul>${run.result.notes.map((n) => `<li>${h(n)}</li>`).join("")}</ul>`);
  // Embedded, the picture comes first and what its clicks open (findings, requests) below it.
  const sections = run.dir !== null && embed ? runSections(path.resolve(baseDir, run.dir), prefix) : null;
  if (sections && embed) {
    embed.players += sections.players;
    parts.push(sections.picture);
  }
  parts.push(...run.result.findings.map((f, i) => findingBlock(f, embed ? findingTargetId(prefix, i) : undefined)));
  if (sections) parts.push(sections.requests);
  if (run.dir !== null) {
    const view = loadRunView(path.resolve(baseDir, run.dir));
    if ("missing" in view) parts.push(`<div class="muted">timelines: ${h(view.missing)}</div>`);
    else {
      parts.push(...view.sessions.map((s) => timelineBlock("turns", `turn timeline — session ${s.label}`, s.lines.map((text) => ({ text, boundary: false })))));
      parts.push(...view.streams.map((s) => timelineBlock("requests", `requests — stream ${s.stream}`, s.lines)));
      parts.push(renderCacheBars(view.cache));
    }
  }
  return `<div class="run">${parts.join("\n")}</div>`;
}

// A nightly cell's own page (terminal replay, swimlane, requests), beside index.html: the index only links to it.
export const cellPagePath = (cell: Cell) => `cells/${cell.key.replace(/[^A-Za-z0-9._-]+/g, "_")}.html`;

function cellDetail(cell: Cell, i: number, baseDir: string, embed: Embedding | null = null): string {
  const e = cell.expectation;
  const page = embed || cell.runs.every((r) => r.dir === null) ? "" : `<div><a class="cell-page" href="${h(cellPagePath(cell))}">open this cell's full report</a> <span class="muted">— terminal replay, timeline picture, request bodies</span></div>`;
  return [
    `<details class="cell-detail" id="${cellId(i)}" data-verdict="${cell.verdict}" data-status="${cell.status}"${embed ? " open" : ""}>`,
    `<summary>${dot(cell.verdict)} ${h(cellVerdictText(cell))} ${STATUS_MARK[cell.status]} <code>${h(cell.key)}</code></summary>`,
    `<div>${cell.status === "expected" ? "as expected" : `<b>not as expected</b>`}: the ledger says ${h(expectationText(e))} — ${h(expectationSource(e))}${linkTo(e.link)}</div>`,
    page,
    ...cell.runs.map((run, r) => runBlock(run, r, baseDir, embed, runPrefix(i, r))),
    `</details>`,
  ].join("\n");
}

function matrix(summary: Summary): string {
  const versions = [...new Set(summary.cells.map((c) => c.version))];
  const rows = [...new Set(summary.cells.map((c) => JSON.stringify([c.scenario, c.paramsLabel])))].map((id) => {
    const [scenario, label] = JSON.parse(id) as [string, string];
    const tds = versions.map((v) => {
      const i = summary.cells.findIndex((c) => c.scenario === scenario && c.paramsLabel === label && c.version === v);
      const cell = summary.cells[i];
      if (!cell) return "<td></td>";
      const dots = cell.runs.length > 1 ? `<span class="dots">${cell.runs.map((r) => dot(r.result.verdict)).join("")}</span>` : "";
      return (
        `<td class="cell ${cell.verdict} ${cell.status}"><a href="#${cellId(i)}" data-cell="${cellId(i)}" title="${h(cell.reason)}">` +
        `<span class="status">${STATUS_MARK[cell.status]}</span>${cell.flaky && cell.rate !== undefined ? `${cell.rate} (flaky)` : cell.verdict}${cell.flaky && cell.rate === undefined ? " (flaky)" : ""}` +
        `<span class="findings">${h(cell.redFindings.join(", "))}</span>${dots}</a></td>`
      );
    });
    return `<tr><th>${h(scenario)}${label ? ` <code>${h(label)}</code>` : ""}</th>${tds.join("")}</tr>`;
  });
  return `<table class="matrix"><thead><tr><th>scenario</th>${versions.map((v) => `<th>${h(v)}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>
<p class="muted">✓ as the ledger expects · ✗ not as expected · ! harness error — click a cell for its findings and timelines.</p>`;
}

function table(head: readonly string[], rows: readonly string[][]): string {
  return `<table><thead><tr>${head.map((c) => `<th>${h(c)}</th>`).join("")}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
}

function page(heading: string, body: readonly string[], embed: Embedding | null): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(heading)}</title><style>${STYLE}${embed ? RUN_SECTIONS_STYLE : ""}</style>${embed?.players ? `\n${asciinemaAssets()}` : ""}</head>
<body>
${body.join("\n")}
<script>${SCRIPT}${embed ? RUN_SECTIONS_SCRIPT : ""}</script>
</body></html>
`;
}

// One nightly cell with everything its runs recorded embedded; written to cellPagePath(cell) beside index.html.
export function renderCellPage({ summary, baseDir }: ReportInput, i: number): string {
  const cell = summary.cells[i]!;
  const embed: Embedding = { players: 0 };
  const heading = `${cell.key} — ${title(summary)}`;
  const body = [`<div><a href="../index.html">← the nightly</a></div>`, `<h1>${h(heading)}</h1>`, cellDetail(cell, i, baseDir, embed)];
  return page(heading, body, embed);
}

export function renderHtml({ summary, baseDir, sweeps = [] }: ReportInput): string {
  // A single run's report embeds it whole; a nightly's index stays small and links to each cell's page.
  const embed: Embedding | null = summary.kind === "run" ? { players: 0 } : null;
  const body = [`<h1>${h(title(summary))}</h1>`, `<div class="banner exit-${summary.exitCode}">${h(headline(summary))}</div>`, `<div>${h(tally(summary))}</div>`];
  if (summary.previous) body.push(`<div class="muted">Compared with the nightly of ${h(utc(summary.previous.startedAt))} (<code>${h(summary.previous.path)}</code>).</div>`);
  if (summary.changes.length) {
    body.push(`<h2>Changes since the previous nightly</h2>`);
    body.push(table(["", "what", "change", "counts against"], summary.changes.map((c) => [h(CHANGE_LABEL[c.kind]), `<code>${h(changeSubject(c))}</code>`, h(changeDetail(c)), "regression" in c && c.regression ? "yes" : ""])));
  }
  const surprising = summary.cells.flatMap((c, i) => (c.status === "expected" ? [] : [{ c, i }]));
  if (surprising.length) {
    body.push(`<h2>Not as expected</h2>`);
    body.push(table(["cell", "got", "expected", "why that was expected"], surprising.map(({ c, i }) => [`<a href="#${cellId(i)}"><code>${h(c.key)}</code></a>`, `${dot(c.verdict)} ${h(cellVerdictText(c))}`, h(expectationText(c.expectation)), h(expectationSource(c.expectation)) + linkTo(c.expectation.link)])));
  }
  body.push(`<h2>Matrix</h2>`, matrix(summary), `<h2>Cells</h2>`, ...summary.cells.map((c, i) => cellDetail(c, i, baseDir, embed)));
  if (sweeps.length) body.push(`<h2>Sweeps</h2>`, ...sweeps.map((s) => releaseStripSection(s.file, s.dir, baseDir)));
  if (summary.atlas) {
    const atlas = nightlyAtlasLines(summary.atlas);
    body.push(`<h2>Atlas</h2>`, `<div><a href="${h(atlas.site)}">The atlas site</a> (kept in <code>${h(summary.atlas.dir)}</code>): ${h(atlas.head)}</div>`, `<ul>${atlas.entries.map((line) => `<li>${h(line)}</li>`).join("")}</ul>`);
  }
  return page(title(summary), body, embed);
}
