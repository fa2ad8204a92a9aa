// Shared by the browser tests: headless Chromium with nothing that phones home, and the lanes a swimlane must draw.
import fs from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import type { SwimlaneModel } from "../../report/swimlane.ts";
import { CHROMIUM_PATH } from "../provision-chromium.ts";

const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

// One browser for a test file, started before its tests with a fresh output folder and closed after them.
export function useChromium(outDir: string): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.mkdirSync(outDir, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => browser!;
}

// Opens a page and keeps the browser's own request log and page errors: a report may ask for nothing but its file
// and data: URLs.
export async function openLogged(browser: Browser, file: string): Promise<{ page: Page; requested: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const requested: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`file://${file}`);
  return { page, requested, errors };
}

export const foreignRequests = (requested: string[]): string[] => requested.filter((url) => !url.startsWith("file://") && !url.startsWith("data:"));

// Lane ids in drawing order: steps, processes, tasks, streams, hooks, findings (each only when the model has some).
export const expectedLanes = (m: SwimlaneModel): string[] =>
  [m.steps.length ? ["steps"] : [], m.processes.map((p) => p.id), m.tasks.map((t) => `tasks-${t.session}`), m.streams.map((s) => s.stream), m.hooks.length ? ["hooks"] : [], m.findings.length ? ["findings"] : []].flat();
