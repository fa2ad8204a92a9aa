// The generated HTML reports in headless Chromium, used as a person would: a single run's report and a nightly's
// index with its cell pages. Fixtures are runs recorded from real releases (see their READMEs).
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectedLanes, foreignRequests, openLogged, useChromium } from "./chromium.ts";
import { renderHtml } from "../../report/html.ts";
import { summaryOfRun } from "../../nightly/run-summary.ts";
import { loadReportInput } from "../../report/report-target.ts";
import { playerId } from "../../report/run-sections.ts";
import type { SwimlaneModel } from "../../report/swimlane.ts";
import { findingTargetId, loadSwimlaneModel, requestTargetId } from "../../report/swimlane-model.ts";
import { writeReports } from "../../report/write-reports.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const OUT = path.join(ROOT, "test-output", "report-browser");
// background-mid-turn on 2.1.332: the UI in a terminal, then a background session (GREEN, one informational finding).
const TERMINAL_RUN = path.join(ROOT, "test/fixtures/background/2.1.332-terminal");
// subagent-resume-notification-header on 2.1.281: RED, its finding carries a diff; bodies of requests 6 and 8 kept.
const RED_RUN = path.join(ROOT, "test/fixtures/runs/notification-changed-2.1.281");
// A real 2 × 2 nightly (headless scenarios), see test/fixtures/nightly/README.md.
const NIGHTLY = path.join(ROOT, "test/fixtures/nightly/recorded");
// Ids of the only run of a single-run report (cell 0, run 0).
const PREFIX = "c0r0-";

type Players = { ccreproPlayers: Record<string, { player: { getCurrentTime(): number; play(): Promise<unknown>; pause(): Promise<unknown> } }> };

const browser = useChromium(OUT);

const open = (file: string) => openLogged(browser(), file);
const foreign = foreignRequests;

async function lanesOf(p: Page): Promise<{ ids: string[]; widths: number[] }> {
  const lanes = await p.locator("svg.swimlane g.lane").evaluateAll((gs) => gs.map((g) => [g.getAttribute("data-lane-id")!, (g as SVGGElement).getBBox().width] as const));
  return { ids: lanes.map((l) => l[0]), widths: lanes.map((l) => l[1]) };
}

const inView = (p: Page, selector: string) =>
  p.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top < window.innerHeight && r.bottom > 0;
  });

async function playerAdvances(p: Page, id: string): Promise<void> {
  await p.locator(`#${id} .ap-player`).waitFor({ state: "visible", timeout: 10_000 });
  const time = () => p.evaluate((pid) => (window as unknown as Players).ccreproPlayers[pid]!.player.getCurrentTime(), id);
  await p.evaluate((pid) => (window as unknown as Players).ccreproPlayers[pid]!.player.play(), id);
  await p.waitForFunction((pid) => (window as unknown as Players).ccreproPlayers[pid]!.player.getCurrentTime() > 0.5, id, { timeout: 10_000 });
  const first = await time();
  await p.waitForTimeout(700);
  expect(await time()).toBeGreaterThan(first);
  await p.evaluate((pid) => (window as unknown as Players).ccreproPlayers[pid]!.player.pause(), id);
}

