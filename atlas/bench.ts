// What the atlas bench compares: the boundaries a scenario's `known` list puts in a range (what the full sweep
// measured), and the full sweep's cost computed from the per-run times the atlas measured.
import semver from "semver";
import type { Scenario } from "../kit/scenario.ts";
import { sameParams } from "../kit/scenario-params.ts";
import type { AtlasEntry } from "./atlas-file.ts";

// Per release, "VERDICT finding" from the first `known` entry that covers it with these parameters; null where none does.
export function knownStates(scenario: Pick<Scenario, "known" | "params">, versions: readonly string[], params: Record<string, unknown>): (string | null)[] {
  const entries = scenario.known.filter((k) => sameParams(scenario, k.params ?? {}, params));
  return versions.map((v) => {
    const k = entries.find((e) => semver.satisfies(v, e.versions));
    return k ? [k.verdict, ...(k.finding ? [k.finding] : [])].join(" ") : null;
  });
}

// Adjacent pairs whose known states differ.
export function knownBoundaries(states: readonly (string | null)[], versions: readonly string[]): { before: string; after: string }[] {
  return versions.slice(1).flatMap((after, i) => (states[i] !== null && states[i + 1] !== null && states[i] !== states[i + 1] ? [{ before: versions[i]!, after }] : []));
}

export interface BenchComparison {
  releases: number;
  atlasRuns: number;
  atlasWallMs: number;
  // Mean wall time of one fresh atlas run: what each of the sweep's runs is assumed to cost.
  perRunMs: number;
  sweepRuns: number;
  sweepRunMs: number;
  found: { before: string; after: string }[];
  expected: { before: string; after: string }[];
  same: boolean;
}

export function compareWithSweep(entry: AtlasEntry, expected: { before: string; after: string }[], wallMs: number): BenchComparison {
  const fresh = entry.cells.flatMap((c) => c.runs.filter((r) => !r.reused));
  const perRunMs = fresh.length ? fresh.reduce((sum, r) => sum + r.wallMs, 0) / fresh.length : 0;
  const found = entry.boundaries.map(({ before, after }) => ({ before, after }));
  const key = (pairs: { before: string; after: string }[]) => pairs.map((p) => `${p.before}>${p.after}`).join(",");
  return {
    releases: entry.versions.length,
    atlasRuns: fresh.length,
    atlasWallMs: wallMs,
    perRunMs,
    sweepRuns: entry.versions.length * entry.repeat,
    sweepRunMs: entry.versions.length * entry.repeat * perRunMs,
    found,
    expected,
    same: key(found) === key(expected),
  };
}
