// The runs that prove an atlas's boundaries, kept where the atlas is checked in: each boundary's runs on both sides
// copied pruned (report/prune-fixture.ts, every machine path replaced) under proofs/, re-checked after the prune so a
// kept proof gives the verdict its cell records, and the atlas written with its proofs named by those paths.
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.ts";
import { readAtlasFile, redOf, stateOf, writeAtlasFile, type AtlasCell, type AtlasEntry, type AtlasFile } from "../atlas/atlas-file.ts";
import type { Scenario } from "../kit/scenario.ts";
import { checkRecordedRun } from "../pipeline/check-recorded-run.ts";
import { copyRun, type CopyOptions } from "./prune-fixture.ts";
import { anonymiseText, replacementsFor, thisMachine } from "./anonymise.ts";

/** Where proofs go inside the checked-in atlas directory. */
export const PROOFS_DIR = "proofs";
/** The most one proof may take on disk, and all of them together: what the repository is asked to hold. */
export const PROOF_BUDGET = { each: 200 * 1024, total: 40 * 1024 * 1024 } as const;

/** One kept proof: its path inside the atlas directory, its size, and what re-checking it gives. */
export interface KeptProof {
  dir: string;
  bytes: number;
  verdict: AtlasCell["verdict"];
  red: string[];
}

export interface ProofsOutcome {
  file: AtlasFile;
  kept: KeptProof[];
  // Proof runs that could not be kept, with why (gone, over the budget, or a re-check that disagrees after pruning).
  refused: { dir: string; why: string }[];
  // Entries left out of the written atlas, each with why: a proof of theirs was not kept, or the search that measured
  // them was cut before every boundary was an adjacent pair. It holds only what it can prove.
  leftOut: { entry: string; why: string }[];
}

// Least pruned first: request headers dropped; then long texts trimmed; then the tool definitions left out of each
// body (most of a request's bytes). A prune is kept only if the pruned copy re-checks as the run did, so a check that
// reads what a prune takes away keeps a fuller copy, or none if that is over the budget.
const WHOLE: CopyOptions = { bodies: "all", stream: null, bodyKeys: null, trimText: null, dropHeaders: true, mockOnly: false, foreground: null };
const WITHOUT_TOOLS = ["model", "system", "messages", "max_tokens", "stream", "metadata", "thinking", "temperature", "tool_choice", "stop_sequences"];
const SMALLER: CopyOptions[] = [WHOLE, { ...WHOLE, trimText: 2000 }, { ...WHOLE, trimText: 300 }, { ...WHOLE, bodyKeys: WITHOUT_TOOLS, trimText: 2000 }, { ...WHOLE, bodyKeys: WITHOUT_TOOLS, trimText: 300 }];
// Then the same with claude's transcripts, for the checks that read them (compaction, resume), and last with the
// transcripts' non-message rows (prompt snapshots, request shapes: most of a compaction's transcript) cut to their place.
const WITH_TRANSCRIPTS = SMALLER.map((prune) => ({ ...prune, transcripts: true }));
// Last, every text whole but each body's tools and then its system prompt left out: for a check that reads a long text
// to its end (nested-subagent-reply-routed finds the child's <result> near the end of a task notification), which any
// trim cuts, in a run whose whole bodies are over the budget.
const MESSAGES_ONLY = WITHOUT_TOOLS.filter((key) => key !== "system");
const WHOLE_TEXTS: CopyOptions[] = [{ ...WHOLE, bodyKeys: WITHOUT_TOOLS }, { ...WHOLE, bodyKeys: MESSAGES_ONLY }];
const PRUNES: CopyOptions[] = [...SMALLER, ...WITH_TRANSCRIPTS, ...WITH_TRANSCRIPTS.map((prune) => ({ ...prune, bareSideRows: true })), ...WHOLE_TEXTS];

/** Bytes under a directory, files only. */
export function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** The verdict and red findings a run directory gives when its scenario's check judges it again. */
export function recheck(runDir: string, scenarioNamed: (name: string) => Scenario | undefined): RunState {
  const result = checkRecordedRun(runDir, scenarioNamed);
  return { verdict: result.verdict, red: redOf(result) };
}

type RunState = Pick<AtlasCell, "verdict" | "red">;
// One run's state, as a cell that is not flaky has it.
const stateOfRun = (run: RunState) => stateOf({ ...run, flaky: false, label: run.verdict });

/**
 * Copies every boundary's proof runs of the atlas in `fromDir` into `toDir/proofs/`, pruned and re-checked, and writes
 * the atlas into `toDir` with each kept proof (and its cell's run) named by its path there.
 */
