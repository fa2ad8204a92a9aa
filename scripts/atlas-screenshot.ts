// Takes the README's picture of the checked-in atlas: opens docs/atlas/site/index.html in headless Chromium and saves
// the top of the page. Usage: npx tsx scripts/atlas-screenshot.ts [OUT.png] (default docs/atlas/site-front.png)
import path from "node:path";
import { chromium } from "playwright-core";

const root = path.join(import.meta.dirname, "..");
const out = process.argv[2] ?? path.join(root, "docs", "atlas", "site-front.png");
const browser = await chromium.launch({ executablePath: process.env["CHROMIUM"] ?? "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`file://${path.join(root, "docs", "atlas", "site", "index.html")}`);
  await page.screenshot({ path: out });
} finally {
  await browser.close();
}
console.log(out);
