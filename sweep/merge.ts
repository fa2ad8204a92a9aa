// Several shards' sweep directories into one: the results copied over (run directories with them), one strip.
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.ts";
import { SWEEP_RUNS_DIR, readSweepFile, withResults, writeSweepFile, type ReleaseResult, type SweepFile } from "./sweep-file.ts";
import { sameParsedParams } from "../kit/scenario-params.ts";

export function mergeSweeps(dirs: readonly string[], outDir: string): SweepFile {
  if (dirs.length === 0) throw new UserError("--merge needs the sweep directories to merge", "MISSING_ARGUMENT");
  const sweeps = dirs.map((dir) => ({ dir: path.resolve(dir), file: readSweepFile(path.resolve(dir)) }));
  const first = sweeps[0]!.file;
  for (const { dir, file } of sweeps) {
    if (file.scenario !== first.scenario || !sameParsedParams(file.params, first.params)) {
      throw new UserError(`${dir} is a sweep of ${file.scenario} ${JSON.stringify(file.params)}, not ${first.scenario} ${JSON.stringify(first.params)}`, "BAD_SWEEP");
    }
  }
  const out = path.resolve(outDir);
  const versions = [...new Set(sweeps.flatMap((s) => s.file.versions))].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const results = new Map<string, ReleaseResult>();
  for (const { dir, file } of sweeps) {
    for (const result of file.results) {
      // Run directories move under the merged sweep's runs/, keeping their names (unique: time-stamped per run).
      const runs = result.runs.map((run) => {
        if (run.dir === null) return run;
        const target = path.join(SWEEP_RUNS_DIR, path.basename(run.dir));
        if (path.resolve(dir, run.dir) !== path.resolve(out, target)) {
          fs.cpSync(path.resolve(dir, run.dir), path.resolve(out, target), { recursive: true });
        }
        return { ...run, dir: target };
      });
      const earlier = results.get(result.version);
      // Two shards with the same release: the later finish wins, as a resumed sweep would have.
      if (!earlier || earlier.finishedAt < result.finishedAt) results.set(result.version, { ...result, runs });
    }
  }
  const merged: SweepFile = {
    ...first,
    versions,
    shards: sweeps.flatMap((s) => s.file.shards),
    startedAt: sweeps.map((s) => s.file.startedAt).sort()[0]!,
    results: [],
    boundaries: [],
  };
  const file = withResults(merged, [...results.values()]);
  writeSweepFile(out, file);
  return file;
}
