// Shared by `nightly` and `report --merge`: write every report of a nightly, say where they are, set the exit code.
import type { ReportInput } from "../report/report-target.ts";
import { EXIT_ERROR } from "../core/exit-codes.ts";
import { headline, tally } from "../report/wording.ts";
import { writeReports } from "../report/write-reports.ts";
import type { CliContext } from "./context.ts";

// Exits by the summary, or 3 if a report failed.
export function publishNightly(ctx: CliContext, input: ReportInput, outDir: string): void {
  const { written, failed } = writeReports(input, outDir);
  for (const f of failed) ctx.note(`ccrepro: could not write ${f.file}:\n${f.error}`);
  ctx.print(headline(input.summary));
  ctx.print(tally(input.summary));
  for (const file of written) ctx.print(`  ${file}`);
  const index = written.find((file) => file.endsWith("index.html"));
  if (index) ctx.print(`open ${index}`);
  ctx.setExit(failed.length > 0 ? EXIT_ERROR : input.summary.exitCode);
}

