// The swimlane and the terminal player in headless Chromium, as a person uses them: on recorded runs (fixtures), offline.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectedLanes, openLogged, useChromium } from "./chromium.ts";
import { stepMarkers, toAsciicast } from "../../harness/asciicast.ts";
import { readRunRecord } from "../../harness/run-record.ts";
import { runLayout } from "../../harness/run-layout.ts";
import { escapeMarkup } from "../../report/escape.ts";
import { asciinemaAssets, asciinemaPlayer } from "../../report/asciinema.ts";
import { renderSwimlane, SWIMLANE_SCRIPT, type SwimlaneModel } from "../../report/swimlane.ts";
import { findingTargetId, loadSwimlaneModel, requestTargetId } from "../../report/swimlane-model.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const OUT = path.join(ROOT, "test-output", "swimlane-browser");
// A real background-mid-turn run on 2.1.332 (the UI in a terminal, then a background session), and a RED headless
// run on 2.1.281 whose finding carries a diff; both recorded with ccrepro (see the fixtures' READMEs).
const TERMINAL_RUN = path.join(ROOT, "test/fixtures/background/2.1.332-terminal");
const RED_RUN = path.join(ROOT, "test/fixtures/runs/notification-changed-2.1.281");
const PLAYER_ID = "cast-ui";

// What the lead's report will do, reduced: the SVG, the player, and below them one hidden diff per request and finding.
function page(runDir: string, model: SwimlaneModel, cast: string | null): string {
  const record = readRunRecord(runLayout(runDir).runJson);
  const findings = (record.result?.findings ?? [])
    .map((f, i) => `<details class="finding" id="${findingTargetId("", i)}"><summary>${escapeMarkup(f.title)}</summary><pre class="diff">${escapeMarkup(f.diff ?? f.detail.join("\n"))}</pre></details>`)
    .join("\n");
  const requests = model.streams
    .flatMap((s) => s.requests)
    .map((r) => `<details class="request" id="${requestTargetId("", r.seq)}"><summary>req ${r.seq}</summary><pre>${escapeMarkup(r.summary)}</pre></details>`)
    .join("\n");
  return `<!doctype html><html><head><meta charset="utf-8"><title>swimlane</title>${cast === null ? "" : asciinemaAssets()}</head><body>
${renderSwimlane(model)}
${cast === null ? "" : asciinemaPlayer({ id: PLAYER_ID, cast, title: "ui" })}
${findings}
${requests}
<script>${SWIMLANE_SCRIPT}</script>
</body></html>`;
}

