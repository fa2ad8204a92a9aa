// The release strip: one cell per release of a sweep, coloured by verdict and labelled with its red findings,
// boundaries marked where the outcome changes, each cell linking to its run. Self-contained HTML, inline SVG.
import { unjudgedRange } from "./wording.ts";
import fs from "node:fs";
import path from "node:path";
import type { Verdict } from "../core/verdict.ts";
import { outcomeOf, type ReleaseResult, type SweepFile } from "../sweep/sweep-file.ts";
import { escapeMarkup } from "./escape.ts";
import { COLOURS } from "./swimlane.ts";

export const STRIP_FILE = "strip.html";
const NO_RESULT = "#eaeef2";
const CELL_W = 64;
const CELL_H = 54;
const GAP = 2;
const PAD = 12;
const LABEL_H = 16;

// A run's page when one was written beside it, else the run directory; relative to the page holding the strip.
function runHref(result: ReleaseResult, baseDir: string, pageDir: string): string | null {
  const dir = result.runs.find((r) => r.dir !== null)?.dir;
  return dir ? runDirHref(dir, baseDir, pageDir) : null;
}

// A run directory (relative to `baseDir`, or absolute) as a link from a page in `pageDir`: its report page when one
// was written beside it, else the directory. The atlas site links its cells the same way.
export function runDirHref(dir: string, baseDir: string, pageDir: string): string {
  const absolute = path.resolve(baseDir, dir);
  const page = ["index.html", "report.html"].map((f) => path.join(absolute, f)).find((f) => fs.existsSync(f));
  const target = path.relative(pageDir, page ?? absolute);
  return (page ? target : `${target}/`).split(path.sep).join("/");
}

// The label under the verdict: the red findings, shortened to fit the cell; the tooltip has them whole.
function findingLabel(result: ReleaseResult): string {
  // A flaky release shows its rate ("RED 2/3"), from its runs' verdicts, by the rule in pipeline/rates.ts.
  if (result.flaky) {
    const reds = result.runs.filter((r) => r.verdict === "RED").length;
    const greens = result.runs.filter((r) => r.verdict === "GREEN").length;
    return reds >= greens ? `RED ${reds}/${result.runs.length}` : `GREEN ${greens}/${result.runs.length}`;
  }
  if (result.red.length === 0) return "";
  const first = result.red[0]!.replace(/^notification-/, "");
  return `${first.length > 10 ? `${first.slice(0, 9)}…` : first}${result.red.length > 1 ? ` +${result.red.length - 1}` : ""}`;
}

