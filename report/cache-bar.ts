// Per request, a bar of the prompt (tools, system, messages) split into what the cache model reads, writes and leaves uncached, breakpoints marked.
import type { CacheAudit, StreamAudit } from "../checker/cache-audit.ts";
import type { RequestCache } from "../mock-api/prompt-cache.ts";
import { escapeMarkup as h } from "./escape.ts";

// Inline fills, so the three parts keep their colours wherever the SVG is pasted.
export const CACHE_COLOURS = { read: "#2e7d32", written: "#f9a825", uncached: "#c62828" } as const;
const WIDTH = 720;
const BAR_Y = 8;
const BAR_H = 18;
const HEIGHT = 40;

// Bytes from the prompt's start to the end of block `index` (blocks in caching order).
const endOf = (cache: RequestCache, index: number) => cache.blocks.slice(0, index + 1).reduce((sum, b) => sum + b.bytes, 0);

function sectionStarts(cache: RequestCache): { section: string; at: number }[] {
  const starts: { section: string; at: number }[] = [];
  let at = 0;
  for (const b of cache.blocks) {
    if (starts.at(-1)?.section !== b.section) starts.push({ section: b.section, at });
    at += b.bytes;
  }
  return starts;
}

// Where reuse stops, in words: "reads up to system[2]; first difference messages[4].content[0] (changed-block)".
function stopText(cache: RequestCache): string {
  const read = cache.read.end ? `reads up to ${cache.read.end.path}` : "reads nothing";
  const diff = cache.firstDifference ? `; first difference ${cache.firstDifference.path}` : "";
  return `${read}${diff}${cache.stop === "none" ? "" : ` (${cache.stop})`}`;
}

function bar(seq: number, cache: RequestCache, scale: number): string {
  const x = (bytes: number) => Math.round(bytes * scale * 10) / 10;
  const parts = [
    { kind: "read", from: 0, to: cache.read.bytes, tokens: cache.read.tokens },
    { kind: "written", from: cache.read.bytes, to: cache.written.bytes, tokens: cache.created.tokens },
    { kind: "uncached", from: cache.written.bytes, to: cache.total.bytes, tokens: cache.uncached.tokens },
  ] as const;
  const rects = parts
    .filter((p) => p.to > p.from)
    .map(
      (p) =>
        `<rect class="cache-${p.kind}" x="${x(p.from)}" y="${BAR_Y}" width="${Math.max(1, x(p.to) - x(p.from))}" height="${BAR_H}" fill="${CACHE_COLOURS[p.kind]}"><title>${p.kind}: ~${p.tokens} tokens</title></rect>`,
    );
  const sections = sectionStarts(cache).map(
    (s) => `<line class="cache-section" x1="${x(s.at)}" x2="${x(s.at)}" y1="${BAR_Y}" y2="${HEIGHT - 2}" stroke="#000" stroke-width="1"/><text x="${x(s.at) + 2}" y="${HEIGHT - 2}" font-size="9">${h(s.section)}</text>`,
  );
  // A downward triangle above the bar at the end of each block carrying cache_control.
  const marks = cache.breakpoints.map((b) => {
    const at = x(endOf(cache, b.index));
    return `<path class="cache-breakpoint" d="M${at - 4} 0 L${at + 4} 0 L${at} ${BAR_Y} Z" fill="#1565c0"><title>breakpoint at ${h(b.path)} (ttl ${b.ttl})</title></path>`;
  });
  const caption = `req ${seq}: read ~${cache.read.tokens}, written ~${cache.created.tokens}, uncached ~${cache.uncached.tokens} of ~${cache.total.tokens} tokens — ${stopText(cache)}`;
  return (
    `<figure class="cache-bar" data-seq="${seq}" data-stop="${h(cache.stop)}"><figcaption>${h(caption)}</figcaption>` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH + 8}" height="${HEIGHT}" viewBox="-4 0 ${WIDTH + 8} ${HEIGHT}" role="img" aria-label="${h(caption)}">` +
    `${rects.join("")}${sections.join("")}${marks.join("")}</svg></figure>`
  );
}

function streamBars(audit: StreamAudit): string {
  // One scale per stream: a longer prompt is a longer bar, so growth and where reads stop compare down the list.
  const longest = Math.max(1, ...audit.requests.map((r) => r.cache.total.bytes));
  const scale = WIDTH / longest;
  const legend = (["read", "written", "uncached"] as const)
    .map((k) => `<span><svg width="10" height="10"><rect width="10" height="10" fill="${CACHE_COLOURS[k]}"/></svg> ${k}</span>`)
    .join(" ");
  return (
    `<details class="cache-bars" data-stream="${h(audit.stream)}"><summary>prompt cache — stream ${h(audit.stream)}: ${Math.round(audit.reusedFraction * 100)}% of estimated input tokens read</summary>` +
    `<div class="muted">${legend} · ▼ cache_control breakpoint · tokens estimated as bytes / 4</div>` +
    `${audit.requests.map((r) => bar(r.seq, r.cache, scale)).join("")}</details>`
  );
}

export function renderCacheBars(audit: CacheAudit): string {
  return audit.streams.map(streamBars).join("\n");
}
