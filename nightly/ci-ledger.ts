// The ledger a CI job keeps between runs (the GitHub Action, this repository's nightly workflow): a folder that the
// cache actions restore and save, holding the summary the next run compares with, and, so that "Re-run failed jobs"
// judges as the first attempt did, which run wrote it and the summary that run compared with.
//
//   summary.json    every cell the runs have seen, the newest run's cells winning (what the next run compares with)
//   baseline.json   the summary the run that wrote the folder compared with (absent when it had none)
//   written-by.json { runId }: the workflow run that wrote the folder
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { UserError } from "../core/errors.ts";
import { readJsonFile } from "../core/json-file.ts";
import { totalsOf } from "./cell-outcome.ts";
import { readSummary, SUMMARY_FILE, summarySchema, type Summary } from "./summary.ts";

const BASELINE_FILE = "baseline.json";
const RUN_FILE = "written-by.json";
const runSchema = z.object({ runId: z.string() });

// The cache key prefix of one matrix's ledger: a fixed-length hash of its name, then a terminator, so no name's prefix
// is the start of another name's keys (a prefix of the names themselves matched job `bug-2` when restoring `bug`).
export function ledgerKeyPrefix(name: string): string {
  return `ccrepro-ledger-${crypto.createHash("sha256").update(name).digest("hex").slice(0, 16)}-`;
}

function readRun(ledgerDir: string): z.infer<typeof runSchema> | null {
  const file = path.join(ledgerDir, RUN_FILE);
  if (!fs.existsSync(file)) return null;
  const fix = "delete the ledger's cache entry (the repository's Actions → Caches) and run again";
  const parsed = runSchema.safeParse(readJsonFile(file, "the ledger's run file", (_, message) => new UserError(`${message}; ${fix}`, "BAD_SUMMARY")));
  if (!parsed.success) throw new UserError(`${file} does not say which run wrote the ledger (${parsed.error.issues[0]!.message}); ${fix}`, "BAD_SUMMARY");
  return parsed.data;
}

// The summary this run compares with, or null: the ledger's summary, unless the ledger was written by this same
// workflow run (an earlier attempt, restored on a re-run), whose own baseline is then the one to compare with.
export function ledgerBaseline(ledgerDir: string, runId: string): string | null {
  const file = readRun(ledgerDir)?.runId === runId ? BASELINE_FILE : SUMMARY_FILE;
  const found = path.join(ledgerDir, file);
  return fs.existsSync(found) ? path.resolve(found) : null;
}

// The ledger after tonight: every cell of the baseline, tonight's replacing those with the same key, so a run of other
// releases or scenarios (a manual run) adds to what the nightly holds instead of replacing it. The rest is tonight's.
export function mergeLedger(baseline: Summary | null, tonight: Summary): Summary {
  if (baseline === null) return tonight;
  const keys = new Set(tonight.cells.map((cell) => cell.key));
  const cells = [...tonight.cells, ...baseline.cells.filter((cell) => !keys.has(cell.key))];
  const versions = new Set(tonight.releases.map((release) => release.version));
  const releases = [...tonight.releases, ...baseline.releases.filter((release) => !versions.has(release.version))];
  return summarySchema.parse({ ...tonight, cells, releases, totals: totalsOf(cells) });
}

export interface KeepLedger {
  // The nightly directory tonight's run wrote.
  nightlyDir: string;
  ledgerDir: string;
  runId: string;
  // The summary tonight compared with (ledgerBaseline's answer), or null.
  baseline: string | null;
}

// Writes the ledger folder for the next run; returns how many cells it holds. The baseline may be a file of the
// folder itself: it is read before anything is written.
export function keepLedger(options: KeepLedger): number {
  const tonight = readSummary(options.nightlyDir);
  const baseline = options.baseline === null ? null : readSummary(options.baseline);
  const merged = mergeLedger(baseline, tonight);
  fs.mkdirSync(options.ledgerDir, { recursive: true });
  const write = (file: string, value: unknown) => fs.writeFileSync(path.join(options.ledgerDir, file), `${JSON.stringify(value, null, 2)}\n`);
  if (baseline === null) fs.rmSync(path.join(options.ledgerDir, BASELINE_FILE), { force: true });
  else write(BASELINE_FILE, baseline);
  write(SUMMARY_FILE, merged);
  write(RUN_FILE, { runId: options.runId });
  return merged.cells.length;
}