function terminalCast(runDir: string): string {
  const record = readRunRecord(runLayout(runDir).runJson);
  const session = JSON.parse(fs.readFileSync(path.join(runDir, "sessions/ui/session.json"), "utf8")) as { startedAt: number; endedAt: number };
  const chunks = fs.readFileSync(path.join(runDir, "sessions/ui/terminal.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { t: number; data: string });
  const markers = stepMarkers(record.steps, { start: session.startedAt, end: session.endedAt });
  return toAsciicast({ cols: 120, rows: 40, start: session.startedAt, chunks, markers, title: "ui" });
}

const browser = useChromium(OUT);

const open = (file: string) => openLogged(browser(), file);

describe("a terminal run: swimlane and player", () => {
  const model = loadSwimlaneModel(TERMINAL_RUN, { player: { session: "ui", id: PLAYER_ID } })!;
  const file = path.join(OUT, "terminal.html");

  it("renders every lane, plays the recording, seeks on a step click, and loads nothing from the network", async () => {
    fs.writeFileSync(file, page(TERMINAL_RUN, model, terminalCast(TERMINAL_RUN)));
    const { page: p, requested } = await open(file);
    try {
      // Lanes: steps, the UI, the background session seen through its requests, the main and side streams, findings.
      const lanes = await p.locator("svg.swimlane g.lane").evaluateAll((gs) => gs.map((g) => [g.getAttribute("data-lane"), g.getAttribute("data-lane-id"), (g as SVGGElement).getBBox().width]));
      expect(lanes.map((l) => l[1])).toEqual(expectedLanes(model));
      expect(lanes.map((l) => l[0])).toEqual(["steps", "ui", "background", "stream", "stream", "findings"]);
      expect(lanes.every((l) => (l[2] as number) > 0)).toBe(true);
      expect(await p.locator("svg.swimlane g.request").count()).toBe(7);
      expect(await p.locator("svg.swimlane g.request[data-seq='3'] title").textContent()).toContain("req 3 step 0: tool_use:Bash, stop=tool_use");

      // The player was built from the inlined data; play it and watch its clock move.
      await p.locator(`#${PLAYER_ID} .ap-player`).waitFor({ state: "visible", timeout: 10_000 });
      const time = () => p.evaluate((id) => (window as unknown as { ccreproPlayers: Record<string, { player: { getCurrentTime(): number } }> }).ccreproPlayers[id]!.player.getCurrentTime(), PLAYER_ID);
      await p.evaluate((id) => (window as unknown as { ccreproPlayers: Record<string, { player: { play(): Promise<unknown> } }> }).ccreproPlayers[id]!.player.play(), PLAYER_ID);
      await p.waitForFunction((id) => (window as unknown as { ccreproPlayers: Record<string, { player: { getCurrentTime(): number } }> }).ccreproPlayers[id]!.player.getCurrentTime() > 0.5, PLAYER_ID, { timeout: 10_000 });
      const first = await time();
      await p.waitForTimeout(700);
      expect(await time()).toBeGreaterThan(first);
      // The cast's step markers reached the player: its control bar draws one per marker, except one at the very end
      // of the recording (step 8, which saw the UI exit, is the cast's last event).
      const tooltips = await p.locator(`#${PLAYER_ID} .ap-marker-container .ap-tooltip`).allTextContents();
      expect(tooltips.map((t) => t.replace(/^[\d:]+ - /, ""))).toEqual(model.steps.slice(0, 7).map((s) => s.label));

      // Clicking step 7 (the Enter after /background) seeks the player there.
      await p.evaluate((id) => (window as unknown as { ccreproPlayers: Record<string, { player: { pause(): Promise<unknown> } }> }).ccreproPlayers[id]!.player.pause(), PLAYER_ID);
      const step7 = model.steps[6]!;
      await p.locator("svg.swimlane g.step").nth(6).dispatchEvent("click");
      await p.waitForFunction(([id, t]) => Math.abs((window as unknown as { ccreproPlayers: Record<string, { player: { getCurrentTime(): number } }> }).ccreproPlayers[id as string]!.player.getCurrentTime() - (t as number)) < 0.05, [PLAYER_ID, step7.seek] as const, { timeout: 5_000 });
      await p.screenshot({ path: path.join(OUT, "terminal.png"), fullPage: true });

      const foreign = requested.filter((url) => !url.startsWith("file://") && !url.startsWith("data:"));
      expect(foreign).toEqual([]);
    } finally {
      await p.close();
    }
  }, 60_000);
});

describe("a RED run: clicking the finding", () => {
  const model = loadSwimlaneModel(RED_RUN)!;
  const file = path.join(OUT, "red.html");

  it("brings its diff into view, and a request bar opens its request", async () => {
    fs.writeFileSync(file, page(RED_RUN, model, null));
    const { page: p, requested } = await open(file);
    try {
      const lanes = await p.locator("svg.swimlane g.lane").evaluateAll((gs) => gs.map((g) => g.getAttribute("data-lane")));
      expect(lanes).toEqual(["steps", "headless", "tasks", "stream", "stream", "findings"]);
      expect(await p.locator("svg.swimlane line.boundary[data-boundary='resume']").count()).toBe(3);

      const diff = p.locator(`#${findingTargetId("", 0)} pre.diff`);
      expect(await diff.isVisible()).toBe(false);
      await p.locator("svg.swimlane g.finding.red[data-finding='notification-changed'] circle").click();
      await diff.waitFor({ state: "visible", timeout: 5_000 });
      expect(await diff.textContent()).toContain("+[MESSAGE FROM NON-USER SOURCE - NOT USER INPUT]");
      expect(await diff.evaluate((el) => { const r = el.getBoundingClientRect(); return r.top < window.innerHeight && r.bottom > 0; })).toBe(true);

      const request = p.locator(`#${requestTargetId("", 8)}`);
      expect(await request.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
      await p.locator("svg.swimlane g.request[data-seq='8']").dispatchEvent("click");
      expect(await request.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
      await p.screenshot({ path: path.join(OUT, "red.png"), fullPage: true });
      expect(requested.filter((url) => !url.startsWith("file://"))).toEqual([]);
    } finally {
      await p.close();
    }
  }, 60_000);
});
