// The nightly's atlas: the config's scenarios over its range word, resolved tonight, extended in the atlas directory
// that outlives every nightly. A release published since the last night is sampled (one run per scenario) and
// bisected against its predecessor only where their states differ; the night's own cell runs are reused.
import path from "node:path";
import { UserError } from "../core/errors.ts";
import { boundaryLine } from "../atlas/atlas-file.ts";
import { atlasChangeLine } from "../atlas/changes.ts";
import { runAtlas, type AtlasEvent, type AtlasOutcome } from "../atlas/run-atlas.ts";
import { scenarioByName } from "../pipeline/scenario-registry.ts";
import type { ReleaseRunner } from "../pipeline/run-scenario.ts";
import { resolveSweepVersions } from "../sweep/versions.ts";
import { atlasEntries, type NightlyConfig } from "./config.ts";
import { RUNS_DIR, type NightlyAtlas } from "./summary.ts";
import { paramsOf } from "../kit/scenario-params.ts";

export interface NightlyAtlasOptions {
  atlas: NonNullable<NightlyConfig["atlas"]>;
  // The nightly's directory: its cells' runs are offered for reuse, and the summary names the atlas relative to it.
  nightlyDir: string;
  signal?: AbortSignal;
  onEvent?: (event: AtlasEvent) => void;
  // Injected by tests: the releases the range word names, and the runner in place of real releases.
  resolveVersions?: (word: string) => Promise<string[]>;
  runner?: ReleaseRunner;
}

export async function extendAtlas(options: NightlyAtlasOptions): Promise<{ outcome: AtlasOutcome; dir: string; record: NightlyAtlas }> {
  const { atlas } = options;
  const dir = path.resolve(atlas.out);
  const subjects = atlasEntries(atlas).map((entry, i) => {
    const scenario = scenarioByName(entry.name);
    if (!scenario) throw new UserError(`the nightly config's atlas.scenarios[${i}] names "${entry.name}", which is not loaded`, "BAD_CONFIG", { hint: "name a built-in scenario (ccrepro scenarios lists them)" });
    return { scenario, params: paramsOf(scenario, entry.params, `the nightly config, atlas.scenarios[${i}] (${entry.name})`) };
  });
  const outcome = await runAtlas({
    subjects,
    drive: {},
    versions: await (options.resolveVersions ?? resolveSweepVersions)(atlas.versions),
    stride: atlas.stride,
    verify: 0,
    repeat: atlas.repeat,
    outDir: dir,
    reuse: [path.join(path.resolve(options.nightlyDir), RUNS_DIR)],
    ...(options.runner ? { runner: options.runner } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  });
  const names = new Set(subjects.map((s) => s.scenario.name));
  const record: NightlyAtlas = {
    dir: path.relative(path.resolve(options.nightlyDir), dir) || ".",
    runs: outcome.runs,
    reused: outcome.reused,
    interrupted: outcome.interrupted,
    entries: outcome.file.entries
      .filter((e) => names.has(e.scenario))
      .map((e) => ({
        scenario: e.scenario,
        params: e.params,
        releases: e.versions.length,
        measured: e.cells.length,
        boundaries: e.boundaries.map(boundaryLine),
        complete: e.complete,
      })),
    changes: outcome.changes.filter((c) => names.has(c.scenario)).map(atlasChangeLine),
  };
  return { outcome, dir, record };
}
