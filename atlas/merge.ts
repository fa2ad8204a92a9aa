// Several atlas directories (shards of the same scenarios over adjacent release ranges) into one: each file read
// back through the schema, the entries of one variant joined (their ranges and cells united, run directories copied
// under the merged atlas's runs/), intervals and boundaries recomputed. Nothing is run here: a boundary whose two
// sides lie in different shards with releases between them stays open (`between`, complete false) until the
// merged atlas is resumed (`ccrepro atlas --merge … --resolve`).
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.ts";
import { ATLAS_FILE, ATLAS_RUNS_DIR, answers, readAtlasFile, sameVariant, writeAtlasFile, type AtlasCell, type AtlasEntry, type AtlasFile } from "./atlas-file.ts";
import type { Driver } from "../kit/scenario.ts";
import { loadScenario } from "../pipeline/scenario-source.ts";
import type { ReleaseRunner } from "../pipeline/run-scenario.ts";
import { runAtlas, withCells, type AtlasEvent } from "./run-atlas.ts";

const byRelease = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });
const variantName = (e: AtlasEntry) => `${e.scenario} ${JSON.stringify(e.params)} (${e.driver}${e.sdk ? ` ${e.sdk}` : ""})`;

// A cell's run directories moved under the merged atlas (names kept: they are time-stamped per run).
function movedCell(cell: AtlasCell, fromDir: string, outDir: string): AtlasCell {
  const runs = cell.runs.map((run) => {
    if (run.dir === null) return run;
    const source = path.resolve(fromDir, run.dir);
    const target = path.join(ATLAS_RUNS_DIR, path.basename(run.dir));
    if (source !== path.resolve(outDir, target) && fs.existsSync(source)) fs.cpSync(source, path.resolve(outDir, target), { recursive: true });
    return { ...run, dir: target };
  });
  return { ...cell, runs };
}

export function mergeAtlases(dirs: readonly string[], outDir: string): AtlasFile {
  if (dirs.length === 0) throw new UserError("atlas --merge needs the atlas directories (or atlas.json files) to merge", "MISSING_ARGUMENT", { hint: "e.g. ccrepro atlas --merge shard-1 shard-2 --out merged" });
  const out = path.resolve(outDir);
  // A merged atlas merged again (the resume of an interrupted --resolve) keeps what it had: it goes in first.
  const again = fs.existsSync(path.join(out, ATLAS_FILE)) && !dirs.some((d) => path.resolve(d) === out) ? [out] : [];
  const shards = [...again, ...dirs].map((d) => {
    const file = readAtlasFile(path.resolve(d));
    return { dir: d.endsWith(".json") ? path.dirname(path.resolve(d)) : path.resolve(d), file };
  });
  const merged: AtlasEntry[] = [];
  for (const { dir, file } of shards) {
    for (const entry of file.entries) {
      const i = merged.findIndex((m) => sameVariant(m, entry));
      const earlier = merged[i];
      const cells = new Map((earlier?.cells ?? []).map((c) => [c.version, c]));
      for (const cell of entry.cells) {
        const held = cells.get(cell.version);
        // A release two shards measured (their ranges' shared end): an answer beats an ERROR, else the first shard's.
        if (!held || (!answers(held) && answers(cell))) cells.set(cell.version, movedCell(cell, dir, out));
      }
      if (!earlier) {
        merged.push(withCells(entry, cells));
        continue;
      }
      if (earlier.repeat !== entry.repeat) {
        throw new UserError(`${dir}: ${variantName(entry)} was measured with --repeat ${entry.repeat}, another shard with ${earlier.repeat}; merge shards measured alike`, "BAD_ATLAS");
      }
      const versions = [...new Set([...earlier.versions, ...entry.versions])].sort(byRelease);
      merged[i] = withCells(
        {
          ...earlier,
          versions,
          stride: Math.min(earlier.stride, entry.stride),
          verify: { ran: [...earlier.verify.ran, ...entry.verify.ran].sort(byRelease), disagreed: [...earlier.verify.disagreed, ...entry.verify.disagreed].sort(byRelease) },
          runs: earlier.runs + entry.runs,
          reused: earlier.reused + entry.reused,
        },
        cells,
      );
    }
  }
  const entries = merged
    .map((e) => ({ ...e, complete: e.boundaries.every((b) => b.between.length === 0) && shardsComplete(shards, e) }))
    .sort((a, b) => a.scenario.localeCompare(b.scenario));
  const file: AtlasFile = {
    kind: "atlas",
    entries,
    startedAt: shards.map((s) => s.file.startedAt).sort()[0]!,
    updatedAt: new Date().toISOString(),
  };
  writeAtlasFile(out, file);
  return file;
}

// A shard that did not finish (interrupted, a sample left) leaves the merged entry incomplete too.
function shardsComplete(shards: readonly { file: AtlasFile }[], entry: AtlasEntry): boolean {
  return shards.every(({ file }) => file.entries.filter((e) => sameVariant(e, entry)).every((e) => e.complete));
}

export interface ResolveOptions {
  outDir: string;
  signal?: AbortSignal;
  onEvent?: (event: AtlasEvent) => void;
  // Injected by tests; the real one installs releases.
  runner?: ReleaseRunner;
}

// `--resolve`: the merged atlas resumed entry by entry (each with its own range, stride, repeat and driver), so only
// the open boundaries are bisected (and gaps wider than the stride sampled); the shards' cells are kept.
export async function resolveMerged(file: AtlasFile, options: ResolveOptions): Promise<{ file: AtlasFile; runs: number; reused: number; interrupted: boolean }> {
  let result = { file, runs: 0, reused: 0, interrupted: false };
  for (const entry of file.entries.filter((e) => !e.complete)) {
    const scenario = await loadScenario(entry.scenario);
    const drive = { driver: entry.driver as Driver, ...(entry.sdk ? { sdk: entry.sdk } : {}) };
    const outcome = await runAtlas({
      subjects: [{ scenario, params: entry.params }],
      drive,
      versions: entry.versions,
      stride: entry.stride,
      verify: 0,
      repeat: entry.repeat,
      outDir: options.outDir,
      reuse: [],
      ...(options.runner ? { runner: options.runner } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    });
    result = { file: outcome.file, runs: result.runs + outcome.runs, reused: result.reused + outcome.reused, interrupted: outcome.interrupted };
    if (outcome.interrupted) break;
  }
  return result;
}
