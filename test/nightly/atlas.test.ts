// The nightly's atlas with a stand-in runner (verdicts from a table, no claude): the config field validated with
// errors that name it, each night runs only what the grown range adds (one run for a new release that agrees with its
// predecessor, a bisection where it differs), the summary keeps the atlas's state and the reports link its site.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../core/verdict.ts";
import { readAtlasFile } from "../../atlas/atlas-file.ts";
import { parseNightlyConfig, type NightlyConfig } from "../../nightly/config.ts";
import { extendAtlas } from "../../nightly/atlas.ts";
import { nightly } from "../../nightly/nightly.ts";
import { renderMarkdown } from "../../report/markdown.ts";
import { renderHtml } from "../../report/html.ts";
import { fixtureIndex, fixtureRunner, fixtureSummary, tempDir } from "./fixture.ts";
import { standInRunner } from "../stand-in-runner.ts";

const SCENARIO = "subagent-resume-notification-header";

// RED notification-changed up to 2.1.283, GREEN after: the stand-in's table, not a measurement.
function resultFor(version: string): CheckResult {
  if (Number(version.split(".")[2]) <= 283) return { verdict: "RED", reason: "x", findings: [{ id: "notification-changed", red: true, title: "x", where: "", detail: [], data: {} }], notes: [] };
  return { verdict: "GREEN", reason: "held", findings: [], notes: [] };
}

const standIn = (outDir: string) => standInRunner(outDir, resultFor);

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `2.1.${from + i}`);

describe("nightly config: atlas", () => {
  const base = { versions: ["latest"] };
  it("fills in the stride and repeat, and names the field of a mistake", () => {
    const config = parseNightlyConfig({ ...base, atlas: { scenarios: [SCENARIO], versions: ">=2.1.240", out: "atlas" } }, "n.json");
    expect(config.atlas).toEqual({ scenarios: [SCENARIO], versions: ">=2.1.240", stride: 8, repeat: 1, out: "atlas" });
    expect(() => parseNightlyConfig({ ...base, atlas: { scenarios: ["nope"], versions: ">=2.1.240", out: "a" } }, "n.json")).toThrow(/n\.json: atlas\.scenarios\[0\]: unknown scenario "nope"/);
    expect(() => parseNightlyConfig({ ...base, atlas: { scenarios: [{ name: SCENARIO, params: { bogus: 1 } }], versions: "x", out: "a" } }, "n.json")).toThrow(/atlas\.scenarios\[0\]\.params\.bogus: unrecognized key/);
    expect(() => parseNightlyConfig({ ...base, atlas: { scenarios: [SCENARIO], versions: ">=2.1.240" } }, "n.json")).toThrow(/atlas\.out:/);
    expect(() => parseNightlyConfig({ ...base, atlas: { scenarios: [SCENARIO], versions: ">=2.1.240", out: "a", stride: 0 } }, "n.json")).toThrow(/atlas\.stride:/);
    expect(() => parseNightlyConfig({ ...base, atlas: { scenarios: [SCENARIO], versions: ">=2.1.240", out: "a", strde: 4 } }, "n.json")).toThrow(/atlas: .*strde/);
  });
});

describe("extendAtlas", () => {
  it("runs only what each night's grown range adds: one run for a release like its predecessor, a bisection where it differs", async () => {
    const dir = tempDir("nightly-atlas");
    const out = path.join(dir, "atlas");
    const atlas = { scenarios: [SCENARIO], versions: ">=2.1.270", stride: 4, repeat: 1, out };
    const night = async (to: number) => {
      const { runner, ran } = standIn(out);
      const { record } = await extendAtlas({ atlas, nightlyDir: path.join(dir, `nightly-${to}`), runner, resolveVersions: async () => range(270, to) });
      return { ran, record };
    };
    const first = await night(280);
    expect(first.ran).toEqual(["2.1.270", "2.1.274", "2.1.278", "2.1.280"]);
    expect(first.record.entries[0]!.boundaries).toEqual([]);
    // 2.1.281 agrees with 2.1.280: its one run, nothing else.
    const second = await night(281);
    expect(second.ran).toEqual(["2.1.281"]);
    expect(second.record.changes).toEqual([`${SCENARIO} ${JSON.stringify(first.record.entries[0]!.params)} headless: 1 release(s) added, 2.1.281: RED notification-changed`]);
    // 2.1.282–2.1.283 agree (one sample at the new end: the gap is under the stride), no boundary yet.
    expect((await night(283)).ran).toEqual(["2.1.283"]);
    // Three new releases, the newest GREEN: its sample, then the bisection between 2.1.283 and 2.1.286 (2.1.284 is
    // GREEN, next to the RED 2.1.283: done; 2.1.285 is assumed).
    const fourth = await night(286);
    expect(fourth.ran).toEqual(["2.1.286", "2.1.284"]);
    expect(fourth.record).toMatchObject({ dir: path.join("..", "atlas"), runs: 2, interrupted: false });
    expect(fourth.record.entries).toEqual([
      { scenario: SCENARIO, params: expect.any(Object), releases: 17, measured: 8, boundaries: ["2.1.283 → 2.1.284: RED notification-changed → GREEN"], complete: true },
    ]);
    expect(fourth.record.changes).toEqual([
      `${SCENARIO} ${JSON.stringify(first.record.entries[0]!.params)} headless: new boundary 2.1.283 → 2.1.284: RED notification-changed → GREEN`,
      `${SCENARIO} ${JSON.stringify(first.record.entries[0]!.params)} headless: 3 release(s) added, 2.1.284 – 2.1.286: GREEN`,
    ]);
    expect(readAtlasFile(out).entries[0]!.runs).toBe(8);
  });
});

