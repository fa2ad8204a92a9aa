// summary.json: the machine-readable truth of a nightly (or of one run), the only input every report reads.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { checkResultSchema, verdictSchema } from "../core/verdict.ts";
import { UserError } from "../core/errors.ts";
import { readJsonFile } from "../core/json-file.ts";
import { nightlyConfigSchema } from "./config.ts";
import { expectationSchema } from "./ledger.ts";

export const SUMMARY_FILE = "summary.json";
// Cell run directories live here inside a nightly directory.
export const RUNS_DIR = "runs";

export const runSummarySchema = z.object({
  // Relative to the directory holding summary.json; null when the run never got a directory (e.g. no release to run).
  dir: z.string().nullable(),
  result: checkResultSchema,
  wallMs: z.number().nullable(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

// expected: matches the ledger. unexpected: does not. error: a harness failure, whatever the ledger says.
const CELL_STATUSES = ["expected", "unexpected", "error"] as const;

export const cellSchema = z.object({
  // scenario[params]@version: stable across nightlies, the key comparisons match on.
  key: z.string(),
  scenario: z.string(),
  // As the config gave them (defaults are in each run's run.json).
  params: z.record(z.string(), z.unknown()),
  paramsLabel: z.string(),
  version: z.string(),
  // The scenario's upstream report (its `link`), for reports that point at the bug; absent when it names none.
  link: z.string().optional(),
  // An SDK cell's driver and Agent SDK release, or the driver its entry named (also in its key and label); absent for
  // the scenario's own driver.
  drive: z.union([z.object({ driver: z.literal("sdk"), sdk: z.string() }), z.object({ driver: z.enum(["headless", "terminal"]) })]).optional(),
  // The repeats' common verdict; INCONCLUSIVE when they disagree (flaky), ERROR when any failed.
  verdict: verdictSchema,
  reason: z.string(),
  flaky: z.boolean(),
  // "RED 8/10" for a flaky cell, the verdict for a stable one; absent in summaries written before rates.
  rate: z.string().optional(),
  // Runs per verdict: what the next nightly compares its rate with (the ledger of rates).
  counts: z.partialRecord(verdictSchema, z.int()).optional(),
  // Runs added because the first ones differed from the ledger or the previous nightly.
  confirmRuns: z.int().optional(),
  // Ids of the red findings across the repeats, sorted.
  redFindings: z.array(z.string()),
  expectation: expectationSchema,
  status: z.enum(CELL_STATUSES),
  runs: z.array(runSummarySchema),
});
export type Cell = z.infer<typeof cellSchema>;

const cellStateSchema = z.object({ verdict: verdictSchema, redFindings: z.array(z.string()) });

export const CELL_CHANGE_KINDS = ["new-red", "fixed", "finding-changed", "verdict-changed", "flaky", "rate-changed"] as const;
export type CellChangeKind = (typeof CELL_CHANGE_KINDS)[number];

export const changeSchema = z.union([
  z.object({
    kind: z.enum(CELL_CHANGE_KINDS),
    key: z.string(),
    // null when the previous nightly had no such cell.
    before: cellStateSchema.nullable(),
    after: cellStateSchema,
    // Counts against the nightly: exit 1.
    regression: z.boolean(),
  }),
  z.object({ kind: z.literal("new-release"), version: z.string(), publishedAt: z.string().nullable() }),
]);
export type Change = z.infer<typeof changeSchema>;
export type CellChange = Extract<Change, { kind: CellChangeKind }>;

export const totalsSchema = z.object({
  cells: z.number().int(),
  GREEN: z.number().int(),
  RED: z.number().int(),
  INCONCLUSIVE: z.number().int(),
  ERROR: z.number().int(),
  // Absent in summaries written before the verdict existed.
  UNSUPPORTED: z.number().int().optional(),
  expected: z.number().int(),
  unexpected: z.number().int(),
  flaky: z.number().int(),
});
export type Totals = z.infer<typeof totalsSchema>;

export const shardSchema = z.object({ index: z.number().int().min(1), count: z.number().int().min(1) });
export type Shard = z.infer<typeof shardSchema>;

export const releaseSchema = z.object({ version: z.string(), publishedAt: z.string().nullable() });
export type Release = z.infer<typeof releaseSchema>;

// 0: everything matches the ledger and nothing regressed; 1: something unexpected or changed; 3: harness errors.
export const NIGHTLY_EXIT = { ok: 0, regressed: 1, harnessError: 3 } as const;

// The atlas this nightly extended (its config's `atlas`): where it is kept, what this night spent on it, and each
// entry's boundaries as they stood when it finished, so the series of nightlies keeps the atlas's history.
export const nightlyAtlasSchema = z.object({
  // The atlas directory (atlas.json, site/, runs/), relative to the directory holding summary.json.
  dir: z.string(),
  runs: z.int().min(0),
  reused: z.int().min(0),
  interrupted: z.boolean(),
  entries: z.array(
    z.object({
      scenario: z.string(),
      params: z.record(z.string(), z.unknown()),
      releases: z.int().min(0),
      measured: z.int().min(0),
      // "2.1.283 → 2.1.284: RED notification-changed → GREEN"
      boundaries: z.array(z.string()),
      complete: z.boolean(),
    }),
  ),
  // What tonight changed in the atlas, a line each (atlas/changes.ts): boundaries gained or lost, releases whose state
  // is now another, the releases added. Absent in summaries written before nightlies said so.
  changes: z.array(z.string()).optional(),
});
export type NightlyAtlas = z.infer<typeof nightlyAtlasSchema>;

export const summarySchema = z.object({
  format: z.literal(1),
  // run: one run directory shown as a one-cell matrix (`ccrepro report RUN_DIR`).
  kind: z.enum(["nightly", "run"]),
  startedAt: z.string(),
  endedAt: z.string(),
  wallMs: z.number(),
  // The configuration after defaults; null for a single run.
  config: nightlyConfigSchema.nullable(),
  // What each version word resolved to when this nightly planned its matrix.
  versionWords: z.array(z.object({ word: z.string(), versions: z.array(z.string()) })),
  releases: z.array(releaseSchema),
  // This summary covers one slice of the matrix; null for a whole (or merged) matrix.
  shard: shardSchema.nullable(),
  // Shard directories this summary was merged from, relative to it.
  mergedFrom: z.array(z.string()),
  cells: z.array(cellSchema),
  previous: z.object({ path: z.string(), startedAt: z.string() }).nullable(),
  changes: z.array(changeSchema),
  totals: totalsSchema,
  exitCode: z.union([z.literal(0), z.literal(1), z.literal(3)]),
  // Absent when the config asks for no atlas (and in summaries written before it could).
  atlas: nightlyAtlasSchema.optional(),
});
export type Summary = z.infer<typeof summarySchema>;

// A summary file, or a directory holding one.
export function summaryPath(fileOrDir: string): string {
  return fs.existsSync(fileOrDir) && fs.statSync(fileOrDir).isDirectory() ? path.join(fileOrDir, SUMMARY_FILE) : fileOrDir;
}

export function readSummary(fileOrDir: string): Summary {
  const file = summaryPath(fileOrDir);
  const raw = readJsonFile(file, "nightly summary", (_, message) => new UserError(`${message}; point at a nightly directory or its summary.json`, "BAD_SUMMARY"));
  const parsed = summarySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UserError(
      `${file} is not a ccrepro summary.json (${issue.path.join(".") || "top level"}: ${issue.message}); point at a nightly directory or its summary.json.`,
      "BAD_SUMMARY",
    );
  }
  return parsed.data;
}
