// What an atlas run changed (atlas/changes.ts), on atlas files the search builds from state tables: the nightly that
// extends the atlas to new releases says which boundaries and which states moved.
import { describe, expect, it } from "vitest";
import { atlasChangeLine, atlasChanges } from "../../atlas/changes.ts";
import { atlasOf, entryFrom } from "./build.ts";
import { at, releases } from "./tables.ts";

const GREEN_THEN_RED = (from: number) => (v: string) => (at(v) >= from ? "RED bug" : "GREEN");

describe("atlasChanges", () => {
  it("names every entry new when there was no atlas", async () => {
    const after = atlasOf([await entryFrom("s", releases(10), () => "GREEN")]);
    expect(atlasChanges(null, after).map(atlasChangeLine)).toEqual(["s headless: new in the atlas (10 release(s))"]);
  });

  it("says nothing changed when the same entry is written again", async () => {
    const entry = await entryFrom("s", releases(20), GREEN_THEN_RED(12));
    expect(atlasChanges(atlasOf([entry]), atlasOf([entry]))).toEqual([]);
  });

  it("names the releases a range grew by, their states, and the boundary the new ones brought", async () => {
    const before = atlasOf([await entryFrom("s", releases(20), () => "GREEN")]);
    const after = atlasOf([await entryFrom("s", releases(26), GREEN_THEN_RED(23))]);
    expect(atlasChanges(before, after).map(atlasChangeLine)).toEqual(["s headless: new boundary 1.0.22 → 1.0.23: GREEN → RED bug", "s headless: 6 release(s) added, 1.0.20 – 1.0.25: GREEN, RED bug"]);
  });

  it("names a boundary that moved as one gone and one added, and each release whose state is now another", async () => {
    const before = atlasOf([await entryFrom("s", releases(20), GREEN_THEN_RED(12), 1)]);
    const after = atlasOf([await entryFrom("s", releases(20), GREEN_THEN_RED(14), 1)]);
    expect(atlasChanges(before, after).map(atlasChangeLine)).toEqual([
      "s headless: new boundary 1.0.13 → 1.0.14: GREEN → RED bug",
      "s headless: boundary gone 1.0.11 → 1.0.12: GREEN → RED bug",
      "s headless: 1.0.12 was RED bug, now GREEN",
      "s headless: 1.0.13 was RED bug, now GREEN",
    ]);
  });

  it("tells variants apart by their parameters", async () => {
    const plain = await entryFrom("s", releases(8), () => "GREEN");
    const variant = { ...plain, params: { mode: "b" } };
    const changes = atlasChanges(atlasOf([plain]), atlasOf([plain, variant]));
    expect(changes).toEqual([{ kind: "new-entry", scenario: "s", entry: 's {"mode":"b"} headless', releases: 8 }]);
  });
});
