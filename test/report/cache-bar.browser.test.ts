// The cache bars in headless Chromium, on a recorded run (test/fixtures/runs/notification-changed-2.1.281, recorded by
// `ccrepro bisect subagent-resume-notification-header`, see its README): each bar is drawn with non-zero widths, the
// three parts in their three colours, and the breakpoints marked where the model says they are.
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditCache, type CacheAudit } from "../../checker/cache-audit.ts";
import { simulateConversation } from "../../mock-api/prompt-cache.ts";
import { loadRecordings } from "../../harness/recordings.ts";
import { CACHE_COLOURS, renderCacheBars } from "../../report/cache-bar.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const OUT = path.join(ROOT, "test-output", "cache-bar-browser");
const RUN = path.join(ROOT, "test/fixtures/runs/notification-changed-2.1.281");
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

let browser: Browser;
beforeAll(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
});

// Recorded prompts end on a breakpoint, so nothing of them is uncached; this hand-made stream has a tail after its
// last breakpoint (the uncached part) on its second request.
function handMade(): CacheAudit {
  const system = [{ type: "text", text: "s".repeat(8000), cache_control: { type: "ephemeral" } }];
  const bodies = [
    { model: "claude-sonnet-4-5", system, messages: [{ role: "user", content: "first" }] },
    { model: "claude-sonnet-4-5", system, messages: [{ role: "user", content: "first" }, { role: "assistant", content: "a" }, { role: "user", content: "x".repeat(2000) }] },
  ];
  const results = simulateConversation(bodies.map((body, i) => ({ body, receivedAt: i * 1000 })));
  const requests = results.map((cache, i) => ({ seq: i + 1, receivedAt: i * 1000, cache }));
  return { streams: [{ stream: "hand", requests, reusedFraction: 0.5, placements: ["system[0]", "system[0]"], boundaries: [], notes: [] }], missingBodies: [], notes: [] };
}

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;

describe("cache bars in Chromium", () => {
  it("draws each request's read / written / uncached parts and its breakpoints", { timeout: 60_000 }, async () => {
    const audit = auditCache(loadRecordings(RUN));
    const sub = audit.streams.find((s) => s.stream === "sub")!;
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>cache bars</title></head><body>${renderCacheBars(audit)}${renderCacheBars(handMade())}</body></html>`;
    fs.writeFileSync(path.join(OUT, "bars.html"), html);
    const page = await browser.newPage();
    await page.setContent(html);
    await page.$$eval("details.cache-bars", (all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    const bars = await page.$$eval("figure.cache-bar", (figures) =>
      figures.map((f) => ({
        seq: Number(f.getAttribute("data-seq")),
        parts: [...f.querySelectorAll("rect")].map((r) => ({ cls: r.getAttribute("class"), width: r.getBoundingClientRect().width, fill: getComputedStyle(r).fill })),
        marks: [...f.querySelectorAll("path.cache-breakpoint")].map((p) => p.getBoundingClientRect().width),
        caption: f.querySelector("figcaption")!.textContent,
      })),
    );
    await page.screenshot({ path: path.join(OUT, "bars.png"), fullPage: true });
    const expected = [...sub.requests, ...handMade().streams[0]!.requests];
    expect(bars.map((b) => b.seq)).toEqual(expected.map((r) => r.seq));
    bars.forEach((b, i) => {
      expect(b.parts.length).toBeGreaterThan(0);
      for (const part of b.parts) expect(part.width).toBeGreaterThan(0);
      expect(b.marks.length).toBe(expected[i]!.cache.breakpoints.length);
      for (const width of b.marks) expect(width).toBeGreaterThan(0);
    });
    const fills = new Set(bars.flatMap((b) => b.parts.map((p) => `${p.cls} ${p.fill}`)));
    expect(fills).toEqual(new Set([`cache-read ${rgb(CACHE_COLOURS.read)}`, `cache-written ${rgb(CACHE_COLOURS.written)}`, `cache-uncached ${rgb(CACHE_COLOURS.uncached)}`]));
    // The resumed request (req 8) stops reading at the notification header flip, and its caption says where.
    expect(bars.at(-1)!.parts.map((p) => p.cls)).toEqual(["cache-read", "cache-uncached"]);
    expect(bars.find((b) => b.seq === 8)!.caption).toMatch(/first difference messages\[4\]\.content\[0\] \(no-breakpoint-before-change\)/);
    await page.close();
  });
});
