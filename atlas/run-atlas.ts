// Runs the atlas: for each scenario (one parameter variant per invocation), the boundary search over real releases
// through the one join, verdicts reused from earlier run directories (and from an interrupted atlas's own runs), the
// atlas file rewritten after every cell so an interruption keeps what finished.
import fs from "node:fs";
import path from "node:path";
import { claimFolder } from "../core/folder-writer.ts";
import type { CheckResult, Verdict } from "../core/verdict.ts";
import type { Driver, Scenario } from "../kit/scenario.ts";
import { driverFor, sdkFor } from "../pipeline/drivers.ts";
import { runsAlone } from "../pipeline/run-concurrency.ts";
import { releaseRunner, type ReleaseRunner } from "../pipeline/run-scenario.ts";
import { combineRepeats, harnessErrorResult } from "../pipeline/verdict-rules.ts";
import { checkRecordedRun } from "../pipeline/check-recorded-run.ts";
import type { CacheOptions } from "../releases/release-cache.ts";
import { findReusedVerdicts } from "../bisect/reuse-dirs.ts";
import type { ReusedRun } from "../bisect/types.ts";
import { ATLAS_FILE, ATLAS_RUNS_DIR, readAtlasFile, RED_IN_ANY_RUN, redOf, sameVariant, writeAtlasFile, type AtlasCell, type AtlasEntry, type AtlasFile } from "./atlas-file.ts";
import { boundariesOf, intervalsOf, searchEntry, type Probe } from "./search.ts";
import { atlasChanges, type AtlasChange } from "./changes.ts";

export interface AtlasSubject {
  scenario: Scenario;
  params: Record<string, unknown>;
}

export type AtlasEvent =
  | { kind: "reuse"; scenario: string; scanned: number; matched: number; releases: number }
  | { kind: "start"; scenario: string; probe: Probe; reused: number }
  | { kind: "cell"; scenario: string; cell: AtlasCell; runs: number };

export interface AtlasOptions {
  subjects: readonly AtlasSubject[];
  drive: { driver?: Driver; sdk?: string };
  // Every release in the range, ascending.
  versions: readonly string[];
  stride: number;
  verify: number;
  repeat: number;
  // For a bug whose verdict flips run to run: run a release until one run is RED, up to this many while every run is
  // GREEN (--repeat runs when one is neither); its state is then whether any run was RED, not the rate or the finding,
  // so neighbours do not differ by chance in how often or how it failed.
  untilRed?: number;
  // Releases of one scenario measured at once (default 1); a scenario that runs alone is measured one at a time.
  jobs?: number;
  outDir: string;
  // Directories searched for run directories whose verdicts stand in for runs; the atlas's own runs/ always is.
  reuse: readonly string[];
  cache?: CacheOptions;
  // Injected by tests; the real one installs releases and runs them through the one join.
  runner?: ReleaseRunner;
  random?: () => number;
  signal?: AbortSignal;
  onEvent?: (event: AtlasEvent) => void;
  // Judge the earlier cells' runs again with today's checks before the search (a check changed since they ran): a cell
  // whose state changes is one the search bisects around, like any new answer.
  recheck?: boolean;
}

export interface AtlasOutcome {
  file: AtlasFile;
  path: string;
  // Runs started by this invocation, and verdicts it took from earlier run directories instead.
  runs: number;
  reused: number;
  interrupted: boolean;
  // What this run changed in the atlas it started from (every entry new for a fresh --out).
  changes: AtlasChange[];
}

function startingFile(outDir: string): AtlasFile {
  const existing = path.join(outDir, ATLAS_FILE);
  if (fs.existsSync(existing)) return readAtlasFile(existing);
  const now = new Date().toISOString();
  return { kind: "atlas", entries: [], startedAt: now, updatedAt: now };
}

// The entry's derived parts, recomputed from its cells: the one way intervals and boundaries are made.
export function withCells(entry: AtlasEntry, cells: ReadonlyMap<string, AtlasCell>): AtlasEntry {
  const ordered = entry.versions.flatMap((v) => {
    const cell = cells.get(v);
    return cell ? [cell] : [];
  });
  const boundaries = boundariesOf(entry.versions, cells);
  return { ...entry, cells: ordered, intervals: intervalsOf(entry.versions, cells), boundaries };
}

// Always relative to the atlas, climbing out with ".." for a reused run elsewhere: an atlas.json committed or
// shared names no path of the machine it was made on.
function relativeRun(outDir: string, runDir: string): string {
  return path.relative(outDir, runDir);
}

// Whether a release wants another run, from its runs' verdicts so far: --repeat of them; with --until-red none after a
// RED one, and more up to that count while every one is GREEN.
function wantsAnotherRun(verdicts: readonly Verdict[], repeat: number, untilRed: number | undefined): boolean {
  if (untilRed === undefined) return verdicts.length < repeat;
  if (verdicts.includes("RED")) return false;
  if (verdicts.length < repeat) return true;
  return verdicts.length < untilRed && verdicts.every((v) => v === "GREEN");
}

