// What the atlas and bench-atlas commands print: a progress line per cell, and per entry its intervals and boundaries.
import { unjudgedRange } from "../report/wording.ts";
import { boundaryLine, type AtlasEntry, type AtlasFile } from "../atlas/atlas-file.ts";
import type { AtlasEvent } from "../atlas/run-atlas.ts";
import type { Scenario } from "../kit/scenario.ts";
import { writeAtlasSite } from "../report/atlas-site.ts";
import type { CliContext } from "./context.ts";
import { formatDuration } from "./progress.ts";

// The site of an atlas directory. Entries an earlier invocation (or a shard) added name their scenarios too: a
// built-in's known list and source go on its page; a scenario that cannot be loaded here gets a page without them.
export async function writeSiteOf(ctx: CliContext, file: AtlasFile, outDir: string, loaded: readonly Scenario[] = []): Promise<string> {
  const named = new Map(loaded.map((s) => [s.name, s]));
  for (const entry of file.entries) {
    if (!named.has(entry.scenario)) await ctx.scenarioNamed(entry.scenario).then((s) => named.set(s.name, s), () => undefined);
  }
  return writeAtlasSite(file, outDir, Object.fromEntries(named));
}

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
  const boundaries = entry.boundaries.map(
    (b) =>
      `  boundary ${boundaryLine(b)}${b.between.length ? ` (${b.between.length} release(s) between without an answer)` : ""}` +
      (b.unjudged.length ? `; ${unjudgedRange(b.unjudged)}` : ""),
  );
  const verify = entry.verify.ran.length ? [`  verify: ${entry.verify.ran.length} assumed release(s) run, ${entry.verify.disagreed.length} disagreed${entry.verify.disagreed.length ? ` (${entry.verify.disagreed.join(", ")})` : ""}`] : [];
  return [head, ...intervals, ...(boundaries.length ? boundaries : ["  no boundary"]), ...verify].join("\n");
}