// The strip's SVG alone, for embedding in another page (the nightly report). `baseDir`: where the sweep's run
// directories are relative to; `pageDir`: where the page that embeds it will be.
export function releaseStripSvg(sweep: SweepFile, baseDir: string, pageDir: string): string {
  const results = new Map(sweep.results.map((r) => [r.version, r]));
  const boundaryAfter = new Set(sweep.boundaries.map((b) => b.after));
  const width = PAD * 2 + sweep.versions.length * (CELL_W + GAP);
  const height = PAD * 2 + CELL_H + LABEL_H * 2;
  const cells = sweep.versions.map((version, i) => {
    const x = PAD + i * (CELL_W + GAP);
    const y = PAD + LABEL_H;
    const result = results.get(version);
    const verdict: Verdict | null = result?.verdict ?? null;
    const fill = verdict ? COLOURS[verdict] : NO_RESULT;
    const title = result ? `${version}: ${outcomeOf(result)} — ${result.reason}` : `${version}: no result`;
    const text = result ? "#ffffff" : "#57606a";
    // ERROR is a harness failure, not an answer about the release: hatched, so it never reads as a verdict colour.
    const hatch = verdict === "ERROR" ? `<rect x="${x}" y="${y}" width="${CELL_W}" height="${CELL_H}" fill="url(#error-hatch)"/>` : "";
    const body =
      `<rect class="cell" data-version="${escapeMarkup(version)}" data-verdict="${verdict ?? "none"}" x="${x}" y="${y}" width="${CELL_W}" height="${CELL_H}" fill="${fill}" rx="3"><title>${escapeMarkup(title)}</title></rect>${hatch}` +
      `<text x="${x + CELL_W / 2}" y="${y + 18}" fill="${text}" font-size="11" text-anchor="middle">${escapeMarkup(version)}</text>` +
      `<text x="${x + CELL_W / 2}" y="${y + 33}" fill="${text}" font-size="10" font-weight="bold" text-anchor="middle">${verdict ?? "—"}</text>` +
      `<text class="finding" x="${x + CELL_W / 2}" y="${y + 47}" fill="${text}" font-size="9" text-anchor="middle">${escapeMarkup(result ? findingLabel(result) : "")}</text>`;
    const href = result ? runHref(result, baseDir, pageDir) : null;
    const cell = href ? `<a class="run-link" href="${escapeMarkup(href)}">${body}</a>` : body;
    const mark = boundaryAfter.has(version)
      ? `<line class="boundary" data-after="${escapeMarkup(version)}" x1="${x - GAP / 2}" x2="${x - GAP / 2}" y1="${PAD}" y2="${y + CELL_H + LABEL_H}" stroke="#0969da" stroke-width="3"/>` +
        `<text x="${x - GAP / 2}" y="${PAD + 11}" font-size="10" fill="#0969da" text-anchor="middle">▼</text>`
      : "";
    return cell + mark;
  });
  return (
    `<svg class="release-strip" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif">` +
    `<defs><pattern id="error-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" stroke="#ffffff" stroke-width="2" opacity="0.45"/></pattern></defs>` +
    cells.join("") +
    `</svg>`
  );
}

function boundaryList(sweep: SweepFile): string {
  if (sweep.boundaries.length === 0) return "<p>No boundary: every release with a result has the same outcome.</p>";
  const items = sweep.boundaries.map((b) => {
    const gap = b.unknownBetween.length ? ` (no result yet for ${b.unknownBetween.length} release(s) between: ${escapeMarkup(b.unknownBetween.join(", "))})` : "";
    const unjudged = b.unjudgedBetween.length ? ` (${escapeMarkup(unjudgedRange(b.unjudgedBetween))})` : "";
    return `<li class="boundary-pair">${escapeMarkup(b.before)} → ${escapeMarkup(b.after)}: ${escapeMarkup(b.from)} → ${escapeMarkup(b.to)}${gap}${unjudged}</li>`;
  });
  return `<ul>${items.join("")}</ul>`;
}

// A section for a page that already has its own <html>: heading, strip, boundary list.
export function releaseStripSection(sweep: SweepFile, baseDir: string, pageDir: string): string {
  const params = Object.keys(sweep.params).length ? ` ${escapeMarkup(JSON.stringify(sweep.params))}` : "";
  const done = `${sweep.results.length} of ${sweep.versions.length} releases have a result`;
  return (
    `<section class="sweep"><h2>${escapeMarkup(sweep.scenario)}${params} on ${escapeMarkup(sweep.versionsWord)}</h2>` +
    `<p>${done}; repeat ${sweep.repeat}.</p><div style="overflow-x:auto">${releaseStripSvg(sweep, baseDir, pageDir)}</div>${boundaryList(sweep)}</section>`
  );
}

export function releaseStripPage(sweep: SweepFile, baseDir: string, pageDir: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>sweep: ${escapeMarkup(sweep.scenario)}</title><style>body{font-family:system-ui,sans-serif;margin:24px;color:#1f2328}a .cell:hover{opacity:.8}</style></head>
<body>${releaseStripSection(sweep, baseDir, pageDir)}</body></html>
`;
}

export function writeReleaseStrip(sweep: SweepFile, dir: string): string {
  const file = path.join(dir, STRIP_FILE);
  fs.writeFileSync(file, releaseStripPage(sweep, dir, dir));
  return file;
}
