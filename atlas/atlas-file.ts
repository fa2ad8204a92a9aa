// atlas.json: per scenario and parameter variant, the releases measured, the intervals they imply (measured ends,
// assumed insides), and each boundary with the runs that prove it. Validated with zod whenever it is read back.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { UserError } from "../core/errors.ts";
import { readJsonFile } from "../core/json-file.ts";
import { verdictSchema, type CheckResult } from "../core/verdict.ts";
import { sameParsedParams } from "../kit/scenario-params.ts";
import { CCREPRO_ROOT } from "../core/package-root.ts";

export const ATLAS_FILE = "atlas.json";
export const ATLAS_RUNS_DIR = "runs";
// What the last atlas run changed in atlas.json, a line each (atlas/changes.ts), for a CI job summary to show.
export const ATLAS_CHANGES_FILE = "changes.txt";

// Why a release was measured: a stride sample, a bisection step between two samples that differ, a --verify check
// inside an assumed interval; "reused" when its verdict came from an earlier run directory and cost no run.
export const cellWhySchema = z.enum(["sample", "bisect", "verify"]);
export type CellWhy = z.infer<typeof cellWhySchema>;

const cellRunSchema = z.object({
  // Relative to the atlas directory ("../…" for a reused run elsewhere; atlases before 2026-12-02 may hold an
  // absolute path there, which resolves alike); null when the release could not be installed.
  dir: z.string().nullable(),
  verdict: verdictSchema,
  red: z.array(z.string()),
  reused: z.boolean(),
  wallMs: z.number(),
});

const cellSchema = z.object({
  version: z.string(),
  verdict: verdictSchema,
  // Sorted red finding ids: with the verdict (and flakiness), the state a boundary compares.
  red: z.array(z.string()),
  // Repeats disagreed (on the verdict or on the red findings): a state of its own, labelled with its rate.
  flaky: z.boolean(),
  // "RED 2/3" for a flaky cell, its verdict otherwise.
  label: z.string(),
  // What neighbours compare, when not the verdict and red findings (stateOf): an --until-red entry's cell with a RED
  // run is "RED (any run)", whatever its rate and whichever finding.
  state: z.string().optional(),
  reason: z.string(),
  why: cellWhySchema,
  runs: z.array(cellRunSchema),
});
export type AtlasCell = z.infer<typeof cellSchema>;

const intervalSchema = z.object({
  first: z.string(),
  last: z.string(),
  // The state every release in it has (measured or assumed); "unknown" where no measured pair of equal state encloses it.
  state: z.string(),
  verdict: verdictSchema.nullable(),
  red: z.array(z.string()),
  flaky: z.boolean(),
  measured: z.array(z.string()),
  // Releases in it that were not run: assumed to share the state of the measured ones around them.
  assumed: z.array(z.string()),
});
export type AtlasInterval = z.infer<typeof intervalSchema>;

const boundarySchema = z.object({
  before: z.string(),
  after: z.string(),
  from: z.string(),
  to: z.string(),
  // Releases between the two without an answer (not run yet, or only ERROR): empty once the pair is adjacent.
  between: z.array(z.string()),
  // Releases between the two that judged nothing (INCONCLUSIVE, UNSUPPORTED): never a side of a boundary (issue 42,
  // item 2); with them the boundary is a range, each named with why. `assumed`: not run, but inside an interval of that
  // state (the measured releases around it agree), as any assumed release is; the search does not run every release of
  // a long unjudged stretch.
  unjudged: z.array(z.object({ version: z.string(), verdict: verdictSchema, reason: z.string(), assumed: z.literal(true).optional() })).default([]),
  // The run directories whose verdicts put the boundary there.
  proof: z.object({ before: z.array(z.string()), after: z.array(z.string()) }),
});
export type AtlasBoundary = z.infer<typeof boundarySchema>;

