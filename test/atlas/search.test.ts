// The atlas's search against tables of states: which releases it measures, the boundaries and intervals it concludes,
// what it assumes and what --verify catches. The tables stand in for releases; no claude runs here.
import { describe, expect, it } from "vitest";
import { boundariesOf, intervalsOf, nextProbe, samplesOf, verifyPicks } from "../../atlas/search.ts";
import { unjudgedRange } from "../../report/wording.ts";
import { at, cellFrom, RANGE, releases, searchTable, sweptState } from "./tables.ts";

const pairs = (result: { cells: Map<string, ReturnType<typeof cellFrom>> }, versions: readonly string[]) =>
  boundariesOf(versions, result.cells).map((b) => `${b.before}→${b.after}${b.between.length ? ` (${b.between.join(",")} between)` : ""}`);

describe("samples", () => {
  it.each([
    [10, 3, ["1.0.0", "1.0.3", "1.0.6", "1.0.9"]],
    [10, 4, ["1.0.0", "1.0.4", "1.0.8", "1.0.9"]],
    [1, 8, ["1.0.0"]],
    [3, 1, ["1.0.0", "1.0.1", "1.0.2"]],
  ])("%i releases, stride %i: every stride-th and the newest", (n, stride, expected) => {
    expect(samplesOf(releases(n), stride)).toEqual(expected);
  });
});

