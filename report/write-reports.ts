// Writes every report into a directory; one reporter failing is recorded and does not stop the others.
import fs from "node:fs";
import path from "node:path";
import { cellPagePath, renderCellPage } from "./html.ts";
import { writeReleaseStrip } from "./release-strip.ts";
import type { ReportInput } from "./report-target.ts";
import { REPORTERS, type Reporter } from "./reporters.ts";

export interface ReportsWritten {
  // Absolute paths, in reporter order.
  written: string[];
  failed: { file: string; error: string }[];
}

export function writeReports(input: ReportInput, outDir: string, reporters: readonly Reporter[] = REPORTERS): ReportsWritten {
  const result: ReportsWritten = { written: [], failed: [] };
  fs.mkdirSync(outDir, { recursive: true });
  for (const reporter of reporters) {
    const file = path.join(outDir, reporter.file);
    try {
      fs.writeFileSync(file, reporter.render(input));
      result.written.push(file);
    } catch (error) {
      result.failed.push({ file, error: (error as Error).stack ?? String(error) });
    }
  }
  if (reporters.some((r) => r.format === "html")) {
    for (const pages of [writeCellPages(input, outDir), writeSweepStrips(input)]) {
      result.written.push(...pages.written);
      result.failed.push(...pages.failed);
    }
  }
  return result;
}

// A nightly's index.html links to one page per cell that embeds its runs (player, swimlane, request bodies): written
// here, next to it, so the index stays small. A cell whose runs left no directory has nothing to embed.
export function writeCellPages(input: ReportInput, outDir: string): ReportsWritten {
  const result: ReportsWritten = { written: [], failed: [] };
  if (input.summary.kind !== "nightly") return result;
  input.summary.cells.forEach((cell, i) => {
    if (cell.runs.every((r) => r.dir === null)) return;
    const file = path.join(outDir, cellPagePath(cell));
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, renderCellPage(input, i));
      result.written.push(file);
    } catch (error) {
      result.failed.push({ file, error: (error as Error).stack ?? String(error) });
    }
  });
  return result;
}

// Each sweep a nightly ran gets its release strip in its own directory; the nightly's index links to them.
function writeSweepStrips(input: ReportInput): ReportsWritten {
  const result: ReportsWritten = { written: [], failed: [] };
  for (const sweep of input.sweeps ?? []) {
    try {
      result.written.push(writeReleaseStrip(sweep.file, sweep.dir));
    } catch (error) {
      result.failed.push({ file: sweep.dir, error: (error as Error).stack ?? String(error) });
    }
  }
  return result;
}
