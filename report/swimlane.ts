// One run as an SVG swimlane: processes, mock streams, background tasks, hooks, boundaries and findings on one time axis.
import type { Verdict } from "../core/verdict.ts";
import { escapeMarkup } from "./escape.ts";

// Times are epoch milliseconds throughout; the drawing measures them from `start`.
export type ProcessKind = "ui" | "headless" | "background" | "daemon" | "sdk" | "other";

export interface ProcessLane {
  id: string;
  kind: ProcessKind;
  label: string;
  start: number;
  // null: still running when the recording ended.
  end: number | null;
  // Seen only through what it sent (a process the harness did not start): drawn dashed, from first to last sign.
  observed: boolean;
  detail: string;
}

export interface RequestBar {
  seq: number;
  start: number;
  // Response end; null when the log has none (cut off).
  end: number | null;
  step: number | null;
  stopReason: string | null;
  summary: string;
  outcome: string;
  // Which process lane sent it, when known.
  processId: string | null;
  // Id of the element a click opens (the request's diff or body); null when there is none.
  target: string | null;
}

export interface StreamLane {
  stream: string;
  requests: RequestBar[];
}

export interface TaskBar {
  taskId: string;
  start: number;
  // The notification's time; null when none was seen.
  end: number | null;
  status: string | null;
}

export interface TaskLane {
  // The session whose output reported the tasks.
  session: string;
  tasks: TaskBar[];
}

export interface HookTick {
  t: number;
  event: string;
  detail: string;
}

export interface BoundaryRule {
  t: number;
  kind: "stop" | "kill" | "resume";
  label: string;
}

export interface FindingPin {
  id: string;
  t: number;
  red: boolean;
  title: string;
  where: string;
  target: string | null;
}

export interface StepTick {
  t: number;
  label: string;
  // Seconds into the terminal recording, for data-seek; null when no player shows this moment.
  seek: number | null;
  player: string | null;
}

export interface SwimlaneModel {
  start: number;
  end: number;
  verdict: Verdict | null;
  steps: StepTick[];
  processes: ProcessLane[];
  streams: StreamLane[];
  tasks: TaskLane[];
  hooks: HookTick[];
  boundaries: BoundaryRule[];
  findings: FindingPin[];
}

export const COLOURS: Record<Verdict, string> = { GREEN: "#1a7f37", RED: "#cf222e", INCONCLUSIVE: "#bf8700", ERROR: "#57606a", UNSUPPORTED: "#8c959f" };
const PROCESS_COLOURS: Record<ProcessKind, string> = { ui: "#8250df", headless: "#0969da", background: "#bc4c00", daemon: "#6e7781", sdk: "#1b7c83", other: "#8c959f" };
const RULE_COLOURS: Record<BoundaryRule["kind"], string> = { stop: "#9a6700", kill: "#cf222e", resume: "#0969da" };

const LABEL_W = 170;
const PLOT_W = 900;
const LANE_H = 26;
const AXIS_H = 22;
const MIN_BAR = 3;
// Room right of the plot for the last tick's label.
const RIGHT_PAD = 30;
// A request's label is drawn only when it fits before the next bar of its lane; the tooltip has the rest.
const LABEL_CHAR_W = 4.6;
const TASK_ROW_H = 10;

const e = escapeMarkup;
const seconds = (ms: number) => `${(ms / 1000).toFixed(3)}s`;

// A data- attribute only when there is a value.
const attr = (name: string, value: string | number | null) => (value === null ? "" : ` ${name}="${e(String(value))}"`);

function niceStep(spanMs: number): number {
  const rough = spanMs / 8;
  const power = 10 ** Math.floor(Math.log10(Math.max(rough, 1)));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
}

// Informational findings take the run's verdict colour, except in a RED run, where only red findings are red.
function pinColour(pin: FindingPin, verdict: Verdict | null): string {
  if (pin.red) return COLOURS.RED;
  return verdict === null || verdict === "RED" ? COLOURS.ERROR : COLOURS[verdict];
}

