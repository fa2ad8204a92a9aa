// Takes the README's picture of a single-run report: renders RUN_DIR's report, opens it in headless Chromium, shows
// the terminal at a step, and saves the top of the page as a PNG. Usage: npx tsx scripts/report-screenshot.ts RUN_DIR OUT.png [STEP]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { renderHtml } from "../report/html.ts";
import { summaryOfRun } from "../nightly/run-summary.ts";

const [runDir, out, step = "7"] = process.argv.slice(2);
if (!runDir || !out) throw new Error("usage: npx tsx scripts/report-screenshot.ts RUN_DIR OUT.png [STEP]");
const html = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-shot-")), "report.html");
fs.writeFileSync(html, renderHtml(summaryOfRun(runDir)));
const browser = await chromium.launch({ executablePath: process.env["CHROMIUM"] ?? "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await page.goto(`file://${html}`);
  await page.locator(".ap-player").first().waitFor({ state: "visible" });
  // Started and paused once, the player drops its start overlay; the step list's link then seeks it, so the picture
  // shows the terminal at that moment.
  type Players = { ccreproPlayers: Record<string, { player: { play(): Promise<unknown>; pause(): Promise<unknown> } }> };
  await page.evaluate(() => Object.values((window as unknown as Players).ccreproPlayers)[0]!.player.play());
  await page.waitForTimeout(300);
  await page.evaluate(() => Object.values((window as unknown as Players).ccreproPlayers)[0]!.player.pause());
  await page.locator(".terminal-box .steps a").nth(Number(step) - 1).click();
  await page.waitForTimeout(800);
  // From the run's verdict line to the bottom of the terminal.
  const [top, bottom] = await page.locator(".run").first().evaluate((el) => [el.getBoundingClientRect().top + window.scrollY, el.querySelector(".terminal-box")!.getBoundingClientRect().bottom + window.scrollY]);
  await page.screenshot({ path: out, fullPage: true, clip: { x: 0, y: top! - 8, width: 1200, height: bottom! - top! + 14 } });
} finally {
  await browser.close();
  fs.rmSync(path.dirname(html), { recursive: true, force: true });
}
