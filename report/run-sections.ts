// What a report embeds of one run directory: the swimlane, a player per terminal session, the steps that seek it,
// and the request inspector. Ids carry a per-run prefix so several runs can share a page.
import fs from "node:fs";
import { existsInside, readInside } from "../harness/run-files.ts";
import { sessionCast } from "../harness/asciicast.ts";
import { loadRecordings } from "../harness/recordings.ts";
import { readRunRecord } from "../harness/run-record.ts";
import { castFile, runLayout, terminalFiles } from "../harness/run-layout.ts";
import { DEFAULT_COLS, DEFAULT_ROWS } from "../harness/terminal-steps.ts";
import { asciinemaPlayer } from "./asciinema.ts";
import { escapeMarkup as h } from "./escape.ts";
import { INSPECTOR_SCRIPT, INSPECTOR_STYLE, requestInspector } from "./request-inspector.ts";
import { renderSwimlane, SWIMLANE_SCRIPT, type SwimlaneModel } from "./swimlane.ts";
import { swimlaneModel } from "./swimlane-model.ts";

export interface RunSections {
  // The swimlane and the terminal players: what the page shows first.
  picture: string;
  // The request inspector: below the findings, like the diffs the picture's clicks open.
  requests: string;
  // At least one player is embedded: the page needs asciinemaAssets() before it.
  players: number;
}

export const playerId = (prefix: string, session: string) => `${prefix}cast-${session.replace(/[^A-Za-z0-9_-]/g, "_")}`;

// The run's own .cast when it has one; runs recorded before casts were written are replayed from terminal.jsonl at
// the harness's default size (the size is in no file of theirs).
function castOf(runDir: string, session: string, steps: Parameters<typeof sessionCast>[3]): string | null {
  const file = castFile(runLayout(runDir), session);
  if (existsInside(runDir, file)) return readInside(runDir, file, "utf8");
  return sessionCast(runDir, session, { cols: DEFAULT_COLS, rows: DEFAULT_ROWS }, steps);
}

function stepList(model: SwimlaneModel): string {
  if (model.steps.length === 0) return "";
  const items = model.steps.map((s) => {
    const at = `+${((s.t - model.start) / 1000).toFixed(1)}s`;
    return s.seek === null
      ? `<li><span>${h(s.label)}</span> <span class="muted">${at}</span></li>`
      : `<li><a href="#" data-seek="${s.seek.toFixed(3)}" data-player="${h(s.player ?? "")}" title="show the terminal at this step">${h(s.label)}</a> <span class="muted">${at}</span></li>`;
  });
  return `<div class="steps"><b>Steps</b> <span class="muted">(click one to show the terminal at that moment)</span><ol>${items.join("")}</ol></div>`;
}

export function runSections(runDir: string, prefix: string): RunSections {
  try {
    const record = readRunRecord(runLayout(runDir).runJson);
    const rec = loadRecordings(runDir);
    const terminals = rec.sessions.filter((s) => fs.existsSync(terminalFiles(runLayout(runDir), s.label).output));
    const first = terminals[0];
    const model = swimlaneModel(rec, record.result, {
      steps: record.steps,
      idPrefix: prefix,
      ...(first ? { player: { session: first.label, id: playerId(prefix, first.label) } } : {}),
    });
    const players = terminals.flatMap((s) => {
      const cast = castOf(runDir, s.label, record.steps);
      return cast === null ? [] : [asciinemaPlayer({ id: playerId(prefix, s.label), cast, title: `terminal · ${s.label}` })];
    });
    const picture = [
      `<section class="run-media">`,
      `<h3>Timeline</h3><p class="muted">Hover for details; click a request to open its body below, a finding to open its diff, a step (▲) to show the terminal then.</p>`,
      `<div class="swimlane-box">${renderSwimlane(model)}</div>`,
      players.length ? `<h3>Terminal</h3><div class="terminal-box">${players.join("\n")}${stepList(model)}</div>` : "",
      `</section>`,
    ].join("\n");
    return { picture, requests: requestInspector(rec, prefix), players: players.length };
  } catch (error) {
    return { picture: `<div class="muted">timeline, terminal and requests unavailable: ${h((error as Error).message)}</div>`, requests: "", players: 0 };
  }
}

export const RUN_SECTIONS_STYLE = `
${INSPECTOR_STYLE}
.run-media h3 { font-size: 14px; margin: 14px 0 4px; }
.swimlane-box { border: 1px solid #d0d7de; border-radius: 6px; padding: 4px; background: #fff; }
svg.swimlane g.request, svg.swimlane g.finding, svg.swimlane g.step[data-seek] { cursor: pointer; }
svg.swimlane g.request:hover rect { fill-opacity: 1; stroke: #24292f; }
.terminal-box { display: grid; grid-template-columns: minmax(0, 3fr) minmax(180px, 1fr); gap: 12px; align-items: start; }
.terminal-box figure.cast { margin: 0; grid-column: 1; } .terminal-box figure.cast figcaption { font-size: 12px; color: #57606a; }
.terminal-box .steps { grid-column: 2; grid-row: 1 / span 4; font-size: 13px; }
.terminal-box .steps ol { padding-left: 20px; margin: 4px 0; }
`;

export const RUN_SECTIONS_SCRIPT = `${SWIMLANE_SCRIPT}\n${INSPECTOR_SCRIPT}`;
