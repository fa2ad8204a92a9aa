// A table-driven stand-in for measuring releases: each release's state comes from a table, no processes, no claude.
// It tests the atlas's search (which releases it picks, what it concludes), not any release's behaviour.
import type { AtlasCell } from "../../atlas/atlas-file.ts";
import type { Verdict } from "../../core/verdict.ts";
import { searchEntry, type Probe, type SearchInput } from "../../atlas/search.ts";

// "GREEN", "RED notification-changed", "ERROR", or "FLAKY": a flaky cell, RED 1/2 with the finding.
export type Row = string;

// The 38 published releases of 2.1.245–2.1.290 (2.1.249, 2.1.253–256, 2.1.262, 2.1.264 and 2.1.279 never were).
export const RANGE = [245, 246, 247, 248, 250, 251, 252, 257, 258, 259, 260, 261, 263, ...Array.from({ length: 14 }, (_, i) => 265 + i), ...Array.from({ length: 11 }, (_, i) => 280 + i)].map((n) => `2.1.${n}`);

// What the full sweep measured on that range (docs/releases.md): the outcome per release.
export function sweptState(version: string): Row {
  const n = Number(version.split(".")[2]);
  if (n <= 258) return "RED notification-dropped prefix-changed";
  if (n <= 283) return "RED notification-changed";
  return "GREEN";
}

export function cellFrom(version: string, row: Row, why: Probe["why"]): AtlasCell {
  if (row === "FLAKY") {
    return { version, verdict: "RED", red: ["x"], flaky: true, label: "RED 1/2", reason: "repeats disagree", why, runs: [{ dir: `runs/${version}-1`, verdict: "RED", red: ["x"], reused: false, wallMs: 1 }, { dir: `runs/${version}-2`, verdict: "GREEN", red: [], reused: false, wallMs: 1 }] };
  }
  const [verdict, ...red] = row.split(" ") as [Verdict, ...string[]];
  return { version, verdict, red, flaky: false, label: verdict, reason: row, why, runs: [{ dir: verdict === "ERROR" ? null : `runs/${version}`, verdict, red, reused: false, wallMs: 1 }] };
}

// Runs the search over `versions` with every release's state read from `table`; the probes it made, in order.
export async function searchTable(versions: readonly string[], table: (version: string) => Row, extra: Partial<SearchInput> & { stopAfter?: number } = {}) {
  const probes: Probe[] = [];
  const result = await searchEntry({
    versions,
    stride: 8,
    verify: 0,
    cells: [],
    measure: async (probe) => {
      if (extra.stopAfter !== undefined && probes.length >= extra.stopAfter) return null;
      probes.push(probe);
      return cellFrom(probe.version, table(probe.version), probe.why);
    },
    ...extra,
  });
  return { result, probes, measured: probes.map((p) => p.version) };
}

// n releases 1.0.0 … 1.0.(n-1).
export const releases = (n: number): string[] => Array.from({ length: n }, (_, i) => `1.0.${i}`);
export const at = (version: string) => Number(version.split(".")[2]);
