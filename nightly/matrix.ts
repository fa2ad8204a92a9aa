// The matrix a nightly runs: version words resolved once, crossed with the scenario entries, in one stable order.
import semver from "semver";
import { resolveVersionWord, type ReleaseIndex } from "../releases/registry.ts";
import { scenarioEntries, SINCE_PREVIOUS, type NightlyConfig } from "./config.ts";
import type { Release } from "./summary.ts";
import { scenarioDrivers, type Driver } from "../kit/scenario.ts";
import { scenarioByName } from "../pipeline/scenario-registry.ts";

export interface PlannedCell {
  key: string;
  scenario: string;
  // As the config gave them.
  params: Record<string, unknown>;
  paramsLabel: string;
  version: string;
  // Through the Agent SDK (an SDK cell), or a driver its entry names; absent: the scenario's own driver.
  drive?: CellDrive;
}

export type CellDrive =
  | {
      driver: "sdk";
      // An exact SDK release.
      sdk: string;
    }
  | { driver: "headless" | "terminal" };

export interface Plan {
  versionWords: { word: string; versions: string[] }[];
  releases: Release[];
  cells: PlannedCell[];
}

// `grace=1000,stop=sigterm`: sorted keys, so the same parameters always give the same label.
export function paramsLabel(params: Record<string, unknown>): string {
  return Object.keys(params)
    .sort()
    .map((key) => `${key}=${typeof params[key] === "string" ? params[key] : JSON.stringify(params[key])}`)
    .join(",");
}

// The row label of a cell: its parameters, and for a cell not run with its scenario's own driver the driver (and an
// SDK cell's SDK release), so the key tells them apart.
export function cellLabel(params: Record<string, unknown>, drive?: CellDrive): string {
  return paramsLabel(drive ? { ...params, ...drive } : params);
}

// The drive of a cell run with `driver`: none when that is the scenario's own, so naming the default changes no key.
export function driveOf(scenario: string, driver: Driver | undefined): CellDrive | undefined {
  // Built-ins and file scenarios alike; one not loaded here (a file scenario's run shown by `ccrepro report`) is taken
  // to have the headless default most have.
  const own = scenarioByName(scenario);
  if (driver === undefined || driver === "sdk" || driver === (own ? scenarioDrivers(own)[0] : "headless")) return undefined;
  return { driver };
}

export function cellKey(scenario: string, label: string, version: string): string {
  return `${scenario}${label ? `[${label}]` : ""}@${version}`;
}

// Scenario, then parameters, then release: every shard and every merge sees the same order.
export function compareCells(a: Omit<PlannedCell, "params">, b: Omit<PlannedCell, "params">): number {
  return a.scenario.localeCompare(b.scenario, "en") || a.paramsLabel.localeCompare(b.paramsLabel, "en") || semver.compare(a.version, b.version);
}

// since:previous becomes since:<the previous nightly's start>; with no previous nightly it names no release.
export function planMatrix(config: NightlyConfig, index: ReleaseIndex, previousStartedAt: string | null): Plan {
  const versionWords = config.versions.map((word) => {
    if (word.trim() !== SINCE_PREVIOUS) return { word, versions: resolveVersionWord(index, word) };
    return { word, versions: previousStartedAt === null ? [] : resolveVersionWord(index, `since:${previousStartedAt}`) };
  });
  // SDK cells run on their own version words; their releases are part of the matrix like the others.
  const sdkVersionWords = (config.sdkCells?.versions ?? []).map((word) => ({ word, versions: resolveVersionWord(index, word) }));
  const versions = [...new Set(versionWords.flatMap((w) => w.versions))].sort(semver.compare);
  const allVersions = [...new Set([...versionWords, ...sdkVersionWords].flatMap((w) => w.versions))].sort(semver.compare);
  const releases = allVersions.map((version) => ({ version, publishedAt: index.releases.get(version)?.publishedAt?.toISOString() ?? null }));
  const cells = scenarioEntries(config)
    .flatMap((entry) =>
      versions.map((version) => {
        const drive = driveOf(entry.name, entry.driver);
        const label = cellLabel(entry.params, drive);
        return { key: cellKey(entry.name, label, version), scenario: entry.name, params: entry.params, paramsLabel: label, version, ...(drive ? { drive } : {}) };
      }),
    )
    .concat(sdkCells(config, [...new Set(sdkVersionWords.flatMap((w) => w.versions))]))
    .sort(compareCells);
  return { versionWords, releases, cells };
}

// One cell per scenario entry whose scenario supports the sdk driver, per claude version and SDK release of sdkCells.
function sdkCells(config: NightlyConfig, versions: readonly string[]): PlannedCell[] {
  // An entry that names its driver asked for those cells only.
  const entries = scenarioEntries(config).filter((entry) => {
    if (entry.driver !== undefined) return false;
    const scenario = scenarioByName(entry.name);
    return scenario !== undefined && scenarioDrivers(scenario).includes("sdk");
  });
  return entries.flatMap((entry) =>
    (config.sdkCells?.sdk ?? []).flatMap((sdk) =>
      versions.map((version) => {
        const drive: CellDrive = { driver: "sdk", sdk };
        const label = cellLabel(entry.params, drive);
        return { key: cellKey(entry.name, label, version), scenario: entry.name, params: entry.params, paramsLabel: label, version, drive };
      }),
    ),
  );
}
