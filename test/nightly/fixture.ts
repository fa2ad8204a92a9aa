// The recorded nightly under test/fixtures/nightly/recorded as test material: its summary, its release list, and a
// cell runner that answers each cell by re-checking its recorded run directory with today's checker (no claude involved).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { readRunRecord } from "../../harness/run-record.ts";
import { parseReleaseIndex, type ReleaseIndex } from "../../releases/registry.ts";
import type { CellRunner } from "../../nightly/run-cell.ts";
import { readSummary, type Summary } from "../../nightly/summary.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";

export const FIXTURE_DIR = path.resolve(import.meta.dirname, "../fixtures/nightly/recorded");

export function fixtureSummary(): Summary {
  return readSummary(FIXTURE_DIR);
}

// The two releases the fixture ran, with their real publication times, plus one published later.
export function fixtureIndex(extra: Record<string, string> = {}): ReleaseIndex {
  const times: Record<string, string> = { "2.1.281": "2026-09-23T21:08:56.391Z", "2.1.332": "2026-11-24T22:06:38.000Z", ...extra };
  const latest = Object.keys(times).sort().at(-1)!;
  return parseReleaseIndex({
    "dist-tags": { latest },
    versions: Object.fromEntries(Object.keys(times).map((v) => [v, { dist: { tarball: "t" }, optionalDependencies: { "@anthropic-ai/claude-code-linux-x64": v } }])),
    time: times,
  });
}

export interface FixtureRunner {
  runCell: CellRunner;
  calls: string[];
  // The most cells that were running at the same moment.
  maxActive: () => number;
}

// Answers from the recorded run of the same scenario, parameters and release, recomputing its verdict from the files
// (not run.json's stored result), so a checker change shows up against the recorded verdicts; `delayMs` keeps cells overlapping.
export function fixtureRunner(delayMs = 0): FixtureRunner {
  const summary = fixtureSummary();
  const calls: string[] = [];
  let active = 0;
  let most = 0;
  const runCell: CellRunner = async ({ cell, signal }) => {
    calls.push(cell.key);
    active += 1;
    most = Math.max(most, active);
    try {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (signal.aborted) throw new Error("aborted");
      const recorded = summary.cells.find((c) => c.key === cell.key);
      if (!recorded) throw new Error(`the fixture has no cell ${cell.key}`);
      const runDir = path.resolve(FIXTURE_DIR, recorded.runs[0]!.dir!);
      const record = readRunRecord(path.join(runDir, "run.json"));
      return { runDir, result: checkRecordedRun(runDir, scenarioByName), wallMs: record.wallMs };
    } finally {
      active -= 1;
    }
  };
  return { runCell, calls, maxActive: () => most };
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `ccrepro-${prefix}-`));
}
