// The nightly on real releases: a 2×2 matrix through the CLI (ledger, comparison, JUnit, the HTML page in Chromium),
// and the same small matrix serially and in parallel giving the same verdicts.
import fs from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { parse, type TestSuite, type TestSuites } from "junit2json";
import { chromium } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { parseNightlyConfig } from "../../nightly/config.ts";
import { runNightly } from "../../nightly/run-nightly.ts";
import { readSummary, type Summary } from "../../nightly/summary.ts";
import { fixtureSummary } from "./fixture.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
// Kept after the run (git-ignored) so the page and its screenshot can be looked at; replaced by the next run.
const OUT = path.join(ROOT, "test-output", "nightly-e2e");
fs.rmSync(OUT, { recursive: true, force: true });
const HEADER = "subagent-resume-notification-header";
const ORPHAN = "resume-orphaned-background-task";
const ORPHAN_281 = `${ORPHAN}[grace=1000]@2.1.281`;
const HEADER_281 = `${HEADER}@2.1.281`;
const HEADER_332 = `${HEADER}@2.1.332`;

// One expected RED in the config's ledger (the orphan on >=2.1.300); the header scenario's known list covers its cells.
const CONFIG = {
  scenarios: [HEADER, { name: ORPHAN, params: { grace: 1000 } }],
  versions: ["2.1.281", "2.1.332"],
  expectations: [
    { scenario: ORPHAN, versions: ">=2.1.300", verdict: "RED", finding: "prompt-settled-by-extra-result", reason: "open: the resume settles the pushed prompt first", link: "seed 000" },
  ],
};

const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

