// The atlas site in headless Chromium, offline: one row per scenario on the common release axis, cells coloured by
// verdict (measured solid and linked to their run, assumed pale), boundaries marked, findings on hover, and a page
// per scenario with its known list, its source and its boundaries with the runs that prove them.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { foreignRequests, openLogged, useChromium } from "./chromium.ts";
import { COLOURS } from "../../report/swimlane.ts";
import { scenarioPage, writeAtlasSite } from "../../report/atlas-site.ts";
import { findScenario } from "../../scenarios/index.ts";
import { CHECKED_IN_ATLAS, readAtlasFile } from "../../atlas/atlas-file.ts";
import { atlasOf, entryFrom } from "../atlas/build.ts";
import { RANGE, sweptState } from "../atlas/tables.ts";

const OUT = path.join(path.resolve(import.meta.dirname, "../.."), "test-output", "atlas-site-browser");
const browser = useChromium(OUT);
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;

describe("atlas site", () => {
  it("draws a row per scenario on one axis, marks the boundaries, links measured cells, asks the network for nothing", async () => {
    const header = await entryFrom("subagent-resume-notification-header", RANGE, sweptState, 8);
    // A second scenario over the newer half only: its row is blank before its range.
    const half = RANGE.slice(19);
    const other = await entryFrom("stop-hook-loop", half, (v) => (v >= "2.1.281" ? "RED stop-cap-reported" : "GREEN"), 8);
    const atlas = atlasOf([header, other]);
    for (const cell of [...header.cells, ...other.cells]) fs.mkdirSync(path.join(OUT, cell.runs[0]!.dir!), { recursive: true });
    const index = writeAtlasSite(atlas, OUT, { [header.scenario]: findScenario(header.scenario)! });
    const { page, requested, errors } = await openLogged(browser(), index);

    expect(await page.$$eval("tr.atlas-row", (rows) => rows.length)).toBe(2);
    const cells = await page.$$eval("svg.atlas-strip", (strips) =>
      strips.map((s) => [...s.querySelectorAll("rect.cell")].map((r) => ({ v: r.getAttribute("data-version"), kind: r.getAttribute("data-kind"), fill: getComputedStyle(r).fill, opacity: getComputedStyle(r).fillOpacity }))),
    );
    // The common axis: both rows have a cell for every release of the union.
    expect(cells.map((row) => row.length)).toEqual([38, 38]);
    const first = new Map(cells[0]!.map((c) => [c.v, c]));
    expect(first.get("2.1.258")).toEqual({ v: "2.1.258", kind: "measured", fill: rgb(COLOURS.RED), opacity: "1" });
    expect(first.get("2.1.250")).toEqual({ v: "2.1.250", kind: "assumed", fill: rgb(COLOURS.RED), opacity: "0.4" });
    expect(first.get("2.1.284")).toEqual({ v: "2.1.284", kind: "measured", fill: rgb(COLOURS.GREEN), opacity: "1" });
    expect(cells[1]!.filter((c) => c.kind === "outside").map((c) => c.v)).toEqual(RANGE.slice(0, 19));

    const boundaries = await page.$$eval("svg.atlas-strip", (strips) => strips.map((s) => [...s.querySelectorAll("line.boundary")].map((l) => l.getAttribute("data-after"))));
    expect(boundaries).toEqual([["2.1.259", "2.1.284"], ["2.1.281"]]);

    // Hover: the title names the findings; a measured cell links to its run directory, which exists.
    const title = await page.$eval('svg.atlas-strip rect[data-version="2.1.259"] title', (t) => t.textContent);
    expect(title).toContain("red: notification-changed");
    const links = await page.$$eval("svg.atlas-strip a.run-link", (as) => as.map((a) => (a as unknown as SVGAElement).href.baseVal));
    expect(links.length).toBe(header.cells.length + other.cells.length);
    for (const href of links) expect(fs.existsSync(path.resolve(path.dirname(index), href))).toBe(true);
    expect(errors).toEqual([]);
    expect(foreignRequests(requested)).toEqual([]);
    await page.close();

    // The scenario page: its known list, its source, and each boundary with the runs on either side.
    const scenarioFile = path.join(path.dirname(index), scenarioPage(header.scenario));
    const sp = await openLogged(browser(), scenarioFile);
    expect(await sp.page.$$eval("tr.known", (rows) => rows.length)).toBe(findScenario(header.scenario)!.known.length);
    expect(await sp.page.$eval("p.source", (p) => p.textContent)).toContain("Source:");
    expect(await sp.page.$$eval("tr.boundary-pair td:first-child", (tds) => tds.map((t) => t.textContent))).toEqual(["2.1.258 → 2.1.259", "2.1.283 → 2.1.284"]);
    const proofs = await sp.page.$$eval("tr.boundary-pair a.proof", (as) => as.map((a) => a.getAttribute("href")!));
    expect(proofs).toHaveLength(4);
    for (const href of proofs) expect(fs.existsSync(path.resolve(path.dirname(index), href))).toBe(true);
    expect(foreignRequests(sp.requested)).toEqual([]);
    await sp.page.close();
  });

  // Issue 45, item 6: the checked-in atlas's site, as the README links it.
  it("opens the checked-in site: a row per variant it measured, its boundaries marked, nothing asked of the network", async () => {
    const atlas = readAtlasFile(CHECKED_IN_ATLAS);
    const index = path.join(path.dirname(CHECKED_IN_ATLAS), "site", "index.html");
    const { page, requested, errors } = await openLogged(browser(), index);
    expect(await page.$$eval("tr.atlas-row", (rows) => rows.length)).toBe(atlas.entries.length);
    const marked = await page.$$eval("svg.atlas-strip line.boundary", (lines) => lines.map((l) => l.getAttribute("data-after")));
    expect(new Set(marked)).toEqual(new Set(atlas.entries.flatMap((e) => e.boundaries.map((b) => b.after))));
    expect(errors).toEqual([]);
    expect(foreignRequests(requested)).toEqual([]);
    await page.close();
  });
});
