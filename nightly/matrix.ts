// The matrix a nightly runs: version words resolved once, crossed with the scenario entries, in one stable order.
import semver from "semver";
import { resolveVersionWord, type ReleaseIndex } from "../releases/registry.ts";
import { scenarioEntries, SINCE_PREVIOUS, type NightlyConfig } from "./config.ts";
import type { Release } from "./summary.ts";

export interface PlannedCell {
  key: string;
  scenario: string;
  // As the config gave them.
  params: Record<string, unknown>;
  paramsLabel: string;
  version: string;
}

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
  const versions = [...new Set(versionWords.flatMap((w) => w.versions))].sort(semver.compare);
  const releases = versions.map((version) => ({ version, publishedAt: index.releases.get(version)?.publishedAt?.toISOString() ?? null }));
  const cells = scenarioEntries(config)
    .flatMap((entry) =>
      versions.map((version) => {
        const label = paramsLabel(entry.params);
        return { key: cellKey(entry.name, label, version), scenario: entry.name, params: entry.params, paramsLabel: label, version };
      }),
    )
    .sort(compareCells);
  return { versionWords, releases, cells };
}
