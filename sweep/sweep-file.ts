// sweep.json: one scenario over a list of releases, a result per release as it finishes, and the boundaries between them.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { UserError } from "../core/errors.ts";
import { readJsonFile } from "../core/json-file.ts";
import { judgedRelease, verdictSchema } from "../core/verdict.ts";

export const SWEEP_FILE = "sweep.json";
export const SWEEP_RUNS_DIR = "runs";

const releaseResultSchema = z.object({
  version: z.string(),
  verdict: verdictSchema,
  reason: z.string(),
  // The red findings' ids, sorted: with the verdict, what a boundary compares.
  red: z.array(z.string()),
  flaky: z.boolean(),
  // One per repeat, relative to the sweep directory; null when the release could not be installed.
  runs: z.array(z.object({ dir: z.string().nullable(), verdict: verdictSchema, wallMs: z.number() })),
  // Fetch and unpack time for the release (0 on a cache hit) and the bytes downloaded.
  downloadMs: z.number(),
  downloadedBytes: z.number(),
  finishedAt: z.string(),
});
export type ReleaseResult = z.infer<typeof releaseResultSchema>;

const boundarySchema = z.object({
  // The adjacent pair with results on either side of the change (releases between them have no result yet).
  before: z.string(),
  after: z.string(),
  from: z.string(),
  to: z.string(),
  // Releases in the list between the two that have no result (a shard not merged yet, an interrupted sweep).
  unknownBetween: z.array(z.string()),
  // Releases between the two whose result judged nothing (INCONCLUSIVE, ERROR, UNSUPPORTED): never a side, as git
  // bisect skips them; with them the boundary is a range, and each says why (issue 42, item 2).
  unjudgedBetween: z.array(z.object({ version: z.string(), verdict: verdictSchema, reason: z.string() })).default([]),
});
export type Boundary = z.infer<typeof boundarySchema>;

export const sweepFileSchema = z.object({
  kind: z.literal("sweep"),
  scenario: z.string(),
  params: z.record(z.string(), z.unknown()),
  // The driver axis, when the sweep asked for one (`--driver sdk --sdk 0.3.197`); the scenario's default otherwise.
  drive: z.object({ driver: z.enum(["headless", "sdk"]), sdk: z.string().nullable() }).optional(),
  // The range or list as the user wrote it, and what it resolved to (ascending, the whole list, not one shard's slice).
  versionsWord: z.string(),
  versions: z.array(z.string()),
  repeat: z.int().min(1),
  shards: z.array(z.object({ index: z.int(), count: z.int() })),
  results: z.array(releaseResultSchema),
  boundaries: z.array(boundarySchema),
  startedAt: z.string(),
  updatedAt: z.string(),
});
export type SweepFile = z.infer<typeof sweepFileSchema>;

// "RED notification-changed", "GREEN", "ERROR": the outcome boundaries compare.
export function outcomeOf(result: Pick<ReleaseResult, "verdict" | "red">): string {
  return [result.verdict, ...result.red].join(" ");
}

// Neighbouring judged releases (in list order) whose outcomes differ, with what lies between them unjudged or unrun.
export function boundariesOf(versions: readonly string[], results: readonly ReleaseResult[]): Boundary[] {
  const byVersion = new Map(results.map((r) => [r.version, r]));
  const boundaries: Boundary[] = [];
  let previous: ReleaseResult | null = null;
  let unknown: string[] = [];
  let unjudged: Boundary["unjudgedBetween"] = [];
  for (const version of versions) {
    const result = byVersion.get(version);
    if (!result || !judgedRelease(result)) {
      if (previous && !result) unknown.push(version);
      if (previous && result) unjudged.push({ version, verdict: result.verdict, reason: result.reason });
      continue;
    }
    if (previous && outcomeOf(previous) !== outcomeOf(result)) {
      boundaries.push({ before: previous.version, after: version, from: outcomeOf(previous), to: outcomeOf(result), unknownBetween: unknown, unjudgedBetween: unjudged });
    }
    previous = result;
    unknown = [];
    unjudged = [];
  }
  return boundaries;
}

// Results kept in the list's order, boundaries recomputed: the one way a sweep file's derived parts are made.
export function withResults(file: SweepFile, results: readonly ReleaseResult[]): SweepFile {
  const order = new Map(file.versions.map((v, i) => [v, i]));
  const sorted = [...results].sort((a, b) => (order.get(a.version) ?? 0) - (order.get(b.version) ?? 0));
  return { ...file, results: sorted, boundaries: boundariesOf(file.versions, sorted), updatedAt: new Date().toISOString() };
}

export function readSweepFile(dirOrFile: string): SweepFile {
  const file = dirOrFile.endsWith(".json") ? dirOrFile : path.join(dirOrFile, SWEEP_FILE);
  const raw = readJsonFile(file, "sweep file", (_kind, message) => new UserError(message, "BAD_SWEEP"));
  const parsed = sweepFileSchema.safeParse(raw);
  if (!parsed.success) throw new UserError(`${file} is not a sweep file: ${parsed.error.issues[0]!.message}`, "BAD_SWEEP");
  return parsed.data;
}

// Written through a temporary file and a rename, so Ctrl-C mid-write never leaves half a file to resume from.
export function writeSweepFile(dir: string, file: SweepFile): string {
  fs.mkdirSync(dir, { recursive: true });
  const target = path.join(dir, SWEEP_FILE);
  const temporary = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`);
  fs.renameSync(temporary, target);
  return target;
}
