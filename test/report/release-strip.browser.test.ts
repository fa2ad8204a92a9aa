// The release strip in headless Chromium, offline: cell colours by verdict, boundary marks, links to the runs.
import fs from "node:fs";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./chromium.ts";
import { COLOURS } from "../../report/swimlane.ts";
import { writeReleaseStrip } from "../../report/release-strip.ts";
import { withResults, type ReleaseResult, type SweepFile } from "../../sweep/sweep-file.ts";
import type { Verdict } from "../../core/verdict.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const OUT = path.join(ROOT, "test-output", "release-strip-browser");
// A real RED run on 2.1.281 recorded with ccrepro (see its README); the strip only links to it.
const RUN = path.join(ROOT, "test/fixtures/runs/notification-changed-2.1.281");

function result(version: string, verdict: Verdict, red: string[], withRun: boolean): ReleaseResult {
  return { version, verdict, reason: verdict, red, flaky: false, runs: withRun ? [{ dir: path.relative(OUT, RUN), verdict, wallMs: 1 }] : [], downloadMs: 0, downloadedBytes: 0, finishedAt: "" };
}

describe("release strip", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  it("colours cells by verdict, marks both boundaries, links each run, and asks the network for nothing", async () => {
    const versions = ["2.1.251", "2.1.252", "2.1.270", "2.1.283", "2.1.284", "2.1.290"];
    const empty: SweepFile = { kind: "sweep", scenario: "subagent-resume-notification-header", params: {}, versionsWord: "2.1.251 - 2.1.290", versions, repeat: 1, shards: [], results: [], boundaries: [], startedAt: "", updatedAt: "" };
    const sweep = withResults(empty, [
      result("2.1.251", "RED", ["notification-dropped"], true),
      result("2.1.270", "RED", ["notification-changed"], true),
      result("2.1.283", "ERROR", [], false),
      result("2.1.284", "GREEN", [], true),
      result("2.1.290", "GREEN", [], true),
    ]);
    fs.mkdirSync(OUT, { recursive: true });
    const file = writeReleaseStrip(sweep, OUT);
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith("file:")) requests.push(r.url());
    });
    await page.goto(`file://${file}`);
    const cells = await page.$$eval("rect.cell", (rects) => rects.map((r) => ({ version: r.getAttribute("data-version"), fill: getComputedStyle(r).fill })));
    const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;
    expect(cells).toEqual([
      { version: "2.1.251", fill: rgb(COLOURS.RED) },
      { version: "2.1.252", fill: rgb("#eaeef2") },
      { version: "2.1.270", fill: rgb(COLOURS.RED) },
      { version: "2.1.283", fill: rgb(COLOURS.ERROR) },
      { version: "2.1.284", fill: rgb(COLOURS.GREEN) },
      { version: "2.1.290", fill: rgb(COLOURS.GREEN) },
    ]);
    // ERROR is hatched over its colour, so it never reads as a verdict.
    expect(await page.$$eval('rect[fill="url(#error-hatch)"]', (r) => r.length)).toBe(1);
    // Every change between judged releases: dropped → changed (across 2.1.252, no result), changed → GREEN across the
    // ERROR of 2.1.283, which judged nothing and so is no side of a boundary (issue 42): a range, naming it.
    expect(await page.$$eval("line.boundary", (lines) => lines.map((l) => l.getAttribute("data-after")))).toEqual(["2.1.270", "2.1.284"]);
    const pairs = await page.$$eval("li.boundary-pair", (items) => items.map((i) => i.textContent));
    expect(pairs).toContain("2.1.251 → 2.1.270: RED notification-dropped → RED notification-changed (no result yet for 1 release(s) between: 2.1.252)");
    expect(pairs).toContain("2.1.270 → 2.1.284: RED notification-changed → GREEN (a range: between them 2.1.283 ERROR (ERROR), judged neither side)");
    const links = await page.$$eval("a.run-link", (as) => as.map((a) => (a as unknown as SVGAElement).href.baseVal));
    expect(links).toHaveLength(4);
    for (const href of links) expect(fs.existsSync(path.resolve(OUT, href))).toBe(true);
    expect(await page.$$eval("text.finding", (t) => t.map((x) => x.textContent))).toEqual(["dropped", "", "changed", "", "", ""]);
    expect(requests).toEqual([]);
    await page.close();
  });
});
