// A whole nightly as the command runs it: the matrix's cells, then the sweeps its config asks for, each into its own
// directory under the nightly's. What is printed and written as reports is the caller's.
import path from "node:path";
import { UserError } from "../core/errors.ts";
import { runsAlone } from "../pipeline/run-concurrency.ts";
import { scenarioByName } from "../pipeline/scenario-registry.ts";
import type { ReleaseRunner } from "../pipeline/run-scenario.ts";
import { runSweep, type SweepEvent } from "../sweep/run-sweep.ts";
import type { SweepFile } from "../sweep/sweep-file.ts";
import { resolveSweepVersions } from "../sweep/versions.ts";
import type { AtlasEvent } from "../atlas/run-atlas.ts";
import type { AtlasFile } from "../atlas/atlas-file.ts";
import { extendAtlas, type NightlyAtlasOptions } from "./atlas.ts";
import { runNightly, type NightlyOptions } from "./run-nightly.ts";
import type { Summary } from "./summary.ts";

export interface NightlyRunOptions extends NightlyOptions {
  // Called when sweep `index` (of the config's) starts; what it returns gets that sweep's events.
  onSweep?: (scenario: string, index: number) => { onEvent: (event: SweepEvent) => void; done: () => void };
  // Called once the matrix's cells are done, before any sweep starts.
  onCellsDone?: () => void;
  // Said once when a shard leaves the config's sweeps (or atlas) out.
  onNote?: (line: string) => void;
  // The atlas's events, once the sweeps are done; and, for tests, its runner and range resolver.
  onAtlasEvent?: (event: AtlasEvent) => void;
  atlas?: Pick<NightlyAtlasOptions, "runner" | "resolveVersions">;
  // For tests: the sweeps' runner and range resolver.
  sweeps?: { runner?: ReleaseRunner; resolveVersions?: (word: string) => Promise<string[]> };
}

export interface NightlyOutcome {
  summary: Summary;
  sweeps: { file: SweepFile; dir: string }[];
  // The atlas the config asked for, extended tonight, and its directory (where the site goes).
  atlas: { file: AtlasFile; dir: string } | null;
}

export async function nightly(options: NightlyRunOptions): Promise<NightlyOutcome> {
  const summary = await runNightly(options);
  options.onCellsDone?.();
  const { config, signal } = options;
  // Sweeps cover whole ranges, so a shard of the matrix leaves them to the unsharded (or a dedicated) run.
  if (options.shard) {
    if (config.sweeps.length > 0) options.onNote?.(`nightly: --shard given, so the config's ${config.sweeps.length} sweep(s) are not run; run them with ccrepro sweep`);
    if (config.atlas) options.onNote?.(`nightly: --shard given, so the config's atlas is not extended; run it with ccrepro atlas --out ${config.atlas.out}`);
    return { summary, sweeps: [], atlas: null };
  }
  const sweeps: NightlyOutcome["sweeps"] = [];
  for (const [i, entry] of config.sweeps.entries()) {
    if (signal?.aborted) break;
    // The config's loader resolved file entries to the names of the scenarios it loaded.
    const scenario = scenarioByName(entry.scenario);
    if (!scenario) throw new UserError(`the nightly config's sweeps[${i}] names "${entry.scenario}", which is not loaded; name a built-in or a scenario file's path`, "BAD_CONFIG");
    const dir = path.join(path.resolve(options.outDir), "sweeps", `${i + 1}-${entry.scenario}`);
    const shown = options.onSweep?.(scenario.name, i);
    const outcome = await runSweep({
      scenario,
      params: entry.params,
      versionsWord: entry.versions,
      versions: await (options.sweeps?.resolveVersions ?? resolveSweepVersions)(entry.versions),
      repeat: entry.repeat,
      // A scenario that runs alone is swept one release at a time, as its matrix cells are run.
      concurrency: runsAlone(scenario) ? 1 : config.concurrency,
      outDir: dir,
      ...(options.sweeps?.runner ? { runner: options.sweeps.runner } : {}),
      ...(signal ? { signal } : {}),
      onEvent: shown?.onEvent ?? (() => undefined),
    }).finally(() => shown?.done());
    sweeps.push({ file: outcome.file, dir });
  }
  if (!config.atlas || signal?.aborted) return { summary, sweeps, atlas: null };
  const extended = await extendAtlas({
    atlas: config.atlas,
    nightlyDir: options.outDir,
    ...(signal ? { signal } : {}),
    ...(options.onAtlasEvent ? { onEvent: options.onAtlasEvent } : {}),
    ...options.atlas,
  });
  // The atlas changes no verdict of the matrix, so the exit code stays the cells'.
  return { summary: { ...summary, atlas: extended.record }, sweeps, atlas: { file: extended.outcome.file, dir: extended.dir } };
}
