// The ledger a CI job keeps between runs: whose it is (the cache key), what a run compares with (a re-run: what its
// first attempt compared with), and what it keeps (tonight's cells over the older ones); and the plan's cache key.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { keepLedger, ledgerBaseline, ledgerKeyPrefix, mergeLedger } from "../../nightly/ci-ledger.ts";
import { releasesKey, sdkReleasesOf } from "../../nightly/ci-plan.ts";
import { readSummary, type Cell, type Summary } from "../../nightly/summary.ts";
import { fixtureSummary, tempDir } from "./fixture.ts";

const scratch = tempDir("ci-ledger");
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

// The recorded nightly's cells, on given releases only, started at a given time.
function nightOf(versions: readonly string[], startedAt: string, verdict?: Cell["verdict"]): Summary {
  const recorded = fixtureSummary();
  const cells = recorded.cells.filter((cell) => versions.includes(cell.version)).map((cell) => (verdict ? { ...cell, verdict } : cell));
  return { ...recorded, startedAt, cells, releases: recorded.releases.filter((r) => versions.includes(r.version)) };
}

function writeNight(name: string, summary: Summary): string {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "summary.json"), JSON.stringify(summary));
  return dir;
}

describe("ledgerKeyPrefix", () => {
  it("gives each name a prefix that starts no other name's keys", () => {
    const names = ["bug", "bug-2", "bug-", "b", "matrix", "my bug", "bug-2-x"];
    const prefixes = names.map(ledgerKeyPrefix);
    expect(prefixes[0]).toMatch(/^ccrepro-ledger-[0-9a-f]{16}-$/);
    for (const [i, prefix] of prefixes.entries()) {
      const others = names.filter((_, j) => j !== i).map((name) => `${ledgerKeyPrefix(name)}123-1`);
      expect(others.filter((key) => key.startsWith(prefix)), names[i]).toEqual([]);
    }
    expect(ledgerKeyPrefix("bug")).toBe(prefixes[0]);
  });
});

describe("the ledger folder across runs and re-runs", () => {
  const versions = [...new Set(fixtureSummary().cells.map((cell) => cell.version))].sort();
  const [older, newer] = versions as [string, string];

  it("compares a first run with nothing, the next run with what the first kept, and a re-run with what its first attempt compared with", () => {
    const ledger = path.join(scratch, "ledger");
    expect(ledgerBaseline(ledger, "100")).toBeNull();
    // Run 100: no baseline; it keeps its own summary.
    const first = writeNight("run-100", nightOf(versions, "2026-11-01T04:23:00.000Z"));
    expect(keepLedger({ nightlyDir: first, ledgerDir: ledger, runId: "100", baseline: null })).toBe(fixtureSummary().cells.length);
    expect(fs.existsSync(path.join(ledger, "baseline.json"))).toBe(false);
    // Run 200 compares with run 100's summary and keeps it as its baseline.
    const baseline200 = ledgerBaseline(ledger, "200");
    expect(baseline200).toBe(path.resolve(ledger, "summary.json"));
    const second = writeNight("run-200", nightOf(versions, "2026-11-02T04:23:00.000Z", "RED"));
    keepLedger({ nightlyDir: second, ledgerDir: ledger, runId: "200", baseline: baseline200 });
    expect(readSummary(ledger).startedAt).toBe("2026-11-02T04:23:00.000Z");
    // "Re-run failed jobs" of run 200 restores the folder its first attempt saved: it compares with run 100's
    // summary, as that attempt did, not with the attempt's own (which would hold tonight's new RED).
    const rerun = ledgerBaseline(ledger, "200");
    expect(rerun).toBe(path.resolve(ledger, "baseline.json"));
    expect(readSummary(rerun!).startedAt).toBe("2026-11-01T04:23:00.000Z");
    keepLedger({ nightlyDir: second, ledgerDir: ledger, runId: "200", baseline: rerun });
    expect(readSummary(ledgerBaseline(ledger, "200")!).startedAt).toBe("2026-11-01T04:23:00.000Z");
    expect(readSummary(ledgerBaseline(ledger, "300")!).startedAt).toBe("2026-11-02T04:23:00.000Z");
  });

  it("keeps the older cells a run of other releases did not run, tonight's winning where both have one", () => {
    const nightly = nightOf(versions, "2026-11-01T04:23:00.000Z");
    const manual = nightOf([older], "2026-11-01T12:00:00.000Z", "RED");
    const merged = mergeLedger(nightly, manual);
    expect(merged.startedAt).toBe(manual.startedAt);
    expect(merged.cells.map((cell) => cell.key).sort()).toEqual(nightly.cells.map((cell) => cell.key).sort());
    for (const cell of merged.cells) expect(cell.verdict, cell.key).toBe(cell.version === older ? "RED" : nightly.cells.find((c) => c.key === cell.key)!.verdict);
    expect(merged.releases.map((r) => r.version).sort()).toEqual([older, newer]);
    expect(merged.totals.cells).toBe(merged.cells.length);
    expect(merged.totals.RED).toBe(merged.cells.filter((cell) => cell.verdict === "RED").length);
    expect(mergeLedger(null, manual)).toBe(manual);
  });

  it("refuses a run file it cannot read, saying to delete the cache entry", () => {
    const broken = path.join(scratch, "broken");
    fs.mkdirSync(broken);
    fs.writeFileSync(path.join(broken, "written-by.json"), JSON.stringify({ run: 1 }));
    expect(() => ledgerBaseline(broken, "1")).toThrow(/does not say which run wrote the ledger .*delete the ledger's cache entry/);
  });
});

describe("the release cache's key", () => {
  it("names the claude and Agent SDK releases, and is a hash past 200 characters", () => {
    expect(releasesKey({ releases: ["2.1.280", "2.1.332"], sdk: [] })).toBe("2.1.280_2.1.332");
    expect(releasesKey({ releases: ["2.1.332"], sdk: ["0.3.197"] })).toBe("2.1.332_sdk-0.3.197");
    const many = Array.from({ length: 30 }, (_, i) => `2.1.${300 + i}`);
    const key = releasesKey({ releases: many, sdk: [] });
    expect(many.join("_").length).toBeGreaterThan(200);
    expect(key).toMatch(/^sha256-[0-9a-f]{32}$/);
    expect(releasesKey({ releases: many.slice(0, -1), sdk: [] })).not.toBe(key);
    expect(releasesKey({ releases: many.slice(0, 25), sdk: [] })).toBe(many.slice(0, 25).join("_"));
  });

  it("counts the SDK release an SDK cell names, once, and none for the scenarios' own drivers", () => {
    const cell = (scenario: string, drive?: { driver: "sdk"; sdk: string }) => ({ key: scenario, scenario, params: {}, paramsLabel: "", version: "2.1.332", ...(drive ? { drive } : {}) });
    expect(sdkReleasesOf({ cells: [cell("stop-hook-loop")] })).toEqual([]);
    expect(sdkReleasesOf({ cells: [cell("stop-hook-loop"), cell("resume-orphaned-background-task", { driver: "sdk", sdk: "0.3.150" }), cell("resume-orphaned-background-task", { driver: "sdk", sdk: "0.3.150" })] })).toEqual(["0.3.150"]);
  });
});
