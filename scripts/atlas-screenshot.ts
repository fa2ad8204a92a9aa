// Takes the README's picture of the checked-in atlas: opens docs/atlas/site/index.html in headless Chromium and saves
// the top of the page. Usage: npx tsx scripts/atlas-screenshot.ts [OUT.png] (default docs/atlas/site-front.png)
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";

const root = path.join(import.meta.dirname, "..");
const out = process.argv[2] ?? path.join(root, "docs", "atlas", "site-front.png");
const site = path.join(root, "docs", "atlas", "site", "index.html");
const executablePath = process.env["CHROMIUM"] ?? "/usr/bin/chromium";
if (!fs.existsSync(site)) throw new Error(`no site at ${site}: write it first with node --import tsx scripts/atlas-site.ts`);
if (!fs.existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath}: install Debian's package "chromium", or set CHROMIUM to a Chromium executable`);
const browser = await chromium.launch({ executablePath, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`file://${site}`);
  await page.screenshot({ path: out });
} finally {
  await browser.close();
}
console.log(out);
