// What sweeps print, shared by the sweep, bench-sweep and nightly commands: the table, and a progress line per event.
import { unjudgedRange } from "../report/wording.ts";
import type { SweepFile } from "../sweep/sweep-file.ts";
import type { SweepEvent } from "../sweep/run-sweep.ts";
import { downloadLine, formatDuration, type Progress } from "./progress.ts";

export function formatSweepTable(file: SweepFile): string {
  const rows = file.versions.map((version) => {
    const r = file.results.find((x) => x.version === version);
    const verdict = r ? `${r.verdict}${r.flaky ? " (flaky)" : ""}` : "—";
    return `${version.padEnd(10)} ${verdict.padEnd(20)} ${r ? r.red.join(", ") || "" : "no result"}`;
  });
  const boundaries = file.boundaries.map((b) => `boundary ${b.before} → ${b.after}: ${b.from} → ${b.to}${b.unknownBetween.length ? ` (${b.unknownBetween.length} between without a result)` : ""}${b.unjudgedBetween.length ? `; ${unjudgedRange(b.unjudgedBetween)}` : ""}`);
  return [`${"release".padEnd(10)} ${"verdict".padEnd(20)} red findings`, ...rows, "", ...(boundaries.length ? boundaries : ["no boundary"])].join("\n");
}

export function sweepEventLine(event: SweepEvent): { line: string; advance: number } | null {
  switch (event.kind) {
    case "download":
      return event.fromCache ? null : { line: downloadLine(event.version, event.bytes, event.ms), advance: 0 };
    case "release": {
      const r = event.result;
      const ms = r.runs.reduce((sum, run) => sum + run.wallMs, 0);
      return { line: `${r.version} ${r.verdict}${r.red.length ? ` ${r.red.join(", ")}` : ""} (${formatDuration(ms)})`, advance: 1 };
    }
    default:
      return null;
  }
}

// The command a person runs to finish an interrupted sweep: the same one, which skips what has a result.
export function resumeCommand(argv: readonly string[]): string {
  return ["ccrepro", ...argv].map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(" ");
}

// A sweep's events on a progress display: the plan starts it, each finished release or download is a line.
export const showOn =
  (progress: Progress) =>
  (event: SweepEvent): void => {
    if (event.kind === "planned") return progress.start(event.total, event.already);
    const shown = sweepEventLine(event);
    if (shown) progress.event(shown.line, shown.advance);
  };
