// Finding the nightly to compare with: the newest earlier whole nightly beside the output directory.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.ts";
import { checkOutDir, defaultNightlyDir } from "../../nightly/out-dir.ts";
import { findPreviousNightly, loadPreviousNightly, previousNightlyFor } from "../../nightly/previous.ts";
import type { Summary } from "../../nightly/summary.ts";
import { fixtureSummary, tempDir } from "./fixture.ts";

const recorded = fixtureSummary();

function place(root: string, name: string, summary: Partial<Summary> | string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "summary.json"), typeof summary === "string" ? summary : JSON.stringify({ ...recorded, ...summary }));
  return dir;
}

describe("previousNightlyFor", () => {
  it("takes the file given, none for --no-previous, and else the newest earlier nightly beside --out", () => {
    const root = tempDir("previous-option");
    const ledger = place(root, "ccrepro-ledger-x", { startedAt: "2026-11-01T00:00:00.000Z" });
    const out = path.join(root, "ccrepro-x");
    const now = new Date("2026-11-20T00:00:00.000Z");
    expect(previousNightlyFor(undefined, out, now)?.path).toBe(path.join(ledger, "summary.json"));
    expect(previousNightlyFor(false, out, now)).toBeNull();
    expect(previousNightlyFor(ledger, out, now)?.summary.startedAt).toBe("2026-11-01T00:00:00.000Z");
  });
});

describe("findPreviousNightly", () => {
  it("takes the newest earlier whole nightly, skipping shards, later, damaged and unfinished ones", () => {
    const root = tempDir("previous");
    place(root, "nightly-a", { startedAt: "2026-11-01T00:00:00.000Z" });
    const b = place(root, "nightly-b", { startedAt: "2026-11-10T00:00:00.000Z" });
    place(root, "nightly-b-shard", { startedAt: "2026-11-11T00:00:00.000Z", shard: { index: 1, count: 2 } });
    place(root, "run-summary", { startedAt: "2026-11-12T00:00:00.000Z", kind: "run" });
    place(root, "nightly-later", { startedAt: "2026-11-30T00:00:00.000Z" });
    place(root, "nightly-damaged", "{ not json");
    fs.mkdirSync(path.join(root, "nightly-unfinished"));
    const found = findPreviousNightly(path.join(root, "nightly-now"), new Date("2026-11-20T00:00:00.000Z"));
    expect(found?.path).toBe(path.join(b, "summary.json"));
    expect(found?.summary.startedAt).toBe("2026-11-10T00:00:00.000Z");
  });

  it("never picks the output directory itself, and finds nothing in an empty parent", () => {
    const root = tempDir("previous-self");
    const own = place(root, "nightly-now", { startedAt: "2026-11-01T00:00:00.000Z" });
    expect(findPreviousNightly(own, new Date("2026-12-01T00:00:00.000Z"))).toBeNull();
    expect(findPreviousNightly(path.join(tempDir("empty"), "x"), new Date())).toBeNull();
  });

  it("loads --previous as a directory or a file, and says what is wrong with a bad one", () => {
    const dir = place(tempDir("given"), "n", {});
    expect(loadPreviousNightly(dir).path).toBe(path.join(dir, "summary.json"));
    expect(loadPreviousNightly(path.join(dir, "summary.json")).summary.cells).toHaveLength(4);
    const bad = place(tempDir("given-bad"), "n", JSON.stringify({ format: 1 }));
    expect(() => loadPreviousNightly(bad)).toThrow(UserError);
    expect(() => loadPreviousNightly(bad)).toThrow(/is not a ccrepro summary\.json \(kind: /);
  });
});

describe("output directory", () => {
  it("defaults to runs/nightly-<UTC time>, with the shard in the name", () => {
    const now = new Date("2026-11-30T16:21:29.227Z");
    expect(defaultNightlyDir(now)).toBe(path.join("runs", "nightly-20261130T162129Z"));
    expect(defaultNightlyDir(now, { index: 1, count: 2 })).toBe(path.join("runs", "nightly-20261130T162129Z-shard-1-of-2"));
  });

  it("refuses a directory that already holds a nightly", () => {
    const dir = place(tempDir("taken"), "n", {});
    expect(() => checkOutDir(dir)).toThrow(/already holds a nightly/);
    expect(checkOutDir(path.join(dir, "fresh"))).toBe(path.join(dir, "fresh"));
  });
});
