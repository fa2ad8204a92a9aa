// Writes every report into a directory; one reporter failing is recorded and does not stop the others.
import fs from "node:fs";
import path from "node:path";
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
  return result;
}
