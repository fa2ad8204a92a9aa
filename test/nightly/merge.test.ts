// Sharding then merging gives the summary of the whole matrix, compared with the previous nightly the same way.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mergeShards, type ShardSummary } from "../../nightly/merge.ts";
import { runNightly } from "../../nightly/run-nightly.ts";
import type { Summary } from "../../nightly/summary.ts";
import { fixtureIndex, fixtureRunner, fixtureSummary, tempDir } from "./fixture.ts";

const recorded = fixtureSummary();
// The previous nightly in which one cell differed: the header scenario was RED on 2.1.332 then.
const previousSummary: Summary = {
  ...recorded,
  cells: recorded.cells.map((c) => (c.key === "subagent-resume-notification-header@2.1.332" ? { ...c, verdict: "RED", redFindings: ["notification-changed"] } : c)),
};
const previous = { summary: previousSummary, path: "/previous/summary.json" };

async function nightly(outDir: string, shard: { index: number; count: number } | null): Promise<ShardSummary> {
  const summary = await runNightly({ config: recorded.config!, outDir, previous, shard, index: fixtureIndex(), runCell: fixtureRunner().runCell });
  return { dir: outDir, summary };
}

// What must not depend on how the matrix was cut: everything but times and where the run directories are written from.
function comparable(summary: Summary, baseDir: string) {
  const { startedAt: _s, endedAt: _e, wallMs: _w, mergedFrom: _m, cells, ...rest } = summary;
  return { ...rest, cells: cells.map((c) => ({ ...c, runs: c.runs.map((r) => ({ ...r, dir: r.dir && path.resolve(baseDir, r.dir) })) })) };
}

describe("mergeShards", () => {
  it("joins two shards into the unsharded summary, changes and exit code included", async () => {
    const root = tempDir("merge");
    const whole = await nightly(path.join(root, "whole"), null);
    const one = await nightly(path.join(root, "shards", "1"), { index: 1, count: 2 });
    const two = await nightly(path.join(root, "shards", "2"), { index: 2, count: 2 });
    expect(one.summary.cells).toHaveLength(2);
    expect(two.summary.cells).toHaveLength(2);
    expect(one.summary.cells.map((c) => c.key)).not.toEqual(two.summary.cells.map((c) => c.key));

    const mergedDir = path.join(root, "merged");
    const merged = mergeShards([two, one], mergedDir, previous);
    expect(comparable(merged, mergedDir)).toEqual(comparable(whole.summary, whole.dir));
    expect(merged.mergedFrom).toEqual([path.join("..", "shards", "2"), path.join("..", "shards", "1")]);
    expect(merged.changes).toEqual([
      { kind: "fixed", key: "subagent-resume-notification-header@2.1.332", before: { verdict: "RED", redFindings: ["notification-changed"] }, after: { verdict: "GREEN", redFindings: [] }, regression: false },
    ]);
    // The one RED nothing written expects (resume-orphaned-background-task on 2.1.281) was RED the previous night
    // too: the previous nightly's ledger holds it, so it is reported, not failed.
    expect(merged.cells.find((c) => c.key === "resume-orphaned-background-task[grace=1000]@2.1.281")).toMatchObject({ verdict: "RED", status: "expected", expectation: { source: "previous" } });
    expect(merged.exitCode).toBe(0);
    expect(fs.existsSync(mergedDir)).toBe(false);
  });

  it("refuses shards that do not make one whole nightly, saying which", async () => {
    const root = tempDir("merge-bad");
    const one = await nightly(path.join(root, "1"), { index: 1, count: 2 });
    const whole = await nightly(path.join(root, "whole"), null);
    const ofThree = await nightly(path.join(root, "3"), { index: 2, count: 3 });
    const out = path.join(root, "out");
    expect(() => mergeShards([one], out, null)).toThrow(/missing 2\/2/);
    expect(() => mergeShards([one, one], out, null)).toThrow(/missing 2\/2; given twice: 1\/2/);
    expect(() => mergeShards([one, whole], out, null)).toThrow(/holds a whole nightly, not a shard/);
    expect(() => mergeShards([one, ofThree], out, null)).toThrow(/cut differently \(1\/2, 2\/3\)/);
    expect(() => mergeShards([], out, null)).toThrow(/--merge needs/);
    const other = { ...one, summary: { ...one.summary, shard: { index: 2, count: 2 }, config: { ...one.summary.config!, repeats: 3 } } };
    expect(() => mergeShards([one, other], out, null)).toThrow(/ran a different configuration/);
  });
});
