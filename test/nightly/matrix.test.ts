// Planning the matrix (version words, since:previous, stable order) and cutting it into shards.
import { describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.ts";
import { parseNightlyConfig } from "../../nightly/config.ts";
import { cellKey, paramsLabel, planMatrix } from "../../nightly/matrix.ts";
import { parseShard, sliceForShard } from "../../nightly/shard.ts";
import { fixtureIndex } from "./fixture.ts";

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