const entrySchema = z.object({
  scenario: z.string(),
  params: z.record(z.string(), z.unknown()),
  driver: z.string(),
  sdk: z.string().nullable(),
  // Every release in the range, ascending.
  versions: z.array(z.string()),
  stride: z.int().min(1),
  repeat: z.int().min(1),
  // --until-red: runs a release until one is RED, up to this many; GREEN only when every one of them was.
  untilRed: z.int().min(1).optional(),
  cells: z.array(cellSchema),
  intervals: z.array(intervalSchema),
  boundaries: z.array(boundarySchema),
  // --verify: runs spent on random releases inside assumed intervals, and those that disagreed with the assumption.
  verify: z.object({ ran: z.array(z.string()), disagreed: z.array(z.string()) }),
  // Runs this entry started in all its invocations, and verdicts taken from earlier run directories instead.
  runs: z.int().min(0),
  reused: z.int().min(0),
  // Every boundary an adjacent pair and every sample measured.
  complete: z.boolean(),
});
export type AtlasEntry = z.infer<typeof entrySchema>;

export const atlasFileSchema = z.object({
  kind: z.literal("atlas"),
  entries: z.array(entrySchema),
  startedAt: z.string(),
  updatedAt: z.string(),
});
export type AtlasFile = z.infer<typeof atlasFileSchema>;

/** A run's red finding ids, sorted and once each: with its verdict, what a cell or a proof compares. */
export function redOf(result: Pick<CheckResult, "findings">): string[] {
  return [...new Set(result.findings.filter((f) => f.red).map((f) => f.id))].sort();
}

// "GREEN", "RED notification-changed", "FLAKY RED 2/3 notification-changed", "RED (any run)": what two neighbours must
// share to be one interval.
export function stateOf(cell: Pick<AtlasCell, "verdict" | "red" | "flaky" | "label" | "state">): string {
  if (cell.state !== undefined) return cell.state;
  return cell.flaky ? ["FLAKY", cell.label, ...cell.red].join(" ") : [cell.verdict, ...cell.red].join(" ");
}

/** The state of an --until-red cell that saw a RED run. */
export const RED_IN_ANY_RUN = "RED (any run)";

// "2.1.283 → 2.1.284: RED notification-changed → GREEN"
export function boundaryLine(b: Pick<AtlasBoundary, "before" | "after" | "from" | "to">): string {
  return `${b.before} → ${b.after}: ${b.from} → ${b.to}`;
}

// ERROR says nothing about the release (the harness failed): such a cell answers no question and bounds nothing.
export function answers(cell: Pick<AtlasCell, "verdict">): boolean {
  return cell.verdict !== "ERROR";
}


export function sameVariant(entry: Pick<AtlasEntry, "scenario" | "params" | "driver" | "sdk">, other: Pick<AtlasEntry, "scenario" | "params" | "driver" | "sdk">): boolean {
  return entry.scenario === other.scenario && entry.driver === other.driver && entry.sdk === other.sdk && sameParsedParams(entry.params, other.params);
}

/** The atlas checked in with ccrepro (and shipped in its package): what `advise` answers from by default. */
export const CHECKED_IN_ATLAS = path.join(CCREPRO_ROOT, "docs", "atlas", ATLAS_FILE);

export function readAtlasFile(dirOrFile: string): AtlasFile {
  const file = dirOrFile.endsWith(".json") ? dirOrFile : path.join(dirOrFile, ATLAS_FILE);
  const raw = readJsonFile(file, "atlas file", (_kind, message) => new UserError(message, "BAD_ATLAS"));
  const parsed = atlasFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UserError(`${file} is not an atlas file: ${issue.path.join(".")}: ${issue.message}`, "BAD_ATLAS", { hint: "pass the atlas.json (or its directory) that ccrepro atlas wrote, or write it again with the same command" });
  }
  return parsed.data;
}

// Through a temporary file and a rename, so Ctrl-C mid-write never leaves half a file to resume from.
export function writeAtlasFile(dir: string, file: AtlasFile): string {
  fs.mkdirSync(dir, { recursive: true });
  const target = path.join(dir, ATLAS_FILE);
  const temporary = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(atlasFileSchema.parse(file), null, 2)}\n`);
  fs.renameSync(temporary, target);
  return target;
}
