// atlas --merge with a stand-in runner (verdicts from a table, no claude): two shards of one scenario over adjacent
// ranges become one entry whose boundaries are those a single atlas finds, run directories copied under the merged
// runs/; a seam the shards left open (an ERROR at a shard's end) stays open until the merged atlas is resumed
// (what --resolve does), which runs only the releases between; a file that is not an atlas is refused.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findScenario } from "../../scenarios/index.ts";
import { runAtlas } from "../../atlas/run-atlas.ts";
import { mergeAtlases, resolveMerged } from "../../atlas/merge.ts";
import { readAtlasFile } from "../../atlas/atlas-file.ts";
import { ERROR_RESULT, GREEN_RESULT, redWith, standInRunner, tempDirs } from "../stand-in-runner.ts";

const scenario = findScenario("subagent-resume-notification-header")!;
const params = scenario.params.parse({}) as Record<string, unknown>;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `2.1.${from + i}`);
const tmp = tempDirs("atlas-merge-");

// RED up to 2.1.283, GREEN after; `errors` fail as a harness ERROR would.
function standIn(outDir: string, errors: readonly string[] = []) {
  return standInRunner(outDir, (version) => (errors.includes(version) ? ERROR_RESULT : Number(version.split(".")[2]) <= 283 ? redWith("notification-changed") : GREEN_RESULT));
}

async function shard(dir: string, versions: string[], errors: string[] = [], repeat = 1) {
  const { runner, ran } = standIn(dir, errors);
  await runAtlas({ subjects: [{ scenario, params }], drive: {}, versions, stride: 4, verify: 0, repeat, outDir: dir, reuse: [], runner });
  return ran;
}

describe("mergeAtlases", () => {
  it("joins adjacent shards into the entry one atlas would have: same boundary, cells and runs carried over", async () => {
    const root = tmp();
    const [a, b, out] = ["a", "b", "merged"].map((n) => path.join(root, n)) as [string, string, string];
    await shard(a, range(270, 281));
    await shard(b, range(282, 290));
    const file = mergeAtlases([a, b], out);
    expect(file.entries).toHaveLength(1);
    const entry = file.entries[0]!;
    expect(entry.versions).toEqual(range(270, 290));
    expect(entry.boundaries.map((x) => `${x.before}→${x.after} ${x.between.length}`)).toEqual(["2.1.283→2.1.284 0"]);
    expect(entry.complete).toBe(true);
    expect(entry.runs).toBe(readAtlasFile(a).entries[0]!.runs + readAtlasFile(b).entries[0]!.runs);
    // Every cell's run directory now lies under the merged atlas, copied whole.
    for (const cell of entry.cells) for (const run of cell.runs) expect(fs.readFileSync(path.join(out, run.dir!, "marker"), "utf8")).toBe(cell.version);
    expect(readAtlasFile(out)).toEqual(file);
  });

  it("leaves a seam the shards did not settle open, and the resumed merged atlas runs only what lies in it", async () => {
    const root = tmp();
    const [a, b, out] = ["a", "b", "merged"].map((n) => path.join(root, n)) as [string, string, string];
    // Shard a's newest releases fail: its last answer is its sample 2.1.278 (RED), shard b's first 2.1.284 (GREEN).
    await shard(a, range(270, 283), ["2.1.280", "2.1.281", "2.1.282", "2.1.283"]);
    await shard(b, range(284, 290));
    const merged = mergeAtlases([a, b], out).entries[0]!;
    expect(merged.complete).toBe(false);
    expect(merged.boundaries.map((x) => `${x.before}→${x.after}`)).toEqual(["2.1.278→2.1.284"]);
    expect(merged.boundaries[0]!.between).toEqual(range(279, 283));
    // --resolve: the merged atlas resumed with its own entry's range and stride.
    const { runner, ran } = standIn(out);
    const outcome = await resolveMerged(readAtlasFile(out), { outDir: out, runner });
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.every((v) => merged.boundaries[0]!.between.includes(v))).toBe(true);
    const resolved = outcome.file.entries[0]!;
    expect(resolved.boundaries.map((x) => `${x.before}→${x.after}`)).toEqual(["2.1.283→2.1.284"]);
    expect(resolved.complete).toBe(true);
    // Merging again (a resumed --merge) keeps what the resolve measured.
    expect(mergeAtlases([a, b], out).entries[0]!.boundaries.map((x) => `${x.before}→${x.after}`)).toEqual(["2.1.283→2.1.284"]);
  });

  it("refuses a file that is not an atlas, and shards measured with different repeats", async () => {
    const root = tmp();
    const [a, b, bad] = ["a", "b", "bad"].map((n) => path.join(root, n)) as [string, string, string];
    await shard(a, range(270, 275));
    fs.mkdirSync(bad);
    fs.writeFileSync(path.join(bad, "atlas.json"), JSON.stringify({ kind: "atlas", entries: [{ scenario: 1 }] }));
    expect(() => mergeAtlases([a, bad], path.join(root, "out"))).toThrow(/bad\/atlas\.json is not an atlas file: entries\.0\.scenario/);
    await shard(b, range(276, 280), [], 2);
    expect(() => mergeAtlases([a, b], path.join(root, "out2"))).toThrow(/--repeat 2, another shard with 1/);
    expect(() => mergeAtlases([], path.join(root, "out3"))).toThrow(/needs the atlas directories/);
  });
});
