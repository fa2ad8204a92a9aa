// Shared by the browser tests: headless Chromium with nothing that phones home, and the lanes a swimlane must draw.
import { chromium, type Browser } from "playwright-core";
import type { SwimlaneModel } from "../../report/swimlane.ts";

const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env["CHROMIUM"] ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
}

// Lane ids in drawing order: steps, processes, tasks, streams, hooks, findings (each only when the model has some).
export const expectedLanes = (m: SwimlaneModel): string[] =>
  [m.steps.length ? ["steps"] : [], m.processes.map((p) => p.id), m.tasks.map((t) => `tasks-${t.session}`), m.streams.map((s) => s.stream), m.hooks.length ? ["hooks"] : [], m.findings.length ? ["findings"] : []].flat();
