// Every logged request as collapsible JSON: what changed since the stream's previous request, and where cache_control sits.
import { isDeepStrictEqual } from "node:util";
import type { Recordings } from "../harness/recordings.ts";
import type { RequestEntry } from "../mock-api/log-entry.ts";
import { escapeMarkup as h, scriptJson } from "./escape.ts";
import { requestTargetId } from "./swimlane-model.ts";

// Paths are JSON pointers ("/messages/3/content/0"); "" is the whole body.
export interface BodyChanges {
  // Present in both and different: a value, or an object or array that lost keys or items (others are descended into).
  changed: string[];
  // Present only in this body: a new message, a new block, a new key.
  added: string[];
}

const isContainer = (v: unknown): v is Record<string, unknown> | unknown[] => typeof v === "object" && v !== null;
const pointer = (path: string, key: string | number) => `${path}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;

// The smallest parts that differ: a new message shows as one added path, an edited block as the leaves that changed.
export function bodyChanges(previous: unknown, current: unknown, path = ""): BodyChanges {
  const out: BodyChanges = { changed: [], added: [] };
  const walk = (a: unknown, b: unknown, at: string) => {
    if (isDeepStrictEqual(a, b)) return;
    if (isContainer(a) && isContainer(b) && Array.isArray(a) === Array.isArray(b)) {
      // A part that lost a key (a cache_control moved on, a message dropped) is itself what changed: the lost key
      // has no node of its own to mark in the new body.
      if (Object.keys(a).some((key) => !Object.hasOwn(b, key))) out.changed.push(at);
      for (const [key, value] of Object.entries(b)) {
        const here = pointer(at, key);
        if (Object.hasOwn(a, key)) walk((a as Record<string, unknown>)[key], value, here);
        else out.added.push(here);
      }
      return;
    }
    out.changed.push(at);
  };
  walk(previous, current, path);
  return out;
}

// Objects that carry a cache_control key: the prompt-cache breakpoints the client asked for, in body order.
export function cacheBreakpoints(body: unknown, path = ""): { path: string; cacheControl: unknown }[] {
  if (!isContainer(body)) return [];
  const own = !Array.isArray(body) && Object.hasOwn(body, "cache_control") ? [{ path, cacheControl: body["cache_control"] }] : [];
  return [...own, ...Object.entries(body).flatMap(([key, value]) => cacheBreakpoints(value, pointer(path, key)))];
}

type ParsedBody = { kind: "json"; value: unknown } | { kind: "text"; text: string } | { kind: "missing"; reason: string };

function parseBody(rec: Recordings, entry: RequestEntry): ParsedBody {
  let bytes: Buffer;
  try {
    bytes = rec.body(entry.seq);
  } catch {
    return { kind: "missing", reason: `body not kept (${entry.bodyBytes} bytes when received; fixtures are pruned)` };
  }
  const text = bytes.toString("utf8");
  try {
    return { kind: "json", value: JSON.parse(text) as unknown };
  } catch {
    return { kind: "text", text };
  }
}

// What the page's script renders when a request is opened.
export interface InspectorData {
  seq: number;
  previous: number | null;
  body: ParsedBody;
  changes: BodyChanges | null;
  breakpoints: string[];
}

export function inspectorData(rec: Recordings): InspectorData[] {
  const bodies = new Map(rec.requests.map((r) => [r.seq, parseBody(rec, r)]));
  return rec.requests.map((r) => {
    // Compared within a stream only: the main loop's request with the main loop's last one, never with a side call.
    const previous = r.stream === null ? undefined : rec.requests.filter((p) => p.stream === r.stream && p.seq < r.seq).at(-1);
    const body = bodies.get(r.seq)!;
    const before = previous ? bodies.get(previous.seq) : undefined;
    return {
      seq: r.seq,
      previous: previous?.seq ?? null,
      body,
      changes: body.kind === "json" && before?.kind === "json" ? bodyChanges(before.value, body.value) : null,
      breakpoints: body.kind === "json" ? cacheBreakpoints(body.value).map((b) => b.path) : [],
    };
  });
}

function summaryLine(r: RequestEntry, d: InspectorData): string {
  const what = [
    `req ${r.seq}`,
    `${r.method} ${r.path}`,
    r.stream === null ? "" : `stream ${r.stream}`,
    r.step === null ? "" : `step ${r.step}`,
    r.messageCount === null ? "" : `${r.messageCount} msgs`,
    r.reply.summary,
    r.reply.stopReason ? `stop=${r.reply.stopReason}` : "",
  ].filter(Boolean);
  const marks = [
    d.changes === null ? (d.previous === null ? "first of its stream" : "") : `${d.changes.changed.length + d.changes.added.length} changed since req ${d.previous}`,
    d.breakpoints.length ? `${d.breakpoints.length} cache breakpoint${d.breakpoints.length === 1 ? "" : "s"}` : "",
    `${(r.bodyBytes / 1024).toFixed(1)} KiB`,
  ].filter(Boolean);
  return `${h(what.join(" · "))} <span class="muted">— ${h(marks.join(" · "))}</span>`;
}

// One <details> per request (id: requestTargetId, so the swimlane's bars open it); its JSON is rendered on first open.
export function requestInspector(rec: Recordings, prefix = ""): string {
  const data = new Map(inspectorData(rec).map((d) => [d.seq, d]));
  const items = rec.requests.map((r) => {
    const d = data.get(r.seq)!;
    return (
      `<details class="request" id="${h(requestTargetId(prefix, r.seq))}" data-seq="${r.seq}"><summary>${summaryLine(r, d)}</summary>` +
      `<div class="json-tree"></div><script type="application/json" class="request-data">${scriptJson(d)}</script></details>`
    );
  });
  return `<section class="requests"><h3>Requests</h3><p class="muted">Open a request for its body. <span class="jt-changed">Changed</span> and <span class="jt-added">added</span> parts are marked against the previous request of the same stream; <span class="jt-bp">cache_control</span> marks a prompt-cache breakpoint.</p>${items.join("\n")}</section>`;
}

export const INSPECTOR_STYLE = `
details.request { border-left: 3px solid #d0d7de; padding-left: 8px; }
details.request > summary { cursor: pointer; font: 12px ui-monospace, monospace; }
details.request:target, details.request.focus { border-left-color: #0969da; }
.json-tree { font: 12px/1.45 ui-monospace, monospace; margin: 4px 0 8px; }
.json-tree details { margin: 0 0 0 14px; } .json-tree > details { margin-left: 0; }
.json-tree summary { cursor: pointer; }
.json-tree .jt-leaf { margin-left: 14px; white-space: pre-wrap; word-break: break-word; max-height: 12em; overflow: auto; }
.json-tree .k { color: #8250df; } .json-tree .n { color: #57606a; }
.jt-changed, .json-tree .changed > summary, .json-tree .jt-leaf.changed { background: #fff8c5; }
.jt-added, .json-tree .added > summary, .json-tree .jt-leaf.added { background: #dafbe1; }
.json-tree .has-changes > summary::after { content: " ●"; color: #9a6700; }
.jt-bp, .json-tree .bp-badge { background: #ddf4ff; color: #0969da; border-radius: 3px; padding: 0 4px; }
.json-tree .bp > summary { box-shadow: inset 3px 0 #0969da; }
`;

// Builds the tree with DOM calls (text stays text). Changed parts and their ancestors start open; the rest folded.
export const INSPECTOR_SCRIPT = `
(function () {
  function esc(key) { return String(key).replace(/~/g, '~0').replace(/\\//g, '~1'); }
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
  function render(d, into) {
    if (d.body.kind === 'missing') { into.appendChild(el('div', 'muted', d.body.reason)); return; }
    if (d.body.kind === 'text') { into.appendChild(el('pre', '', d.body.text)); return; }
    var changed = new Set(d.changes ? d.changes.changed : []), added = new Set(d.changes ? d.changes.added : []);
    var marked = (d.changes ? d.changes.changed.concat(d.changes.added) : []).concat(d.breakpoints);
    function inside(path) { return marked.some(function (p) { return p !== path && p.indexOf(path + '/') === 0; }); }
    function node(key, value, path) {
      var label = key === null ? 'body' : key;
      var mark = changed.has(path) ? ' changed' : added.has(path) ? ' added' : '';
      if (value !== null && typeof value === 'object') {
        var keys = Object.keys(value);
        var det = el('details', (mark ? mark.slice(1) : '') + (d.breakpoints.indexOf(path) >= 0 ? ' bp' : '') + (inside(path) ? ' has-changes' : ''));
        det.setAttribute('data-path', path);
        var sum = el('summary');
        sum.appendChild(el('span', 'k', label));
        sum.appendChild(el('span', 'n', Array.isArray(value) ? ' [' + keys.length + ']' : ' {' + keys.length + '}'));
        if (!Array.isArray(value) && typeof value.type === 'string') sum.appendChild(el('span', 'n', ' ' + value.type));
        if (!Array.isArray(value) && typeof value.role === 'string') sum.appendChild(el('span', 'n', ' ' + value.role));
        if (d.breakpoints.indexOf(path) >= 0) { sum.appendChild(document.createTextNode(' ')); sum.appendChild(el('span', 'bp-badge', 'cache_control ' + JSON.stringify(value.cache_control))); }
        det.appendChild(sum);
        det.open = path === '' || inside(path);
        var filled = false;
        function fill() { if (filled) return; filled = true; keys.forEach(function (k) { det.appendChild(node(k, value[k], path + '/' + esc(k))); }); }
        if (det.open) fill(); else det.addEventListener('toggle', fill);
        return det;
      }
      var leaf = el('div', 'jt-leaf' + mark);
      leaf.setAttribute('data-path', path);
      leaf.appendChild(el('span', 'k', label + ': '));
      leaf.appendChild(el('span', 'v', JSON.stringify(value)));
      return leaf;
    }
    into.appendChild(node(null, d.body.value, ''));
  }
  function open(details) {
    var tree = details.querySelector('.json-tree');
    if (!tree || tree.childNodes.length) return;
    render(JSON.parse(details.querySelector('script.request-data').textContent), tree);
  }
  document.querySelectorAll('details.request').forEach(function (details) {
    details.addEventListener('toggle', function () { if (details.open) open(details); });
    if (details.open) open(details);
  });
})();
`;
