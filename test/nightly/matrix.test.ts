// Planning the matrix (version words, since:previous, stable order) and cutting it into shards.
import { describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.ts";
import { parseNightlyConfig } from "../../nightly/config.ts";
import { cellKey, paramsLabel, planMatrix } from "../../nightly/matrix.ts";
import { parseShard, sliceForShard } from "../../nightly/shard.ts";
import { fixtureIndex } from "./fixture.ts";
import { defaultNightlyConfig } from "../../nightly/default-config.ts";
import { scenarioDrivers } from "../../kit/scenario.ts";
import { DEFAULT_SDK_VERSION } from "../../releases/sdk-install.ts";
import { SCENARIOS } from "../../scenarios/index.ts";

const index = fixtureIndex({ "2.1.340": "2026-12-01T10:00:00.000Z" });
const config = (versions: string[], scenarios?: unknown[]) => parseNightlyConfig({ versions, ...(scenarios ? { scenarios } : {}) }, "test.json");

describe("planMatrix", () => {
  it("crosses scenario entries with the resolved releases in one stable order", () => {
    const plan = planMatrix(
      config(["2.1.332", ">=2.1.281 <2.1.340", "latest"], [{ name: "resume-orphaned-background-task", params: { stop: "sigterm", grace: 1000 } }, "subagent-resume-notification-header"]),
      index,
      null,
    );
    expect(plan.versionWords).toEqual([
      { word: "2.1.332", versions: ["2.1.332"] },
      { word: ">=2.1.281 <2.1.340", versions: ["2.1.281", "2.1.332"] },
      { word: "latest", versions: ["2.1.340"] },
    ]);
    expect(plan.releases).toEqual([
      { version: "2.1.281", publishedAt: "2026-09-23T21:08:56.391Z" },
      { version: "2.1.332", publishedAt: "2026-11-24T22:06:38.000Z" },
      { version: "2.1.340", publishedAt: "2026-12-01T10:00:00.000Z" },
    ]);
    expect(plan.cells.map((c) => c.key)).toEqual([
      "resume-orphaned-background-task[grace=1000,stop=sigterm]@2.1.281",
      "resume-orphaned-background-task[grace=1000,stop=sigterm]@2.1.332",
      "resume-orphaned-background-task[grace=1000,stop=sigterm]@2.1.340",
      "subagent-resume-notification-header@2.1.281",
      "subagent-resume-notification-header@2.1.332",
      "subagent-resume-notification-header@2.1.340",
    ]);
    expect(plan.cells[0]!.params).toEqual({ stop: "sigterm", grace: 1000 });
  });

  it("turns since:previous into the releases published after the previous nightly started, none without one", () => {
    expect(planMatrix(config(["since:previous"]), index, "2026-11-01T00:00:00Z").versionWords).toEqual([{ word: "since:previous", versions: ["2.1.332", "2.1.340"] }]);
    expect(planMatrix(config(["since:previous"]), index, null)).toMatchObject({ versionWords: [{ word: "since:previous", versions: [] }], cells: [] });
  });

  it("passes a bad version word on as the release list's own user error", () => {
    expect(() => planMatrix(config(["2.1.999"]), index, null)).toThrow(UserError);
  });

  it("labels parameters the same whatever order they were written in", () => {
    expect(paramsLabel({ b: true, a: "x" })).toBe(paramsLabel({ a: "x", b: true }));
    expect(cellKey("s", "", "1.0.0")).toBe("s@1.0.0");
  });
});

describe("shards", () => {
  it("parses K/N and rejects anything else with the form to use", () => {
    expect(parseShard("2/3")).toEqual({ index: 2, count: 3 });
    for (const bad of ["0/2", "3/2", "1/0", "1", "a/b", "1/2/3"]) expect(() => parseShard(bad)).toThrow(/--shard takes K\/N/);
  });

  it("splits a list into disjoint slices that cover it, the same way every time", () => {
    const items = Array.from({ length: 11 }, (_, i) => i);
    const slices = [1, 2, 3].map((index) => sliceForShard(items, { index, count: 3 }));
    expect(slices.flat().sort((a, b) => a - b)).toEqual(items);
    expect(slices[0]).toEqual([0, 3, 6, 9]);
    expect(sliceForShard(items, { index: 1, count: 3 })).toEqual(slices[0]);
    expect(sliceForShard(items, null)).toEqual(items);
  });
});

describe("cells with a driver of their entry's", () => {
  it("runs an entry in the interactive UI as its own cell, keyed by the driver; naming the scenario's own driver changes no key", () => {
    const plan = planMatrix(
      config(["2.1.332"], [{ name: "compact-resume", driver: "terminal" }, { name: "compact-resume", driver: "headless" }, { name: "subagent-background-task-notified", driver: "terminal" }]),
      index,
      null,
    );
    expect(plan.cells.map((c) => c.key)).toEqual([
      "compact-resume@2.1.332",
      "compact-resume[driver=terminal]@2.1.332",
      "subagent-background-task-notified[driver=terminal]@2.1.332",
    ]);
    expect(plan.cells.map((c) => c.drive)).toEqual([undefined, { driver: "terminal" }, { driver: "terminal" }]);
  });

  it("gives an entry that names its driver no SDK cells: it asked for those cells only", () => {
    const plan = planMatrix(
      parseNightlyConfig({ versions: ["2.1.332"], scenarios: [{ name: "resume-orphaned-background-task", driver: "headless" }], sdkCells: { versions: ["2.1.332"], sdk: ["0.3.197"] } }, "test.json"),
      index,
      null,
    );
    expect(plan.cells.map((c) => c.key)).toEqual(["resume-orphaned-background-task@2.1.332"]);
  });

  it("refuses a driver the scenario does not run with, and the same entry twice", () => {
    expect(() => config(["latest"], [{ name: "continue-latest", driver: "terminal" }])).toThrow(/scenarios\[0\]\.driver: scenario continue-latest runs with headless, not terminal/);
    expect(() => config(["latest"], ["compact-resume", { name: "compact-resume", driver: "headless" }])).toThrow(/scenarios\[1\]: repeats scenarios\[0\] \(same scenario, parameters and driver\)/);
    expect(() => config(["latest"], [{ name: "compact-resume", driver: "sdk" }])).toThrow(/scenarios\[0\]: expected a scenario name, or .*"driver": "headless" \| "terminal"/);
  });
});

describe("SDK cells", () => {
  it("adds one cell per sdk-capable scenario entry, SDK release and claude version, keyed by driver and SDK", () => {
    const plan = planMatrix(
      parseNightlyConfig(
        {
          versions: ["2.1.332"],
          scenarios: ["resume-orphaned-background-task", "subagent-resume-notification-header", "background-mid-turn"],
          sdkCells: { versions: ["2.1.281", "latest"], sdk: ["0.3.197"] },
        },
        "test.json",
      ),
      index,
      null,
    );
    const sdkCells = plan.cells.filter((c) => c.drive);
    expect(sdkCells.map((c) => c.key)).toEqual([
      "resume-orphaned-background-task[driver=sdk,sdk=0.3.197]@2.1.281",
      "resume-orphaned-background-task[driver=sdk,sdk=0.3.197]@2.1.340",
    ]);
    expect(sdkCells[0]).toMatchObject({ params: {}, drive: { driver: "sdk", sdk: "0.3.197" } });
    // Their claude releases join the matrix's releases; the headless cells stay as they were.
    expect(plan.releases.map((r) => r.version)).toEqual(["2.1.281", "2.1.332", "2.1.340"]);
    expect(plan.cells.filter((c) => !c.drive).map((c) => c.version)).toEqual(["2.1.332", "2.1.332", "2.1.332"]);
  });

  it("are in the built-in default: latest through the default SDK, for the scenarios that support it", () => {
    const plan = planMatrix(defaultNightlyConfig(), index, null);
    const sdkScenarios = SCENARIOS.filter((s) => scenarioDrivers(s).includes("sdk")).map((s) => s.name);
    expect(sdkScenarios.length).toBeGreaterThan(0);
    expect(plan.cells.filter((c) => c.drive).map((c) => c.key)).toEqual(sdkScenarios.map((name) => `${name}[driver=sdk,sdk=${DEFAULT_SDK_VERSION}]@2.1.340`));
  });

  it("refuses an SDK word that is not an exact release", () => {
    expect(() => parseNightlyConfig({ versions: ["latest"], sdkCells: { versions: ["latest"], sdk: ["latest"] } }, "test.json")).toThrow(/sdkCells\.sdk\[0\]: expected an exact SDK release/);
  });
});
