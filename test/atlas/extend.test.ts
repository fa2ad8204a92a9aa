// `atlas --extend` (atlas/extend.ts) with a stand-in runner (its verdicts draw notificationTable's two boundaries; no
// claude runs here): every entry of an atlas directory is extended from its own first release to the newest, measured
// as it was (driver, stride), and what the new releases changed is said.
import { describe, expect, it } from "vitest";
import { findScenario } from "../../scenarios/index.ts";
import { runAtlas } from "../../atlas/run-atlas.ts";
import { extendEveryEntry, extensionGroups } from "../../atlas/extend.ts";
import { atlasChangeLine } from "../../atlas/changes.ts";
import { readAtlasFile } from "../../atlas/atlas-file.ts";
import { notificationTable, standInRunner, tempDirs } from "../stand-in-runner.ts";

const header = findScenario("subagent-resume-notification-header")!;
const stopLoop = findScenario("stop-hook-loop")!;
const PUBLISHED = ["2.1.250", "2.1.251", "2.1.259", "2.1.270", "2.1.281", "2.1.283", "2.1.284", "2.1.290"];
const tmp = tempDirs("atlas-extend-");

describe("extendEveryEntry", () => {
  it("extends each entry from its own first release to the newest, and names the boundary and releases it added", async () => {
    const out = tmp();
    const first = standInRunner(out, notificationTable);
    // Measured up to 2.1.283 first: one boundary, the GREEN releases not published yet.
    const upTo283 = PUBLISHED.slice(0, 6);
    await runAtlas({ subjects: [{ scenario: header, params: header.params.parse({}) }], drive: {}, versions: upTo283, stride: 2, verify: 0, repeat: 1, outDir: out, reuse: [], runner: first.runner });
    await runAtlas({ subjects: [{ scenario: stopLoop, params: stopLoop.params.parse({}) }], drive: {}, versions: PUBLISHED.slice(2, 6), stride: 4, verify: 0, repeat: 1, outDir: out, reuse: [], runner: first.runner });
    expect(extensionGroups(readAtlasFile(out)).map((group) => group.map((e) => e.scenario))).toEqual([["stop-hook-loop"], ["subagent-resume-notification-header"]]);

    const asked: string[] = [];
    const again = standInRunner(out, notificationTable);
    const outcome = await extendEveryEntry({
      outDir: out,
      scenarioNamed: async (name) => findScenario(name)!,
      releasesFrom: async (from) => {
        asked.push(from);
        return PUBLISHED.filter((v) => v.localeCompare(from, "en", { numeric: true }) >= 0);
      },
      verify: 0,
      reuse: [],
      runner: again.runner,
    });
    expect(asked).toEqual(["2.1.259", "2.1.250"]);
    const entries = readAtlasFile(out).entries;
    expect(entries.map((e) => [e.scenario, e.versions.at(0), e.versions.at(-1), e.stride, e.complete])).toEqual([
      ["stop-hook-loop", "2.1.259", "2.1.290", 4, true],
      ["subagent-resume-notification-header", "2.1.250", "2.1.290", 2, true],
    ]);
    // Only what is new ran: no release measured before is measured again.
    expect(again.ran.every((run) => !first.ran.includes(run))).toBe(true);
    expect(outcome.changes.map(atlasChangeLine)).toEqual([
      `stop-hook-loop ${JSON.stringify(stopLoop.params.parse({}))} headless: new boundary 2.1.283 → 2.1.284: RED notification-changed → GREEN`,
      `stop-hook-loop ${JSON.stringify(stopLoop.params.parse({}))} headless: 2 release(s) added, 2.1.284 – 2.1.290: GREEN`,
      `subagent-resume-notification-header ${JSON.stringify(header.params.parse({}))} headless: new boundary 2.1.283 → 2.1.284: RED notification-changed → GREEN`,
      `subagent-resume-notification-header ${JSON.stringify(header.params.parse({}))} headless: 2 release(s) added, 2.1.284 – 2.1.290: GREEN`,
    ]);
  });
  it("refuses a folder that holds no atlas, saying how to start one", async () => {
    const out = tmp();
    await expect(extendEveryEntry({ outDir: out, scenarioNamed: async (name) => findScenario(name)!, releasesFrom: async () => PUBLISHED, verify: 0, reuse: [] })).rejects.toMatchObject({
      message: `${out} holds no atlas.json to extend`,
      hint: expect.stringMatching(/ccrepro atlas NAME --versions RANGE --out DIR/),
    });
  });
});