// One release's cell from its reused results and its fresh runs, by the one repeat rule; red sets that differ
// between runs that agree on the verdict are flaky too, for the atlas compares red sets. With --until-red a RED run
// makes the cell RED whatever the others say.
function cellOf(probe: Probe, runs: AtlasCell["runs"], results: readonly CheckResult[], untilRed: number | undefined): AtlasCell {
  const combined = combineRepeats(results);
  const redSets = new Set(results.filter((r) => r.verdict !== "ERROR").map((r) => JSON.stringify(redOf(r))));
  const flaky = combined.flaky || redSets.size > 1;
  const red = [...new Set(results.flatMap(redOf))].sort();
  const reds = results.filter((r) => r.verdict === "RED").length;
  if (untilRed !== undefined && reds > 0) {
    const reason = results.find((r) => r.verdict === "RED")!.reason;
    return { version: probe.version, verdict: "RED", red, flaky, label: `RED ${reds}/${results.length}`, state: RED_IN_ANY_RUN, reason, why: probe.why, runs };
  }
  // No RED, but not GREEN every time either: neither "can fail" nor a GREEN of N runs was shown.
  const greens = results.filter((r) => r.verdict === "GREEN").length;
  if (untilRed !== undefined && combined.verdict !== "ERROR" && greens > 0 && greens < results.length) {
    return { version: probe.version, verdict: "INCONCLUSIVE", red: [], flaky: false, label: `INCONCLUSIVE (GREEN ${greens}/${results.length})`, reason: combined.reason, why: probe.why, runs };
  }
  const verdict = flaky && combined.verdict !== "ERROR" ? combined.rates.leading : combined.verdict;
  return {
    version: probe.version,
    verdict,
    red: verdict === "RED" || flaky ? red : [],
    flaky,
    label: !flaky ? verdict : combined.flaky ? combined.label : `${verdict} (red findings differ)`,
    reason: combined.reason,
    why: probe.why,
    runs,
  };
}

// A cell judged again from its runs' directories by today's checks; a run with no directory (an install that failed)
// keeps its ERROR.
function recheckedCell(cell: AtlasCell, outDir: string, scenario: Scenario, untilRed: number | undefined): AtlasCell {
  const results = cell.runs.map((run) =>
    run.dir === null ? harnessErrorResult(cell.reason) : checkRecordedRun(path.resolve(outDir, run.dir), (name) => (name === scenario.name ? scenario : undefined)),
  );
  const runs = cell.runs.map((run, i) => ({ ...run, verdict: results[i]!.verdict, red: redOf(results[i]!) }));
  return cellOf({ version: cell.version, why: cell.why }, runs, results, untilRed);
}

// One atlas writes a folder at a time; a second into the same --out refuses, a dead one's folder is taken over.
export async function runAtlas(options: AtlasOptions): Promise<AtlasOutcome> {
  const outDir = path.resolve(options.outDir);
  const release = claimFolder(outDir, "ccrepro atlas", (line) => process.stderr.write(`${line}\n`));
  try {
    return await atlasFolder({ ...options, outDir });
  } finally {
    release();
  }
}