describe("the search", () => {
  it("finds the full sweep's two boundaries on 2.1.245–2.1.290 in 12 runs (stride 8)", async () => {
    expect(RANGE).toHaveLength(38);
    const { result, probes } = await searchTable(RANGE, sweptState);
    expect(pairs(result, RANGE)).toEqual(["2.1.258→2.1.259", "2.1.283→2.1.284"]);
    expect(probes.filter((p) => p.why === "sample").map((p) => p.version)).toEqual(["2.1.245", "2.1.258", "2.1.268", "2.1.276", "2.1.285", "2.1.290"]);
    expect(probes).toHaveLength(12);
    expect(result.interrupted).toBe(false);
  });

  it.each([
    // [stride, runs]: the issue's bound is 14; stride 4 samples too densely (10 samples) and needs 15.
    [4, 15],
    [5, 14],
    [6, 13],
    [8, 12],
    [10, 11],
    [16, 12],
    [37, 13],
  ])("stride %i on that range: %i runs, the same boundaries", async (stride, runs) => {
    const { result, probes } = await searchTable(RANGE, sweptState, { stride });
    expect(pairs(result, RANGE)).toEqual(["2.1.258→2.1.259", "2.1.283→2.1.284"]);
    expect(probes.length).toBe(runs);
  });

  it.each([
    ["one state throughout: the samples alone", () => "GREEN", 33, []],
    ["one boundary", (v: string) => (at(v) < 13 ? "GREEN" : "RED f"), 33, ["1.0.12→1.0.13"]],
    ["two boundaries inside one stride gap: both found", (v: string) => (at(v) < 11 ? "RED a" : at(v) < 14 ? "RED b" : "GREEN"), 33, ["1.0.10→1.0.11", "1.0.13→1.0.14"]],
    ["a finding changes, the verdict does not", (v: string) => (at(v) < 20 ? "RED a" : "RED b"), 33, ["1.0.19→1.0.20"]],
    ["a flaky release is a state of its own", (v: string) => (at(v) === 5 ? "FLAKY" : at(v) < 5 ? "GREEN" : "RED x"), 33, ["1.0.4→1.0.5", "1.0.5→1.0.6"]],
  ])("%s", async (_name, table, n, expected) => {
    const versions = releases(n);
    const { result } = await searchTable(versions, table);
    expect(pairs(result, versions)).toEqual(expected);
    // Every boundary is an adjacent pair of releases.
    for (const b of boundariesOf(versions, result.cells)) expect(versions.indexOf(b.after) - versions.indexOf(b.before)).toBe(1);
  });

  it("never takes an unjudged release for a side: INCONCLUSIVE between RED and GREEN makes one boundary, a range naming each (issue 42, item 2)", async () => {
    const versions = releases(33);
    const { result } = await searchTable(versions, (v) => (at(v) < 11 ? "RED a" : at(v) < 14 ? "INCONCLUSIVE" : "GREEN"));
    const [only, ...more] = boundariesOf(versions, result.cells);
    expect(more).toEqual([]);
    expect(only).toMatchObject({ before: "1.0.10", after: "1.0.14", between: [] });
    expect(only!.unjudged.map((u) => [u.version, u.verdict])).toEqual([["1.0.11", "INCONCLUSIVE"], ["1.0.12", "INCONCLUSIVE"], ["1.0.13", "INCONCLUSIVE"]]);
  });

  it("a long unjudged stretch between RED and GREEN is not run through: its releases are named, those not run as assumed", async () => {
    // As compact-resume measured 1.0.x: RED to 1.0.63, INCONCLUSIVE 1.0.64–1.0.127, GREEN from 1.0.128 (stride 8).
    const versions = releases(40);
    const { result, measured } = await searchTable(versions, (v) => (at(v) < 6 ? "RED a" : at(v) < 30 ? "INCONCLUSIVE" : "GREEN"));
    expect(measured.length).toBeLessThan(20);
    const [only, ...more] = boundariesOf(versions, result.cells);
    expect(more).toEqual([]);
    expect(only).toMatchObject({ before: "1.0.5", after: "1.0.30", between: [] });
    expect(only!.unjudged.map((u) => u.version)).toEqual(versions.slice(6, 30));
    const assumed = only!.unjudged.filter((u) => u.assumed);
    expect(assumed.map((u) => u.version)).toEqual(versions.slice(6, 30).filter((v) => !measured.includes(v)));
    expect(assumed.length).toBeGreaterThan(0);
    expect(only!.unjudged.every((u) => u.verdict === "INCONCLUSIVE")).toBe(true);
    expect(assumed[0]!.reason).toMatch(/^not run: 1\.0\.\d+ and 1\.0\.\d+ around it are both INCONCLUSIVE$/);
    expect(unjudgedRange(only!.unjudged)).toBe(`a range: between them 1.0.6–1.0.29 INCONCLUSIVE (${24 - assumed.length} measured: INCONCLUSIVE; ${assumed.length} assumed from them), judged neither side`);
  });

  it("a stretch between RED and GREEN that is unknown (an ERROR between an unjudged release and a side) stays between", async () => {
    const versions = releases(17);
    const { result } = await searchTable(versions, (v) => (at(v) < 4 ? "RED a" : at(v) === 4 ? "ERROR" : at(v) < 8 ? "INCONCLUSIVE" : "GREEN"));
    const [only] = boundariesOf(versions, result.cells);
    expect(only).toMatchObject({ before: "1.0.3", after: "1.0.8", between: ["1.0.4"] });
    expect(only!.unjudged.map((u) => [u.version, u.assumed ?? false])).toEqual([["1.0.5", false], ["1.0.6", false], ["1.0.7", false]]);
  });

  it("bisects at most ⌈log2(gap)⌉ times inside a stride gap", async () => {
    const versions = releases(33);
    for (let t = 1; t < 33; t += 1) {
      const { probes } = await searchTable(versions, (v) => (at(v) < t ? "GREEN" : "RED"));
      expect(probes.filter((p) => p.why === "bisect").length, `boundary before 1.0.${t}`).toBeLessThanOrEqual(3);
    }
  });

  it("an ERROR release answers nothing: the search goes round it, and a boundary it hides says so", async () => {
    const versions = releases(17);
    const { result, measured } = await searchTable(versions, (v) => (at(v) === 4 ? "ERROR" : at(v) < 5 ? "GREEN" : "RED"));
    expect(measured).toContain("1.0.4");
    expect(pairs(result, versions)).toEqual(["1.0.3→1.0.5 (1.0.4 between)"]);
    expect(intervalsOf(versions, result.cells).map((i) => `${i.first}-${i.last} ${i.state}`)).toEqual(["1.0.0-1.0.3 GREEN", "1.0.4-1.0.4 unknown", "1.0.5-1.0.16 RED"]);
  });

  it("assumes the inside of an agreeing gap: an island there is missed, and --verify finds it when it draws it", async () => {
    const versions = releases(17);
    const island = (v: string) => (at(v) === 3 ? "RED" : "GREEN");
    const plain = await searchTable(versions, island);
    expect(pairs(plain.result, versions)).toEqual([]);
    const interval = intervalsOf(versions, plain.result.cells)[0]!;
    expect(interval.assumed).toContain("1.0.3");
    // A draw that lands on 1.0.3 first (the pool is the 14 assumed releases in order; 1.0.3 is the third).
    const verified = await searchTable(versions, island, { verify: 1, random: () => 2.5 / 14 });
    expect(verified.result.disagreed).toEqual(["1.0.3"]);
    expect(pairs(verified.result, versions)).toEqual(["1.0.2→1.0.3", "1.0.3→1.0.4"]);
  });

  it("a verify pick that ends in ERROR answers nothing, so it disagrees with nothing; nor does an earlier one left without an answer", async () => {
    const versions = releases(17);
    const verified = await searchTable(versions, (v) => (at(v) === 3 ? "ERROR" : "GREEN"), { verify: 1, random: () => 2.5 / 14 });
    expect(verified.probes.filter((p) => p.why === "verify").map((p) => p.version)).toEqual(["1.0.3"]);
    expect(verified.result.disagreed).toEqual([]);
    const resumed = await searchTable(versions, () => "GREEN", { cells: [...verified.result.cells.values()], disagreed: ["1.0.3"] });
    expect(resumed.result.disagreed).toEqual([]);
  });

  it("verify picks only assumed releases, never one measured or in an unknown gap", () => {
    const versions = releases(9);
    const cells = new Map(
      [cellFrom("1.0.0", "GREEN", "sample"), cellFrom("1.0.4", "GREEN", "sample"), cellFrom("1.0.8", "RED", "sample")].map((c) => [c.version, c]),
    );
    const picks = verifyPicks(versions, cells, new Set(cells.keys()), 10, () => 0);
    expect(picks).toEqual(["1.0.1", "1.0.2", "1.0.3"]);
    expect(nextProbe(versions, cells, new Set(cells.keys()), 4)).toEqual({ version: "1.0.6", why: "bisect" });
  });

  it("resumes: cells already measured are not measured again; ERROR ones are", async () => {
    const versions = releases(17);
    const table = (v: string) => (at(v) < 9 ? "GREEN" : "RED");
    const first = await searchTable(versions, table, { stopAfter: 3 });
    expect(first.result.interrupted).toBe(true);
    expect(first.measured).toEqual(["1.0.0", "1.0.8", "1.0.16"]);
    const earlier = [...first.result.cells.values(), cellFrom("1.0.12", "ERROR", "bisect")];
    const second = await searchTable(versions, table, { cells: earlier });
    expect(second.measured.filter((v) => first.measured.includes(v))).toEqual([]);
    expect(pairs(second.result, versions)).toEqual(["1.0.8→1.0.9"]);
    expect(second.result.interrupted).toBe(false);
  });
});

