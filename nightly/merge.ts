// Joins the shards of one nightly into a single summary, compared with the previous nightly as if it had run whole.
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import semver from "semver";
import { UserError } from "../core/errors.ts";
import { assembleSummary, type PreviousNightly } from "./assemble.ts";
import { compareCells } from "./matrix.ts";
import type { Release, Summary } from "./summary.ts";

export interface ShardSummary {
  dir: string;
  summary: Summary;
}

function checkShards(shards: readonly ShardSummary[]): void {
  if (shards.length === 0) throw new UserError("--merge needs the directories of the shards to join", "MISSING_ARGUMENT");
  for (const { dir, summary } of shards) {
    if (summary.shard === null) throw new UserError(`${dir} holds a whole nightly, not a shard; pass the directories written with --shard K/N`, "BAD_MERGE");
  }
  const count = shards[0]!.summary.shard!.count;
  const indexes = shards.map((s) => s.summary.shard!);
  if (indexes.some((s) => s.count !== count)) {
    throw new UserError(`the shards were cut differently (${indexes.map((s) => `${s.index}/${s.count}`).join(", ")}); merge shards of one nightly`, "BAD_MERGE");
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !indexes.some((s) => s.index === i));
  const repeated = indexes.filter((s, i) => indexes.findIndex((o) => o.index === s.index) !== i);
  if (missing.length > 0 || repeated.length > 0) {
    const what = [missing.length ? `missing ${missing.map((i) => `${i}/${count}`).join(", ")}` : "", repeated.length ? `given twice: ${repeated.map((s) => `${s.index}/${count}`).join(", ")}` : ""];
    throw new UserError(`cannot merge: shard ${what.filter(Boolean).join("; ")}. Pass each shard's directory once.`, "BAD_MERGE");
  }
  const config = shards[0]!.summary.config;
  const other = shards.find((s) => !isDeepStrictEqual(s.summary.config, config));
  if (other) throw new UserError(`${other.dir} ran a different configuration than ${shards[0]!.dir}; merge shards of one nightly`, "BAD_MERGE");
}

export function mergeShards(shards: readonly ShardSummary[], outDir: string, previous: PreviousNightly | null): Summary {
  checkShards(shards);
  const out = path.resolve(outDir);
  const rebase = (shardDir: string, dir: string | null) => (dir === null ? null : path.relative(out, path.resolve(shardDir, dir)));
  const cells = shards
    .flatMap(({ dir, summary }) => summary.cells.map((cell) => ({ ...cell, runs: cell.runs.map((run) => ({ ...run, dir: rebase(dir, run.dir) })) })))
    .sort(compareCells);
  const twice = cells.find((cell, i) => i > 0 && cell.key === cells[i - 1]!.key);
  if (twice) throw new UserError(`cell ${twice.key} appears in more than one shard; merge shards of one nightly`, "BAD_MERGE");

  // Shards started at slightly different times may have seen a newer `latest`: keep every version any of them ran.
  const words = new Map<string, Set<string>>();
  const releases = new Map<string, Release>();
  for (const { summary } of shards) {
    for (const { word, versions } of summary.versionWords) words.set(word, new Set([...(words.get(word) ?? []), ...versions]));
    for (const release of summary.releases) releases.set(release.version, release);
  }
  const starts = shards.map((s) => s.summary.startedAt).sort();
  const ends = shards.map((s) => s.summary.endedAt).sort();
  return assembleSummary({
    kind: "nightly",
    startedAt: starts[0]!,
    endedAt: ends.at(-1)!,
    config: shards[0]!.summary.config,
    versionWords: [...words].map(([word, versions]) => ({ word, versions: [...versions].sort(semver.compare) })),
    releases: [...releases.values()].sort((a, b) => semver.compare(a.version, b.version)),
    shard: null,
    mergedFrom: shards.map((s) => path.relative(out, path.resolve(s.dir)) || "."),
    cells,
    previous,
  });
}