export function keepProofs(fromDir: string, toDir: string, scenarioNamed: (name: string) => Scenario | undefined, budget: typeof PROOF_BUDGET | { each: number; total: number } = PROOF_BUDGET): ProofsOutcome {
  const atlas = readAtlasFile(fromDir);
  const kept: KeptProof[] = [];
  const refused: ProofsOutcome["refused"] = [];
  const renamed = new Map<string, string>();
  const proofDirs = new Set(atlas.entries.flatMap((entry) => entry.boundaries.flatMap((b) => [...b.proof.before, ...b.proof.after])));
  for (const dir of proofDirs) {
    const source = path.resolve(fromDir, dir);
    const recorded = runOf(atlas.entries, dir);
    if (!fs.existsSync(source)) {
      refused.push({ dir, why: "the run directory is gone" });
      continue;
    }
    const target = path.join(path.resolve(toDir), PROOFS_DIR, path.basename(source));
    const outcome = keepOne(source, target, recorded, scenarioNamed, budget.each);
    if ("why" in outcome) refused.push({ dir, why: outcome.why });
    else {
      const inside = path.relative(path.resolve(toDir), target).split(path.sep).join("/");
      renamed.set(dir, inside);
      kept.push({ dir: inside, bytes: outcome.bytes, ...recorded });
    }
  }
  const total = kept.reduce((sum, proof) => sum + proof.bytes, 0);
  if (total > budget.total) {
    throw new UserError(`the proofs take ${total} bytes, over the ${budget.total}-byte budget`, "BAD_ATLAS", { hint: "keep proofs for fewer scenarios at once, or raise PROOF_BUDGET in report/atlas-proofs.ts and say why" });
  }
  const rename = (dir: string) => renamed.get(dir) ?? dir;
  const unproved = new Set(refused.map((r) => r.dir));
  const provable = (entry: AtlasEntry) => entry.boundaries.every((b) => [...b.proof.before, ...b.proof.after].every((dir) => !unproved.has(dir)));
  const whyLeftOut = (entry: AtlasEntry) => (!entry.complete ? "its search was cut before it finished" : !provable(entry) ? "a proof of it was not kept" : null);
  const leftOut = atlas.entries.flatMap((entry) => {
    const why = whyLeftOut(entry);
    return why === null ? [] : [{ entry: `${entry.scenario} ${JSON.stringify(entry.params)}`, why }];
  });
  const entries = atlas.entries.filter((entry) => whyLeftOut(entry) === null).map((entry) => ({
    ...entry,
    cells: entry.cells.map((cell) => ({ ...cell, runs: cell.runs.map((run) => ({ ...run, dir: run.dir === null ? null : rename(run.dir) })) })),
    boundaries: entry.boundaries.map((b) => ({ ...b, proof: { before: b.proof.before.map(rename), after: b.proof.after.map(rename) } })),
  }));
  // A cell's reason may quote a path of this machine (an ERROR's message names the release cache): written as a
  // recording's paths are, so the checked-in atlas names none.
  const file = JSON.parse(anonymiseText(JSON.stringify({ ...atlas, entries }), replacementsFor(thisMachine()))) as AtlasFile;
  writeAtlasFile(toDir, file);
  // A kept proof of an entry left out proves nothing the atlas says: it goes too.
  const named = new Set(entries.flatMap((e) => e.boundaries.flatMap((b) => [...b.proof.before, ...b.proof.after])));
  for (const proof of kept.filter((p) => !named.has(p.dir))) fs.rmSync(path.join(toDir, proof.dir), { recursive: true, force: true });
  return { file, kept: kept.filter((proof) => named.has(proof.dir)), refused, leftOut };
}

// The verdict a proof run had when the atlas measured it.
function runOf(entries: readonly AtlasEntry[], dir: string): RunState {
  for (const entry of entries) {
    for (const cell of entry.cells) {
      const run = cell.runs.find((r) => r.dir === dir);
      if (run) return { verdict: run.verdict, red: [...run.red] };
    }
  }
  throw new UserError(`the atlas names the proof ${dir}, which no cell ran`, "BAD_ATLAS", { hint: "write the atlas again with ccrepro atlas" });
}

// Why no prune was kept names both ways it can fail, since the fuller copies and the smaller ones fail differently:
// the smallest copy that still re-checks as recorded (over the budget), and what a smaller one re-checks as.
function keepOne(source: string, target: string, recorded: RunState, scenarioNamed: (name: string) => Scenario | undefined, eachBudget: number): { bytes: number } | { why: string } {
  let smallestAgreeing: number | null = null;
  let disagreeing: string | null = null;
  for (const prune of PRUNES) {
    fs.rmSync(target, { recursive: true, force: true });
    copyRun(source, target, prune);
    const bytes = sizeOf(target);
    const again = recheck(target, scenarioNamed);
    if (stateOfRun(again) !== stateOfRun(recorded)) disagreeing = `${again.verdict}${again.red.length ? ` ${again.red.join(" ")}` : ""}`;
    else if (bytes > eachBudget) smallestAgreeing = Math.min(bytes, smallestAgreeing ?? bytes);
    else return { bytes };
  }
  fs.rmSync(target, { recursive: true, force: true });
  const why = [
    smallestAgreeing === null ? null : `the smallest copy that re-checks as recorded takes ${smallestAgreeing} bytes, over ${eachBudget}`,
    disagreeing === null ? null : `a smaller one re-checks ${disagreeing}, not ${recorded.verdict}${recorded.red.length ? ` ${recorded.red.join(" ")}` : ""}`,
  ].filter((part): part is string => part !== null);
  return { why: `pruned: ${why.join("; ")}` };
}
