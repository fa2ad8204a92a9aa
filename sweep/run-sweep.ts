// Runs one scenario on many releases: downloads a bounded number of releases ahead of the runs, runs them through
// the one join, writes each release's result as it finishes, and resumes from what an earlier invocation wrote.
import fs from "node:fs";
import path from "node:path";
import { claimFolder } from "../core/folder-writer.ts";
import pLimit from "p-limit";
import type { CheckResult } from "../core/verdict.ts";
import type { Scenario } from "../kit/scenario.ts";
import type { CacheOptions } from "../releases/release-cache.ts";
import { releaseRunner, type ReleaseRunner } from "../pipeline/run-scenario.ts";
import { runsAtOnce } from "../pipeline/run-concurrency.ts";
import { combineRepeats, harnessErrorResult } from "../pipeline/verdict-rules.ts";
import { UserError } from "../core/errors.ts";
import { SWEEP_FILE, SWEEP_RUNS_DIR, readSweepFile, withResults, writeSweepFile, type ReleaseResult, type SweepFile } from "./sweep-file.ts";
import { sameParams } from "../kit/scenario-params.ts";

export type SweepEvent =
  | { kind: "planned"; total: number; already: number; todo: string[] }
  | { kind: "download-start"; version: string }
  | { kind: "download"; version: string; bytes: number; ms: number; fromCache: boolean }
  | { kind: "run-start"; version: string }
  | { kind: "release"; result: ReleaseResult; done: number; total: number };

export interface SweepOptions {
  scenario: Scenario;
  params: Record<string, unknown>;
  // How each release is driven: `-p` stream-json, or through an Agent SDK release (`--driver sdk --sdk V`).
  drive?: { driver?: "headless" | "sdk"; sdk?: string };
  versionsWord: string;
  // Every release in the range, ascending.
  versions: string[];
  // The ones this invocation is responsible for (a shard's slice); all of `versions` when absent.
  selected?: string[];
  shard?: { index: number; count: number } | null;
  repeat: number;
  concurrency: number;
  outDir: string;
  // How many releases may be downloaded ahead of the runs that need them.
  ahead?: number;
  cache?: CacheOptions;
  // Injected by tests; the real one installs and runs through the one join.
  runner?: ReleaseRunner;
  signal?: AbortSignal;
  onEvent?: (event: SweepEvent) => void;
}

export interface SweepOutcome {
  file: SweepFile;
  path: string;
  // Releases this invocation left without a result (interrupted).
  left: string[];
  interrupted: boolean;
}

function startingFile(options: SweepOptions): SweepFile {
  const existing = path.join(options.outDir, SWEEP_FILE);
  if (fs.existsSync(existing)) {
    const file = readSweepFile(existing);
    if (file.scenario !== options.scenario.name || !sameParams(options.scenario, file.params, options.params)) {
      throw new UserError(
        `${existing} holds a sweep of ${file.scenario} ${JSON.stringify(file.params)}, not ${options.scenario.name} ${JSON.stringify(options.params)}; pass another --out`,
        "BAD_SWEEP",
      );
    }
    // The resumed list is the union, so widening the range on resume keeps the earlier results.
    const versions = [...new Set([...file.versions, ...options.versions])];
    return { ...file, versions: sortLike(versions, options.versions, file.versions), shards: mergeShards(file.shards, options.shard) };
  }
  const now = new Date().toISOString();
  return {
    kind: "sweep",
    scenario: options.scenario.name,
    params: options.params,
    ...(options.drive?.driver ? { drive: { driver: options.drive.driver, sdk: options.drive.sdk ?? null } } : {}),
    versionsWord: options.versionsWord,
    versions: options.versions,
    repeat: options.repeat,
    shards: mergeShards([], options.shard),
    results: [],
    boundaries: [],
    startedAt: now,
    updatedAt: now,
  };
}