describe("nightly with an atlas", () => {
  it("extends the atlas after the cells, keeps its state in the summary and links its site from the reports", async () => {
    const dir = tempDir("nightly-with-atlas");
    const outDir = path.join(dir, "nightly");
    const out = path.join(dir, "atlas");
    const { runner, ran } = standIn(out);
    const config: NightlyConfig = { ...fixtureSummary().config!, atlas: { scenarios: [SCENARIO], versions: "2.1.282 - 2.1.285", stride: 8, repeat: 1, out } };
    const outcome = await nightly({ config, outDir, previous: null, index: fixtureIndex(), runCell: fixtureRunner().runCell, atlas: { runner, resolveVersions: async () => range(282, 285) } });
    expect(ran).toEqual(["2.1.282", "2.1.285", "2.1.283", "2.1.284"]);
    expect(outcome.atlas?.dir).toBe(out);
    expect(outcome.summary.atlas?.entries[0]?.boundaries).toEqual(["2.1.283 → 2.1.284: RED notification-changed → GREEN"]);
    // The atlas changes no cell, so the exit code is the matrix's.
    expect(outcome.summary.exitCode).toBe(fixtureSummary().exitCode);
    const md = renderMarkdown({ summary: outcome.summary, baseDir: outDir });
    expect(md).toContain("## Atlas");
    expect(md).toContain(`- changed tonight: ${SCENARIO}`);
    expect(md).toContain("[The atlas site](../atlas/site/index.html)");
    expect(renderHtml({ summary: outcome.summary, baseDir: outDir })).toContain('<a href="../atlas/site/index.html">The atlas site</a>');
  });

  it("leaves the atlas out of a shard", async () => {
    const dir = tempDir("nightly-shard-atlas");
    const { runner, ran } = standIn(path.join(dir, "atlas"));
    const notes: string[] = [];
    const config: NightlyConfig = { ...fixtureSummary().config!, atlas: { scenarios: [SCENARIO], versions: "2.1.282 - 2.1.285", stride: 8, repeat: 1, out: path.join(dir, "atlas") } };
    const outcome = await nightly({ config, outDir: path.join(dir, "n"), previous: null, shard: { index: 1, count: 2 }, index: fixtureIndex(), runCell: fixtureRunner().runCell, atlas: { runner }, onNote: (l) => notes.push(l) });
    expect(ran).toEqual([]);
    expect(outcome.atlas).toBeNull();
    expect(notes.join("\n")).toMatch(/atlas is not extended/);
  });
});

describe("the nightly's sweeps", () => {
  it("sweep a scenario that runs alone one release at a time, whatever the nightly's concurrency", async () => {
    const dir = tempDir("nightly-sweep-alone");
    const { runner, ran } = standIn(path.join(dir, "runs"));
    let active = 0;
    let most = 0;
    const counted: typeof runner = {
      prefetch: (version) => runner.prefetch(version),
      async run(subject, version, abort) {
        most = Math.max(most, ++active);
        try {
          // Long enough that runs allowed at once would overlap.
          await new Promise((resolve) => setTimeout(resolve, 10));
          return await runner.run(subject, version, abort);
        } finally {
          active -= 1;
        }
      },
    };
    const sweeps = [{ scenario: "background-mid-turn", versions: "2.1.236 - 2.1.239", params: {}, repeat: 1 }];
    const config: NightlyConfig = { ...fixtureSummary().config!, concurrency: 3, sweeps };
    const outcome = await nightly({ config, outDir: path.join(dir, "n"), previous: null, index: fixtureIndex(), runCell: fixtureRunner().runCell, sweeps: { runner: counted, resolveVersions: async () => range(236, 239) } });
    expect(ran).toEqual(range(236, 239));
    expect(most).toBe(1);
    expect(outcome.sweeps).toHaveLength(1);
  });
});
