// What the atlas and bench-atlas commands print: a progress line per cell, and per entry its intervals and boundaries.
import type { AtlasEntry } from "../atlas/atlas-file.ts";
import type { AtlasEvent } from "../atlas/run-atlas.ts";
import { formatDuration } from "./progress.ts";

export function atlasEventLine(event: AtlasEvent): string | null {
  switch (event.kind) {
    case "reuse":
      return event.matched > 0 ? `${event.scenario}: ${event.matched} earlier run(s) of ${event.releases} release(s) match (scenario, parameters, driver, binary) and are reused` : null;
    case "start":
      return null;
    case "cell": {
      const c = event.cell;
      const fresh = c.runs.filter((r) => !r.reused);
      const ms = fresh.reduce((sum, r) => sum + r.wallMs, 0);
      const how = fresh.length === 0 ? "reused" : formatDuration(ms);
      return `${event.scenario} ${c.version} (${c.why}) ${c.label}${c.red.length ? ` ${c.red.join(", ")}` : ""} — ${how}; ${event.runs} run(s) so far`;
    }
  }
}

export function formatAtlasEntry(entry: AtlasEntry): string {
  const params = Object.keys(entry.params).length ? ` ${JSON.stringify(entry.params)}` : "";
  const head = `${entry.scenario}${params} (${entry.driver}) on ${entry.versions[0]} – ${entry.versions[entry.versions.length - 1]}: ${entry.versions.length} releases, ${entry.cells.length} measured, ${entry.runs} run(s), ${entry.reused} reused${entry.complete ? "" : ", NOT complete"}`;
  const intervals = entry.intervals.map((i) => `  ${`${i.first} – ${i.last}`.padEnd(22)} ${i.state.padEnd(44)} ${i.measured.length} measured, ${i.assumed.length} assumed`);
  const boundaries = entry.boundaries.map((b) => `  boundary ${b.before} → ${b.after}: ${b.from} → ${b.to}${b.between.length ? ` (${b.between.length} release(s) between without an answer)` : ""}`);
  const verify = entry.verify.ran.length ? [`  verify: ${entry.verify.ran.length} assumed release(s) run, ${entry.verify.disagreed.length} disagreed${entry.verify.disagreed.length ? ` (${entry.verify.disagreed.join(", ")})` : ""}`] : [];
  return [head, ...intervals, ...(boundaries.length ? boundaries : ["  no boundary"]), ...verify].join("\n");
}
