// Extends every entry of an atlas directory to the releases published since it was measured: each entry over every
// release from its own first one, with its own driver, SDK release, stride, repeats and --until-red, so a nightly keeps
// a whole checked-in atlas current without naming its scenarios and variants a second time.
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.ts";
import type { Driver, Scenario } from "../kit/scenario.ts";
import { ATLAS_FILE, readAtlasFile, type AtlasEntry, type AtlasFile } from "./atlas-file.ts";
import { atlasChanges } from "./changes.ts";
import { runAtlas, type AtlasOptions, type AtlasOutcome } from "./run-atlas.ts";

export interface ExtendOptions extends Pick<AtlasOptions, "verify" | "jobs" | "reuse" | "cache" | "runner" | "random" | "signal" | "onEvent"> {
  outDir: string;
  scenarioNamed: (name: string) => Promise<Scenario>;
  // Every release from `from` to the newest published, ascending.
  releasesFrom: (from: string) => Promise<string[]>;
}

// Entries measured alike go through one atlas run: the same driver, SDK release, first release, stride, repeats and
// --until-red.
export function extensionGroups(file: AtlasFile): AtlasEntry[][] {
  const groups = new Map<string, AtlasEntry[]>();
  for (const entry of file.entries) {
    const key = JSON.stringify([entry.driver, entry.sdk, entry.versions[0], entry.stride, entry.repeat, entry.untilRed ?? null]);
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  return [...groups.values()];
}

export async function extendEveryEntry(options: ExtendOptions): Promise<AtlasOutcome> {
  if (!fs.existsSync(path.join(options.outDir, ATLAS_FILE))) {
    throw new UserError(`${options.outDir} holds no ${ATLAS_FILE} to extend`, "BAD_ATLAS", { hint: "point --out at the folder an earlier ccrepro atlas wrote, or start one: ccrepro atlas NAME --versions RANGE --out DIR" });
  }
  const before = readAtlasFile(options.outDir);
  let outcome: AtlasOutcome | null = null;
  let runs = 0;
  let reused = 0;
  for (const group of extensionGroups(before)) {
    const first = group[0]!;
    const subjects = await Promise.all(group.map(async (entry) => ({ scenario: await options.scenarioNamed(entry.scenario), params: entry.params })));
    outcome = await runAtlas({
      ...options,
      subjects,
      drive: { driver: first.driver as Driver, ...(first.sdk ? { sdk: first.sdk } : {}) },
      versions: await options.releasesFrom(first.versions[0]!),
      stride: first.stride,
      repeat: first.repeat,
      ...(first.untilRed === undefined ? {} : { untilRed: first.untilRed }),
    });
    runs += outcome.runs;
    reused += outcome.reused;
    if (outcome.interrupted) break;
  }
  const file = outcome?.file ?? before;
  return { file, path: outcome?.path ?? path.join(options.outDir, ATLAS_FILE), runs, reused, interrupted: outcome?.interrupted ?? false, changes: atlasChanges(before, file) };
}