function sortLike(all: string[], ...orders: string[][]): string[] {
  if (orders.every((o) => o.length === all.length)) return orders[0]!;
  // Semver order when the two lists interleave.
  return [...all].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

function mergeShards(shards: SweepFile["shards"], shard: SweepOptions["shard"]): SweepFile["shards"] {
  if (!shard) return shards;
  return shards.some((s) => s.index === shard.index && s.count === shard.count) ? shards : [...shards, shard];
}

// A settable promise: the downloader resolves it, the run waiting for its release awaits it.
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

// One sweep writes a folder at a time: a second into the same --out refuses (it resumes from the results once the
// first is done); a dead sweep's folder is taken over.
export async function runSweep(options: SweepOptions): Promise<SweepOutcome> {
  runsAtOnce(options.scenario, options.concurrency, "--concurrency", "any");
  const release = claimFolder(path.resolve(options.outDir), "ccrepro sweep", (line) => process.stderr.write(`${line}\n`));
  try {
    return await sweepFolder(options);
  } finally {
    release();
  }
}

async function sweepFolder(options: SweepOptions): Promise<SweepOutcome> {
  const outDir = path.resolve(options.outDir);
  const runsDir = path.join(outDir, SWEEP_RUNS_DIR);
  let file = startingFile({ ...options, outDir });
  const haveResult = new Set(file.results.map((r) => r.version));
  const selected = options.selected ?? options.versions;
  const todo = selected.filter((v) => !haveResult.has(v));
  const signal = options.signal ?? new AbortController().signal;
  const emit = options.onEvent ?? (() => {});
  const runner =
    options.runner ?? releaseRunner(runsDir, { cache: options.cache, runsPerVersion: new Map(todo.map((v) => [v, options.repeat])) });
  const total = selected.length;
  let done = selected.length - todo.length;
  emit({ kind: "planned", total, already: done, todo });
  file = withResults(file, file.results);
  const written = writeSweepFile(outDir, file);

  // Downloads: one at a time (they share one network link), never more than `ahead` releases past the runs.
  const ahead = Math.max(1, options.ahead ?? options.concurrency + 1);
  const ready = new Map(todo.map((v) => [v, deferred()]));
  const downloads = new Map<string, { ms: number; bytes: number }>();
  let started = 0;
  let wake: () => void = () => {};
  const downloader = (async () => {
    for (let i = 0; i < todo.length; i += 1) {
      while (i >= started + ahead && !signal.aborted) await new Promise<void>((r) => (wake = r));
      if (signal.aborted) break;
      const version = todo[i]!;
      emit({ kind: "download-start", version });
      try {
        const release = await runner.prefetch(version);
        downloads.set(version, { ms: release.fromCache ? 0 : release.fetchMs, bytes: release.downloadedBytes });
        emit({ kind: "download", version, bytes: release.downloadedBytes, ms: release.fetchMs, fromCache: release.fromCache });
      } catch {
        // The run installs it again and records why it could not.
      }
      ready.get(version)!.resolve();
    }
    for (const d of ready.values()) d.resolve();
  })();

  const limit = pLimit(options.concurrency);
  const results: ReleaseResult[] = [...file.results];
  const left: string[] = [];
  await Promise.all(
    todo.map((version) =>
      limit(async () => {
        if (signal.aborted) return void left.push(version);
        started += 1;
        wake();
        await ready.get(version)!.promise;
        if (signal.aborted) return void left.push(version);
        emit({ kind: "run-start", version });
        const runs: ReleaseResult["runs"] = [];
        const checks: CheckResult[] = [];
        for (let repeat = 0; repeat < options.repeat; repeat += 1) {
          const t0 = Date.now();
          const outcome = await runner.run({ scenario: options.scenario, params: options.params, ...options.drive }, version, signal);
          const result = outcome.installed ? outcome.record.result : harnessErrorResult(`could not install ${version}: ${outcome.message}`);
          checks.push(result);
          runs.push({ dir: outcome.installed ? path.relative(outDir, outcome.runDir) : null, verdict: result.verdict, wallMs: Date.now() - t0 });
        }
        // A run cut short by Ctrl-C says nothing about the release: leave it for the resumed sweep.
        if (signal.aborted) return void left.push(version);
        const combined = combineRepeats(checks);
        const red = [...new Set(checks.flatMap((c) => c.findings.filter((f) => f.red).map((f) => f.id)))].sort();
        const download = downloads.get(version) ?? { ms: 0, bytes: 0 };
        const result: ReleaseResult = {
          version,
          verdict: combined.verdict,
          reason: combined.reason,
          red: combined.verdict === "RED" || combined.flaky ? red : [],
          flaky: combined.flaky,
          runs,
          downloadMs: download.ms,
          downloadedBytes: download.bytes,
          finishedAt: new Date().toISOString(),
        };
        results.push(result);
        done += 1;
        file = withResults(file, results);
        writeSweepFile(outDir, file);
        emit({ kind: "release", result, done, total });
      }),
    ),
  );
  wake();
  await downloader;
  file = withResults(file, results);
  writeSweepFile(outDir, file);
  return { file, path: written, left: todo.filter((v) => !results.some((r) => r.version === v)), interrupted: signal.aborted };
}