describe("a range that grows", () => {
  it("samples every stride-th release of a fresh range, as samplesOf says", async () => {
    for (const [n, stride] of [[38, 8], [17, 4], [10, 3], [9, 9]] as const) {
      const versions = releases(n);
      const { probes } = await searchTable(versions, () => "GREEN", { stride });
      expect(probes.map((p) => p.version)).toEqual(samplesOf(versions, stride));
    }
  });

  it.each([
    ["a new release like its predecessor: one run", (v: string) => (at(v) < 9 ? "GREEN" : "RED"), ["1.0.18"], ["1.0.8→1.0.9"]],
    ["a new release that differs: it and the bisection of its gap", (v: string) => (at(v) < 9 ? "GREEN" : at(v) < 18 ? "RED" : "GREEN"), ["1.0.18", "1.0.17"], ["1.0.8→1.0.9", "1.0.17→1.0.18"]],
  ])("%s", async (_name, table, measured, boundaries) => {
    const before = releases(17);
    const first = await searchTable(before, table, { stride: 8 });
    const grown = releases(19);
    const second = await searchTable(grown, table, { stride: 8, cells: [...first.result.cells.values()] });
    expect(second.measured).toEqual(measured);
    expect(pairs(second.result, grown)).toEqual(boundaries);
  });

  it("a range widened by more than a stride is sampled across the new stretch only", async () => {
    const first = await searchTable(releases(9), () => "GREEN", { stride: 4 });
    expect(first.measured).toEqual(["1.0.0", "1.0.4", "1.0.8"]);
    const second = await searchTable(releases(20), () => "GREEN", { stride: 4, cells: [...first.result.cells.values()] });
    expect(second.measured).toEqual(["1.0.12", "1.0.16", "1.0.19"]);
  });
});