describe("ccrepro nightly on real releases", () => {
  const nightlyDir = path.join(OUT, "nightly-now");
  const previousFile = path.join(OUT, "nightly-20261125T000000Z", "summary.json");
  let run: { exitCode: number | undefined; stdout: string; stderr: string };
  let summary: Summary;

  beforeAll(async () => {
    // The previous nightly: the recorded one, except that the header scenario was RED on 2.1.332 then, and the orphan on
    // 2.1.281 was not in it (a RED the previous nightly held would be expected again: only a RED nothing held fails).
    const recorded = fixtureSummary();
    const previous: Summary = {
      ...recorded,
      startedAt: "2026-11-25T00:00:00.000Z",
      cells: recorded.cells.filter((c) => c.key !== ORPHAN_281).map((c) => (c.key === HEADER_332 ? { ...c, verdict: "RED", redFindings: ["notification-changed"] } : c)),
    };
    fs.mkdirSync(path.dirname(previousFile), { recursive: true });
    fs.writeFileSync(previousFile, JSON.stringify(previous));
    fs.writeFileSync(path.join(OUT, "config.json"), JSON.stringify(CONFIG));
    const result = await execa("node", ["bin/ccrepro.mjs", "nightly", "--config", path.join(OUT, "config.json"), "--out", nightlyDir], { cwd: ROOT, reject: false, timeout: 240_000 });
    run = { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
    summary = readSummary(nightlyDir);
  }, 300_000);

  it("exits 1 for the unexpected RED, with one progress line per cell on stderr and the page's path on stdout", () => {
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stderr).toContain(`comparing with the nightly of 2026-11-25 00:00 UTC (${previousFile})`);
    expect(run.stderr.match(/^\[[1-4]\/4\] /gm)).toHaveLength(4);
    expect(run.stderr).toMatch(/^\[4\/4\] .*— so far 1 GREEN, 3 RED, 0 INCONCLUSIVE, 0 ERROR; 1 unexpected$/m);
    expect(run.stdout).toContain(`open ${path.join(nightlyDir, "index.html")}`);
  });

  it("records each cell as an ordinary run directory, judged against the ledger", () => {
    expect(summary.cells.map((c) => [c.key, c.verdict, c.redFindings, c.status])).toEqual([
      [`${ORPHAN}[grace=1000]@2.1.281`, "RED", ["prompt-settled-by-extra-result"], "unexpected"],
      [`${ORPHAN}[grace=1000]@2.1.332`, "RED", ["prompt-settled-by-extra-result"], "expected"],
      [HEADER_281, "RED", ["notification-changed"], "expected"],
      [HEADER_332, "GREEN", [], "expected"],
    ]);
    expect(summary.cells.map((c) => c.expectation.source)).toEqual(["default", "config", "scenario", "scenario"]);
    for (const cell of summary.cells) {
      const runDir = path.join(nightlyDir, cell.runs[0]!.dir!);
      expect(path.dirname(runDir)).toBe(path.join(nightlyDir, "runs"));
      expect(checkRecordedRun(runDir, scenarioByName).verdict).toBe(cell.verdict);
    }
  });

  it("compares with the previous nightly: the orphan cell it did not have is a new RED, the header cell that was RED there is fixed", () => {
    expect(summary.previous).toEqual({ path: previousFile, startedAt: "2026-11-25T00:00:00.000Z" });
    expect(summary.changes).toEqual([
      { kind: "new-red", key: ORPHAN_281, before: null, after: { verdict: "RED", redFindings: ["prompt-settled-by-extra-result"] }, regression: true },
      { kind: "fixed", key: HEADER_332, before: { verdict: "RED", redFindings: ["notification-changed"] }, after: { verdict: "GREEN", redFindings: [] }, regression: false },
    ]);
    expect(summary.exitCode).toBe(1);
    const md = fs.readFileSync(path.join(nightlyDir, "summary.md"), "utf8");
    expect(md.indexOf("## Changes since the previous nightly")).toBeLessThan(md.indexOf("## Matrix"));
  });

  it("writes a JUnit file with one testcase per cell and the unexpected RED as the one failure", async () => {
    const parsed = (await parse(fs.readFileSync(path.join(nightlyDir, "junit.xml"), "utf8"))) as TestSuites;
    const cases = parsed.testsuite!.flatMap((s: TestSuite) => s.testcase ?? []);
    expect(cases).toHaveLength(4);
    expect(parsed).toMatchObject({ tests: 4, failures: 1, errors: 0 });
    expect(cases.filter((c) => c.failure).map((c) => c.name)).toEqual([ORPHAN_281]);
    expect(cases.filter((c) => c.skipped)).toEqual([]);
  });

  it("renders a page that opens offline: one matrix cell per run, and a RED cell opens its diff on click", async () => {
    const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      const requested: string[] = [];
      page.on("request", (request) => requested.push(request.url()));
      await page.goto(`file://${path.join(nightlyDir, "index.html")}`);
      const runs = summary.cells.flatMap((c) => c.runs);
      expect(await page.locator("table.matrix td.cell").count()).toBe(runs.length);

      const i = summary.cells.findIndex((c) => c.key === HEADER_281);
      const diff = page.locator(`#cell-${i} details.finding.red pre.diff`).first();
      expect(await diff.isVisible()).toBe(false);
      await page.locator(`table.matrix a[data-cell="cell-${i}"]`).click();
      await diff.waitFor({ state: "visible", timeout: 5_000 });
      expect(await diff.textContent()).toContain("+[MESSAGE FROM NON-USER SOURCE - NOT USER INPUT]");
      expect(await page.locator(`#cell-${i} details.timeline.requests`).count()).toBeGreaterThan(0);
      await page.screenshot({ path: path.join(OUT, "index-red-cell-open.png"), fullPage: true });
      expect(requested.every((url) => url.startsWith("file://"))).toBe(true);
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe("parallel cells", () => {
  it("give the same verdicts as serial ones", async () => {
    const config = (concurrency: number) =>
      parseNightlyConfig(
        { scenarios: [{ name: ORPHAN, params: { grace: 1000 } }, { name: ORPHAN, params: { grace: 1000, background: false } }], versions: ["2.1.332"], concurrency, seedFromScenarios: false },
        "e2e",
      );
    const serial = await runNightly({ config: config(1), outDir: path.join(OUT, "serial"), previous: null });
    const parallel = await runNightly({ config: config(2), outDir: path.join(OUT, "parallel"), previous: null });
    const verdicts = (s: Summary) => s.cells.map((c) => [c.key, c.verdict, c.redFindings]);
    expect(verdicts(serial)).toEqual([
      [`${ORPHAN}[background=false,grace=1000]@2.1.332`, "GREEN", []],
      [`${ORPHAN}[grace=1000]@2.1.332`, "RED", ["prompt-settled-by-extra-result"]],
    ]);
    expect(verdicts(parallel)).toEqual(verdicts(serial));
    // Run in parallel, the two cells overlapped: the whole took less than the sum of its runs.
    expect(parallel.wallMs).toBeLessThan(parallel.cells.reduce((sum, c) => sum + c.runs[0]!.wallMs!, 0));
  }, 180_000);
});