describe("the single-run report of a terminal run", () => {
  const file = path.join(OUT, "terminal-run.html");
  const player = playerId(PREFIX, "ui");
  const model = loadSwimlaneModel(TERMINAL_RUN, { idPrefix: PREFIX, player: { session: "ui", id: player } })!;

  it("plays the terminal, draws every lane, seeks from the step list, opens a request's JSON, and loads nothing", async () => {
    fs.writeFileSync(file, renderHtml(summaryOfRun(TERMINAL_RUN)));
    const { page: p, requested, errors } = await open(file);
    try {
      const lanes = await lanesOf(p);
      expect(lanes.ids).toEqual(expectedLanes(model));
      expect(lanes.ids).toContain("ui");
      expect(lanes.widths.every((w) => w > 0)).toBe(true);
      expect(await p.locator("svg.swimlane g.request").count()).toBe(7);

      await playerAdvances(p, player);
      // Step 7 (Enter after /background) in the list beside the player seeks it to that moment.
      const step7 = model.steps[6]!;
      await p.locator(".terminal-box .steps a", { hasText: step7.label }).click();
      await p.waitForFunction(([pid, t]) => Math.abs((window as unknown as Players).ccreproPlayers[pid as string]!.player.getCurrentTime() - (t as number)) < 0.05, [player, step7.seek] as const, { timeout: 5_000 });

      // The finding pin opens the finding below the picture.
      const finding = `#${findingTargetId(PREFIX, 0)}`;
      expect(await p.locator(finding).evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
      await p.locator("svg.swimlane g.finding circle").first().click();
      expect(await p.locator(finding).evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
      expect(await inView(p, finding)).toBe(true);

      // Request 1's bar opens its body as a tree, the body's first level unfolded.
      await p.locator("svg.swimlane g.request[data-seq='1']").dispatchEvent("click");
      const request = `#${requestTargetId(PREFIX, 1)}`;
      await p.locator(`${request} .json-tree details[data-path='/messages']`).waitFor({ state: "visible", timeout: 5_000 });
      expect(await inView(p, request)).toBe(true);

      expect(errors).toEqual([]);
      expect(foreign(requested)).toEqual([]);
    } finally {
      await p.close();
    }
  }, 60_000);
});

describe("the single-run report of a RED run", () => {
  const file = path.join(OUT, "red-run.html");

  it("brings the red finding's diff into view on a click, and marks what changed in the resumed request", async () => {
    fs.writeFileSync(file, renderHtml(summaryOfRun(RED_RUN)));
    const { page: p, requested, errors } = await open(file);
    try {
      const lanes = await lanesOf(p);
      expect(lanes.ids).toEqual(expectedLanes(loadSwimlaneModel(RED_RUN)!));
      expect(lanes.widths.every((w) => w > 0)).toBe(true);

      const diff = p.locator(`#${findingTargetId(PREFIX, 0)} pre.diff`);
      expect(await diff.isVisible()).toBe(false);
      await p.locator("svg.swimlane g.finding.red[data-finding='notification-changed'] circle").click();
      await diff.waitFor({ state: "visible", timeout: 5_000 });
      expect(await diff.textContent()).toContain("+[MESSAGE FROM NON-USER SOURCE - NOT USER INPUT]");
      expect(await inView(p, `#${findingTargetId(PREFIX, 0)} pre.diff`)).toBe(true);

      // Request 8 against request 6 (stream sub): the subagent's notification changed, two messages were added, and
      // cache_control sits on the newest message and on the system prompt.
      await p.locator("svg.swimlane g.request[data-seq='8']").dispatchEvent("click");
      const tree = p.locator(`#${requestTargetId(PREFIX, 8)} .json-tree`);
      await tree.locator(".jt-leaf.changed[data-path='/messages/4/content/0/content']").waitFor({ state: "visible", timeout: 5_000 });
      expect(await tree.locator("details.added[data-path='/messages/7'], details.added[data-path='/messages/8']").count()).toBe(2);
      expect(await tree.locator("details.has-changes[data-path='/messages']").evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
      // An unchanged part starts folded.
      expect(await tree.locator("details[data-path='/tools']").evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
      expect(await tree.locator("details.bp[data-path='/messages/8/content/0'] .bp-badge").textContent()).toContain("ephemeral");
      // A pruned body says so instead of rendering nothing.
      await p.locator("svg.swimlane g.request[data-seq='5']").dispatchEvent("click");
      expect(await p.locator(`#${requestTargetId(PREFIX, 5)} .json-tree`).textContent()).toContain("body not kept");

      expect(errors).toEqual([]);
      expect(foreign(requested)).toEqual([]);
    } finally {
      await p.close();
    }
  }, 60_000);
});

describe("a nightly's report", () => {
  it("keeps index.html small and links each cell to a page that draws its runs and opens the finding's diff", async () => {
    const out = path.join(OUT, "nightly");
    const input = loadReportInput(NIGHTLY);
    expect(writeReports(input, out).failed).toEqual([]);
    const index = path.join(out, "index.html");
    // The bodies, the player and the swimlanes live on the cell pages.
    expect(fs.statSync(index).size).toBeLessThan(100_000);
    const { page: p, requested, errors } = await open(index);
    try {
      expect(await p.locator("svg.swimlane").count()).toBe(0);
      const i = input.summary.cells.findIndex((c) => c.key === "subagent-resume-notification-header@2.1.281");
      await p.locator(`table.matrix a[data-cell='cell-${i}']`).click();
      await p.locator(`#cell-${i} a.cell-page`).click();
      await p.waitForURL(/cells\/subagent-resume-notification-header_2\.1\.281\.html$/);
      await p.locator("svg.swimlane").waitFor({ state: "visible" });
      const prefix = `c${i}r0-`;
      const runDir = path.join(NIGHTLY, input.summary.cells[i]!.runs[0]!.dir!);
      const lanes = await lanesOf(p);
      expect(lanes.ids).toEqual(expectedLanes(loadSwimlaneModel(runDir)!));
      expect(lanes.widths.every((w) => w > 0)).toBe(true);
      await p.locator("svg.swimlane g.finding.red circle").first().click();
      const diff = `#${findingTargetId(prefix, 0)} pre.diff`;
      await p.locator(diff).waitFor({ state: "visible", timeout: 5_000 });
      expect(await inView(p, diff)).toBe(true);
      expect(errors).toEqual([]);
      expect(foreign(requested)).toEqual([]);
    } finally {
      await p.close();
    }
  }, 60_000);

  it("embeds the player on the page of a cell that ran a terminal scenario", async () => {
    const out = path.join(OUT, "nightly-terminal");
    // The recorded terminal run as the one cell of a nightly.
    const single = summaryOfRun(TERMINAL_RUN);
    const input = { ...single, summary: { ...single.summary, kind: "nightly" as const } };
    expect(writeReports(input, out).failed).toEqual([]);
    const { page: p, requested, errors } = await open(path.join(out, "index.html"));
    try {
      expect(await p.locator(".ap-player").count()).toBe(0);
      await p.locator("table.matrix a[data-cell='cell-0']").click();
      await p.locator("#cell-0 a.cell-page").click();
      await p.waitForURL(/cells\/.*\.html$/);
      await playerAdvances(p, playerId(PREFIX, "ui"));
      expect((await lanesOf(p)).ids).toContain("ui");
      expect(errors).toEqual([]);
      expect(foreign(requested)).toEqual([]);
    } finally {
      await p.close();
    }
  }, 60_000);
});