export function renderSwimlane(model: SwimlaneModel): string {
  const span = Math.max(model.end - model.start, 1);
  const x = (t: number) => LABEL_W + (Math.min(Math.max(t, model.start), model.end) - model.start) * (PLOT_W / span);
  const width = (a: number, b: number | null) => Math.max(x(b ?? model.end) - x(a), MIN_BAR);
  const lanes: string[] = [];
  let y = AXIS_H;

  const lane = (kind: string, id: string, label: string, body: string, height = LANE_H) => {
    lanes.push(
      `<g class="lane" data-lane="${e(kind)}" data-lane-id="${e(id)}" transform="translate(0 ${y})">` +
        `<rect class="lane-bg" x="0" y="0" width="${LABEL_W + PLOT_W}" height="${height}" fill="${lanes.length % 2 ? "#f6f8fa" : "#ffffff"}"/>` +
        `<text x="6" y="${LANE_H / 2 + 4}" font-size="11">${e(label)}</text>${body}</g>`,
    );
    y += height;
  };

  if (model.steps.length > 0) {
    lane(
      "steps",
      "steps",
      "steps",
      model.steps
        .map(
          (s) =>
            `<g class="step"${attr("data-seek", s.seek === null ? null : s.seek.toFixed(3))}${attr("data-player", s.player)}>` +
            `<title>${e(`${s.label} at +${seconds(s.t - model.start)}`)}</title>` +
            `<path d="M${x(s.t).toFixed(1)} 4 l4 8 l-8 0 z" fill="#57606a"/></g>`,
        )
        .join(""),
    );
  }
  for (const p of model.processes) {
    const dash = p.observed ? ` stroke-dasharray="4 2" fill-opacity="0.35"` : "";
    lane(
      p.kind,
      p.id,
      p.kind === p.label ? p.label : `${p.kind} · ${p.label}`,
      `<rect class="process" data-process="${e(p.id)}" x="${x(p.start).toFixed(1)}" y="7" width="${width(p.start, p.end).toFixed(1)}" height="12" rx="3" fill="${PROCESS_COLOURS[p.kind]}" stroke="${PROCESS_COLOURS[p.kind]}"${dash}>` +
        `<title>${e(`${p.label} (${p.kind}): +${seconds(p.start - model.start)} → ${p.end === null ? "still running" : `+${seconds(p.end - model.start)}`}\n${p.detail}`)}</title></rect>`,
    );
  }
  for (const t of model.tasks) {
    // Overlapping tasks (a subagent and the shells it starts) go on rows of their own: first row free at their start.
    const rowEnds: number[] = [];
    const rows = [...t.tasks]
      .sort((a, b) => a.start - b.start)
      .map((task) => {
        let row = rowEnds.findIndex((end) => end < x(task.start));
        if (row === -1) row = rowEnds.length;
        rowEnds[row] = x(task.start) + width(task.start, task.end) + 2;
        return { task, row };
      });
    lane(
      "tasks",
      `tasks-${t.session}`,
      `tasks · ${t.session}`,
      rows
        .map(
          ({ task, row }) =>
            `<rect class="task" data-task="${e(task.taskId)}" x="${x(task.start).toFixed(1)}" y="${5 + row * TASK_ROW_H}" width="${width(task.start, task.end).toFixed(1)}" height="8" rx="4" fill="#bf8700"${task.end === null ? ` fill-opacity="0.4"` : ""}>` +
            `<title>${e(`task ${task.taskId}: +${seconds(task.start - model.start)} → ${task.end === null ? "no notification" : `+${seconds(task.end - model.start)} (${task.status ?? "?"})`}`)}</title></rect>`,
        )
        .join(""),
      Math.max(LANE_H, rowEnds.length * TASK_ROW_H + 8),
    );
  }
  for (const s of model.streams) {
    lane(
      "stream",
      s.stream,
      `stream · ${s.stream}`,
      s.requests
        .map((r, i) => {
          const next = s.requests[i + 1];
          const room = next === undefined ? Infinity : x(next.start) - x(r.start);
          const label = `${r.seq}${r.step === null ? "" : `/s${r.step}`}${r.stopReason ? ` ${r.stopReason}` : ""}`;
          const tip = `req ${r.seq} step ${r.step ?? "?"}: ${r.summary}, stop=${r.stopReason ?? "-"}, ${r.outcome}\n+${seconds(r.start - model.start)} → ${r.end === null ? "no response end" : `+${seconds(r.end - model.start)}`}`;
          return (
            `<g class="request" data-seq="${r.seq}"${attr("data-target", r.target)}${attr("data-process", r.processId)}>` +
            `<title>${e(tip)}</title>` +
            `<rect x="${x(r.start).toFixed(1)}" y="5" width="${width(r.start, r.end).toFixed(1)}" height="16" rx="2" fill="#0969da" fill-opacity="0.8"/>` +
            (room >= label.length * LABEL_CHAR_W + 4 ? `<text x="${(x(r.start) + 2).toFixed(1)}" y="${LANE_H - 1}" font-size="8" fill="#24292f">${e(label)}</text>` : "") +
            "</g>"
          );
        })
        .join(""),
    );
  }
  if (model.hooks.length > 0) {
    lane(
      "hooks",
      "hooks",
      "hooks",
      model.hooks
        .map((h) => `<line class="hook" x1="${x(h.t).toFixed(1)}" x2="${x(h.t).toFixed(1)}" y1="5" y2="${LANE_H - 5}" stroke="#8250df" stroke-width="2"><title>${e(`${h.event} at +${seconds(h.t - model.start)}\n${h.detail}`)}</title></line>`)
        .join(""),
    );
  }
  const lanesBottom = y;
  if (model.findings.length > 0) {
    lane(
      "findings",
      "findings",
      "findings",
      model.findings
        .map((f) => {
          const colour = pinColour(f, model.verdict);
          const cx = x(f.t).toFixed(1);
          return (
            `<g class="finding${f.red ? " red" : ""}" data-finding="${e(f.id)}"${attr("data-target", f.target)}>` +
            `<title>${e(`${f.id}${f.red ? " (red)" : ""}: ${f.title}\n${f.where}`)}</title>` +
            `<line x1="${cx}" x2="${cx}" y1="${AXIS_H - lanesBottom}" y2="6" stroke="${colour}" stroke-dasharray="2 2"/>` +
            `<circle cx="${cx}" cy="${LANE_H / 2}" r="6" fill="${colour}"/></g>`
          );
        })
        .join(""),
    );
  }

  const height = y + 4;
  const step = niceStep(span);
  const ticks: string[] = [];
  for (let t = 0; t <= span; t += step) {
    const tx = x(model.start + t).toFixed(1);
    ticks.push(`<line x1="${tx}" x2="${tx}" y1="${AXIS_H - 4}" y2="${height}" stroke="#d0d7de"/><text x="${tx}" y="${AXIS_H - 8}" font-size="10" text-anchor="middle">${e(`+${(t / 1000).toFixed(step < 1000 ? 1 : 0)}s`)}</text>`);
  }
  const rules = model.boundaries.map((b) => {
    const bx = x(b.t).toFixed(1);
    return `<line class="boundary" data-boundary="${b.kind}" x1="${bx}" x2="${bx}" y1="${AXIS_H}" y2="${lanesBottom}" stroke="${RULE_COLOURS[b.kind]}" stroke-width="2"><title>${e(`${b.kind}: ${b.label} at +${seconds(b.t - model.start)}`)}</title></line>`;
  });
  return (
    `<svg class="swimlane" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${LABEL_W + PLOT_W + RIGHT_PAD} ${height}" width="100%" font-family="system-ui, sans-serif" role="img">` +
    `<title>${e(`timeline of the run, ${seconds(span)}`)}</title>` +
    `<g class="axis">${ticks.join("")}</g>${lanes.join("")}${rules.join("")}</svg>`
  );
}

// A click on a request or finding opens the element named by its data-target (a <details> opens; a hidden one shows)
// and brings it into view.
export const SWIMLANE_SCRIPT = `
document.addEventListener('click', function (event) {
  var el = event.target && event.target.closest ? event.target.closest('svg.swimlane [data-target]') : null;
  if (!el) return;
  var target = document.getElementById(el.getAttribute('data-target'));
  if (!target) return;
  target.hidden = false;
  if (target.tagName === 'DETAILS') target.open = true;
  var parent = target.parentElement;
  while (parent) { if (parent.tagName === 'DETAILS') parent.open = true; parent = parent.parentElement; }
  target.scrollIntoView({ block: 'nearest' });
});
`;
