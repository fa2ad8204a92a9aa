// The atlas as a static site, built offline from atlas.json: index.html has a row per scenario (and parameter
// variant) on one common release axis, strips coloured by verdict (measured cells solid and linked to their run,
// assumed ones pale), boundaries marked, findings on hover; one page per scenario has its known list, its source and
// its boundaries with the runs that prove them. Nothing is loaded from the network.
import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { CHECKED_IN_ATLAS, type AtlasCell, type AtlasEntry, type AtlasFile, type AtlasInterval } from "../atlas/atlas-file.ts";
import { SCENARIOS } from "../scenarios/index.ts";
import type { Scenario } from "../kit/scenario.ts";
import type { Summary } from "../nightly/summary.ts";
import { escapeMarkup } from "./escape.ts";
import { runDirHref } from "./release-strip.ts";
import { COLOURS } from "./swimlane.ts";
import { unjudgedRange } from "./wording.ts";

export const ATLAS_SITE_DIR = "site";
const NONE = "#eaeef2";
const CELL_W = 14;
const ROW_H = 26;
const AXIS_H = 56;
const LABEL_W = 0;

type ScenarioInfo = Pick<Scenario, "name" | "summary" | "source" | "known">;

const variantLabel = (entry: AtlasEntry) => `${entry.scenario}${Object.keys(entry.params).length ? ` ${JSON.stringify(entry.params)}` : ""}${entry.driver === "headless" ? "" : ` (${entry.driver})`}`;
export const scenarioPage = (name: string) => `scenario-${name.replace(/[^\w.-]/g, "_")}.html`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeMarkup(title)}</title><style>
body{font-family:system-ui,sans-serif;margin:24px;color:#1f2328}table{border-collapse:collapse}td,th{padding:3px 8px;text-align:left;border-bottom:1px solid #d0d7de;vertical-align:top}
.row-label{font-size:13px;min-width:240px;max-width:300px;overflow-wrap:anywhere}.row-label>div{width:240px}a .cell:hover{stroke:#1f2328;stroke-width:1.5}.legend span{display:inline-block;padding:2px 8px;margin-right:6px;color:#fff;border-radius:3px;font-size:12px}
</style></head><body>${body}</body></html>
`;
}

function cellTitle(version: string, interval: AtlasInterval | undefined, cell: AtlasCell | undefined): string {
  if (cell) {
    const red = cell.red.length ? `; red: ${cell.red.join(", ")}` : "";
    return `${version}: ${cell.label}${red} (measured, ${cell.why}${cell.runs.every((r) => r.reused) ? ", reused" : ""}) — ${cell.reason}`;
  }
  if (!interval || interval.state === "unknown") return `${version}: not measured, no answer around it`;
  return `${version}: ${interval.state} (assumed: between ${interval.first} and ${interval.last}, measured ${interval.measured.join(", ")})`;
}

// One entry's strip on `axis`; releases outside its range are blank. Links are relative to `pageDir`.
function strip(entry: AtlasEntry, axis: readonly string[], atlasDir: string, pageDir: string): string {
  const cells = new Map(entry.cells.map((c) => [c.version, c]));
  const intervalOf = new Map(entry.intervals.flatMap((i) => [...i.measured, ...i.assumed].map((v) => [v, i] as const)));
  const after = new Set(entry.boundaries.map((b) => b.after));
  const parts = axis.map((version, x0) => {
    const x = LABEL_W + x0 * CELL_W;
    const cell = cells.get(version);
    const interval = intervalOf.get(version);
    const inRange = entry.versions.includes(version);
    const verdict = cell?.verdict ?? (interval && interval.state !== "unknown" ? interval.verdict : null);
    const fill = verdict ? COLOURS[verdict] : NONE;
    const kind = !inRange ? "outside" : cell ? "measured" : interval && interval.state !== "unknown" ? "assumed" : "unknown";
    const opacity = kind === "assumed" ? 0.4 : 1;
    const flaky = (cell?.flaky ?? interval?.flaky) ? ` stroke="#8250df" stroke-dasharray="2 2" stroke-width="2"` : "";
    const rect =
      `<rect class="cell" data-version="${escapeMarkup(version)}" data-kind="${kind}" data-verdict="${verdict ?? "none"}" x="${x + 1}" y="2" width="${CELL_W - 2}" height="${ROW_H - 4}" fill="${fill}" fill-opacity="${opacity}"${flaky} rx="2">` +
      `<title>${escapeMarkup(inRange ? cellTitle(version, interval, cell) : `${version}: outside this atlas's range`)}</title></rect>`;
    // Only a run that is there: a checked-in atlas keeps its proofs, not every run it made.
    const dir = cell?.runs.find((r) => r.dir !== null && fs.existsSync(path.resolve(atlasDir, r.dir)))?.dir;
    const linked = dir ? `<a class="run-link" href="${escapeMarkup(runDirHref(dir, atlasDir, pageDir))}">${rect}</a>` : rect;
    const mark = after.has(version) ? `<line class="boundary" data-after="${escapeMarkup(version)}" x1="${x}" x2="${x}" y1="0" y2="${ROW_H}" stroke="#0969da" stroke-width="3"/>` : "";
    return linked + mark;
  });
  const width = LABEL_W + axis.length * CELL_W;
  return `<svg class="atlas-strip" data-scenario="${escapeMarkup(entry.scenario)}" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${ROW_H}" viewBox="0 0 ${width} ${ROW_H}">${parts.join("")}</svg>`;
}

function axisSvg(axis: readonly string[]): string {
  const width = axis.length * CELL_W;
  const labels = axis.map((v, i) => {
    const x = i * CELL_W + CELL_W / 2;
    return `<text class="release" x="${x}" y="${AXIS_H - 4}" font-size="10" transform="rotate(-60 ${x} ${AXIS_H - 4})">${escapeMarkup(v)}</text>`;
  });
  return `<svg class="atlas-axis" xmlns="http://www.w3.org/2000/svg" width="${width + 40}" height="${AXIS_H}" viewBox="0 0 ${width + 40} ${AXIS_H}" font-family="system-ui, sans-serif">${labels.join("")}</svg>`;
}

function legend(): string {
  const swatches = (["GREEN", "RED", "INCONCLUSIVE", "UNSUPPORTED", "ERROR"] as const).map((v) => `<span style="background:${COLOURS[v]}">${v}</span>`).join("");
  return `<p class="legend">${swatches} Solid: measured (links to its run). Pale: assumed from the measured releases on either side. Blue line: a boundary. Dashed outline: flaky. Hover a cell for its findings.</p>`;
}

export function atlasIndexPage(atlas: AtlasFile, atlasDir: string, pageDir: string): string {
  const axis = [...new Set(atlas.entries.flatMap((e) => e.versions))].sort(semver.compare);
  const rows = atlas.entries.map((entry) => {
    const runs = `${entry.cells.length} measured of ${entry.versions.length}, ${entry.runs} run(s)${entry.complete ? "" : ", not complete"}`;
    const variant = `${Object.keys(entry.params).length ? JSON.stringify(entry.params) : ""}${entry.driver === "headless" ? "" : ` (${entry.driver})`}`;
    return `<tr class="atlas-row"><td class="row-label"><div><a href="${scenarioPage(entry.scenario)}">${escapeMarkup(entry.scenario)}</a><br><small class="variant">${escapeMarkup(variant)}</small><br><small>${escapeMarkup(runs)}</small></div></td><td>${strip(entry, axis, atlasDir, pageDir)}</td></tr>`;
  });
  const body =
    `<h1>ccrepro atlas</h1><p>${atlas.entries.length} scenario row(s) on ${axis.length} releases (${escapeMarkup(axis[0] ?? "")} – ${escapeMarkup(axis[axis.length - 1] ?? "")}); updated ${escapeMarkup(atlas.updatedAt)}.</p>` +
    legend() +
    `<div style="overflow-x:auto"><table class="atlas"><tr><th></th><th>${axisSvg(axis)}</th></tr>${rows.join("")}</table></div>`;
  return page("ccrepro atlas", body);
}

function knownTable(info: ScenarioInfo | undefined): string {
  if (!info) return "<p>Not a built-in scenario here: no known list.</p>";
  if (info.known.length === 0) return "<p>No known list.</p>";
  const rows = info.known.map(
    (k) =>
      `<tr class="known"><td>${escapeMarkup(k.versions)}</td><td>${k.verdict}${k.finding ? ` ${escapeMarkup(k.finding)}` : ""}</td><td>${k.params ? escapeMarkup(JSON.stringify(k.params)) : ""}</td><td>${escapeMarkup(k.note)}</td></tr>`,
  );
  return `<table><tr><th>releases</th><th>verdict</th><th>parameters</th><th>note</th></tr>${rows.join("")}</table>`;
}

function links(dirs: readonly string[], atlasDir: string, pageDir: string): string {
  return dirs.map((d) => `<a class="proof" href="${escapeMarkup(runDirHref(d, atlasDir, pageDir))}">${escapeMarkup(path.basename(d))}</a>`).join(", ") || "—";
}

export function atlasScenarioPage(name: string, entries: readonly AtlasEntry[], info: ScenarioInfo | undefined, atlasDir: string, pageDir: string): string {
  const sections = entries.map((entry) => {
    const boundaries = entry.boundaries.map(
      (b) =>
        `<tr class="boundary-pair"><td>${escapeMarkup(b.before)} → ${escapeMarkup(b.after)}</td><td>${escapeMarkup(b.from)} → ${escapeMarkup(b.to)}${b.between.length ? ` (${b.between.length} between unanswered)` : ""}${b.unjudged.length ? `; ${escapeMarkup(unjudgedRange(b.unjudged))}` : ""}</td><td>${links(b.proof.before, atlasDir, pageDir)}</td><td>${links(b.proof.after, atlasDir, pageDir)}</td></tr>`,
    );
    const intervals = entry.intervals.map((i) => `<tr class="interval"><td>${escapeMarkup(i.first)} – ${escapeMarkup(i.last)}</td><td>${escapeMarkup(i.state)}</td><td>${i.measured.length}</td><td>${i.assumed.length}</td></tr>`);
    const verify = entry.verify.ran.length ? `<p>--verify: ${entry.verify.ran.length} assumed release(s) run, ${entry.verify.disagreed.length} disagreed.</p>` : "";
    return (
      `<section class="variant"><h2>${escapeMarkup(variantLabel(entry))}</h2><div style="overflow-x:auto">${axisSvg(entry.versions)}<br>${strip(entry, entry.versions, atlasDir, pageDir)}</div>` +
      `<h3>Boundaries</h3>${boundaries.length ? `<table><tr><th>pair</th><th>change</th><th>runs before</th><th>runs after</th></tr>${boundaries.join("")}</table>` : "<p>No boundary.</p>"}` +
      `<h3>Intervals</h3><table><tr><th>releases</th><th>state</th><th>measured</th><th>assumed</th></tr>${intervals.join("")}</table>${verify}</section>`
    );
  });
  const body =
    `<p><a href="index.html">← the atlas</a></p><h1>${escapeMarkup(name)}</h1>` +
    (info ? `<p class="summary">${escapeMarkup(info.summary)}</p><p class="source">Source: ${escapeMarkup(info.source)}</p>` : "") +
    `<h2>Known</h2>${knownTable(info)}${sections.join("")}`;
  return page(`atlas: ${name}`, body);
}

// Writes index.html and a page per scenario into atlasDir/site; returns the index's path.
// The site's front page from a directory that names the atlas directory as `atlasDir` (relative or absolute).
export function atlasSiteIndex(atlasDir: string): string {
  return path.join(atlasDir, ATLAS_SITE_DIR, "index.html").split(path.sep).join("/");
}

// A nightly's atlas section as lines: where the site is, what tonight ran, each entry's boundaries.
export function nightlyAtlasLines(atlas: NonNullable<Summary["atlas"]>): { site: string; head: string; entries: string[] } {
  const head = `${atlas.runs} run(s) tonight, ${atlas.reused} release(s) reused${atlas.interrupted ? "; interrupted (the next nightly resumes it)" : ""}.`;
  const entries = atlas.entries.map((e) => {
    const params = Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : "";
    const bounds = e.boundaries.length ? e.boundaries.join("; ") : "no boundary";
    return `${e.scenario}${params}: ${e.measured} of ${e.releases} release(s) measured${e.complete ? "" : ", not complete"} — ${bounds}`;
  });
  const changes = atlas.changes === undefined ? [] : atlas.changes.length > 0 ? atlas.changes.map((line) => `changed tonight: ${line}`) : ["changed tonight: nothing"];
  return { site: atlasSiteIndex(atlas.dir), head, entries: [...entries, ...changes] };
}

export function writeAtlasSite(atlas: AtlasFile, atlasDir: string, scenarios: Readonly<Record<string, ScenarioInfo>>): string {
  const dir = path.join(atlasDir, ATLAS_SITE_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const index = path.join(dir, "index.html");
  fs.writeFileSync(index, atlasIndexPage(atlas, atlasDir, dir));
  for (const name of new Set(atlas.entries.map((e) => e.scenario))) {
    const entries = atlas.entries.filter((e) => e.scenario === name);
    fs.writeFileSync(path.join(dir, scenarioPage(name)), atlasScenarioPage(name, entries, scenarios[name], atlasDir, dir));
  }
  return index;
}

/** Writes the site of the atlas checked in with ccrepro beside it (docs/atlas/site/), with every built-in's page data. */
export function checkedInSite(atlas: AtlasFile, into = path.dirname(CHECKED_IN_ATLAS)): string {
  return writeAtlasSite(atlas, into, Object.fromEntries(SCENARIOS.map((scenario) => [scenario.name, scenario])));
}