async function atlasFolder(options: AtlasOptions): Promise<AtlasOutcome> {
  const { outDir } = options;
  const runsDir = path.join(outDir, ATLAS_RUNS_DIR);
  const runner = options.runner ?? releaseRunner(runsDir, { cache: options.cache });
  const emit = options.onEvent ?? (() => {});
  let file = startingFile(outDir);
  const before = file;
  let written = writeAtlasFile(outDir, file);
  let runs = 0;
  let reusedCount = 0;
  let interrupted = false;
  // One scenario's whole search; false when it was interrupted.
  const searchSubject = async (subject: AtlasSubject): Promise<boolean> => {
    if (options.signal?.aborted) return false;
    const { scenario, params } = subject;
    const driver = driverFor(scenario, options.drive.driver);
    const sdk = (await sdkFor(driver, options.drive.sdk))?.version ?? null;
    const variant = { scenario: scenario.name, params, driver, sdk };
    const earlier = file.entries.find((e) => sameVariant(e, variant));
    // A resumed (or widened) range keeps the earlier cells; the stride and repeat are this invocation's.
    const versions = [...new Set([...(earlier?.versions ?? []), ...options.versions])].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
    let entry: AtlasEntry = {
      ...variant,
      versions,
      stride: options.stride,
      repeat: options.repeat,
      ...(options.untilRed === undefined ? {} : { untilRed: options.untilRed }),
      // A cell with fewer runs than this invocation wants (a higher --repeat or --until-red) is measured again: its
      // runs are found again in runs/ and more are added.
      cells: (earlier?.cells ?? [])
        .map((cell) => (options.recheck ? recheckedCell(cell, outDir, scenario, options.untilRed) : cell))
        .filter((cell) => !wantsAnotherRun(cell.runs.map((r) => r.verdict), options.repeat, options.untilRed)),
      intervals: [],
      boundaries: [],
      verify: earlier?.verify ?? { ran: [], disagreed: [] },
      runs: earlier?.runs ?? 0,
      reused: earlier?.reused ?? 0,
      complete: false,
    };
    // Whether the release lacks what the scenario needs today (a need declared since a run of it was recorded); a
    // stand-in runner knows no needs.
    const lacksNeeds = async (version: string): Promise<boolean> => ((await runner.missingNeeds?.({ scenario, params, driver }, version)) ?? []).length > 0;
    // Judged again: such a release's cell is measured again, which the probe answers UNSUPPORTED without a run.
    if (options.recheck) {
      const lacking = await Promise.all(entry.cells.map(async (cell) => cell.verdict !== "UNSUPPORTED" && (await lacksNeeds(cell.version))));
      entry = { ...entry, cells: entry.cells.filter((_, i) => !lacking[i]) };
    }
    const save = (next: AtlasEntry) => {
      entry = next;
      const others = file.entries.filter((e) => !sameVariant(e, variant));
      file = { ...file, entries: [...others, entry].sort((a, b) => a.scenario.localeCompare(b.scenario)), updatedAt: new Date().toISOString() };
      written = writeAtlasFile(outDir, file);
    };
    const measured = new Set(entry.cells.filter((c) => c.verdict !== "ERROR").map((c) => c.version));
    const found = await findReusedVerdicts({
      dirs: [runsDir, ...options.reuse].filter((d) => fs.existsSync(d)),
      scenario,
      params,
      drive: options.drive,
      versions: versions.filter((v) => !measured.has(v)),
      binarySha: async (version) => (await runner.prefetch(version)).sha256,
    });
    emit({ kind: "reuse", scenario: scenario.name, scanned: found.scanned, matched: found.matched, releases: found.byVersion.size });
    const measure = async (probe: Probe): Promise<AtlasCell | null> => {
      // A run recorded before the scenario needed what this release lacks answers nothing now.
      const recorded = found.byVersion.get(probe.version) ?? [];
      const reused: readonly ReusedRun[] = recorded.length > 0 && (await lacksNeeds(probe.version)) ? [] : recorded;
      emit({ kind: "start", scenario: scenario.name, probe, reused: reused.length });
      const results: CheckResult[] = reused.map((r) => r.result);
      const cellRuns: AtlasCell["runs"] = reused.map((r) => ({ dir: relativeRun(outDir, r.runDir), verdict: r.result.verdict, red: redOf(r.result), reused: true, wallMs: 0 }));
      let fresh = 0;
      while (wantsAnotherRun(results.map((r) => r.verdict), options.repeat, options.untilRed)) {
        if (options.signal?.aborted) return null;
        const t0 = Date.now();
        const outcome = await runner.run({ scenario, params, ...options.drive }, probe.version, options.signal);
        fresh += 1;
        runs += 1;
        // A run cut short by Ctrl-C says nothing about the release: left for the resumed atlas.
        if (options.signal?.aborted) {
          save({ ...entry, runs: entry.runs + 1 });
          return null;
        }
        const result = outcome.installed ? outcome.record.result : harnessErrorResult(`could not install ${probe.version}: ${outcome.message}`);
        results.push(result);
        cellRuns.push({ dir: outcome.installed ? relativeRun(outDir, outcome.runDir) : null, verdict: result.verdict, red: redOf(result), reused: false, wallMs: Date.now() - t0 });
      }
      if (fresh === 0) reusedCount += 1;
      const cell = cellOf(probe, cellRuns, results, options.untilRed);
      const verify = probe.why === "verify" ? { ...entry.verify, ran: [...entry.verify.ran, probe.version] } : entry.verify;
      save({ ...entry, runs: entry.runs + fresh, reused: entry.reused + (fresh === 0 ? 1 : 0), verify });
      emit({ kind: "cell", scenario: scenario.name, cell, runs });
      return cell;
    };
    const result = await searchEntry({
      versions,
      stride: options.stride,
      verify: options.verify,
      cells: entry.cells,
      disagreed: entry.verify.disagreed,
      measure,
      // Saves are synchronous and each reads the entry as it is then, so cells measured at once are all kept.
      jobs: runsAlone(scenario) ? 1 : (options.jobs ?? 1),
      random: options.random,
      signal: options.signal,
      onCell: (_cell, cells) => save(withCells(entry, cells)),
    });
    const done = withCells({ ...entry, verify: { ...entry.verify, disagreed: result.disagreed } }, result.cells);
    save({ ...done, complete: !result.interrupted && done.boundaries.every((b) => b.between.length === 0) });
    return !result.interrupted;
  };
  for (const subject of options.subjects) {
    if (!(await searchSubject(subject))) {
      interrupted = true;
      break;
    }
  }
  return { file, path: written, runs, reused: reusedCount, interrupted, changes: atlasChanges(before, file) };
}
