// The nightly's stderr lines: the plan once, then one line per finished cell with the running tally.
import type { CellFinished, NightlyPlanned } from "./run-nightly.ts";

export function formatPlanned(planned: NightlyPlanned, outDir: string): string {
  const versions = planned.versions.length ? planned.versions.join(", ") : "no releases";
  return `nightly: ${planned.cells} cells (${planned.runs} runs) on ${versions}, ${planned.concurrency} at a time → ${outDir}`;
}

// `[3/8] RED (flaky)   unexpected   15.2s  scenario@2.1.281  — so far 2 GREEN, 1 RED, 0 INCONCLUSIVE, 0 ERROR; 1 unexpected`
export function formatCellFinished({ cell, done, total, totals, ms }: CellFinished): string {
  const counter = `[${String(done).padStart(String(total).length)}/${total}]`;
  const verdict = (cell.flaky && cell.rate !== undefined ? `${cell.rate} flaky` : `${cell.verdict}${cell.flaky ? " (flaky)" : ""}`).padEnd(12);
  const time = `${(ms / 1000).toFixed(1)}s`.padStart(7);
  const tally = `${totals.GREEN} GREEN, ${totals.RED} RED, ${totals.INCONCLUSIVE} INCONCLUSIVE, ${totals.ERROR} ERROR${totals.UNSUPPORTED ? `, ${totals.UNSUPPORTED} UNSUPPORTED` : ""}; ${totals.unexpected} unexpected`;
  return `${counter} ${verdict} ${cell.status.padEnd(10)} ${time}  ${cell.key}  — so far ${tally}`;
}
