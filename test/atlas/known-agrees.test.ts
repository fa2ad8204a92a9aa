// A release table never says more than its runs: every release the checked-in atlas measured (judged, not flaky)
// that a scenario's `known` list covers must have the verdict that entry says, and its RED finding where it names one.
// The atlas's runs are checked in as proofs where they bound something; the cells themselves are runs of today's
// releases, so a table whose range reaches past what was measured shows up here.
import { describe, expect, it } from "vitest";
import { CHECKED_IN_ATLAS, readAtlasFile } from "../../atlas/atlas-file.ts";
import { expectationFor, scenarioLedger } from "../../nightly/ledger.ts";

describe("the scenarios' known lists and the checked-in atlas", () => {
  it("agree on every release both cover", () => {
    const ledger = scenarioLedger();
    const atlas = readAtlasFile(CHECKED_IN_ATLAS);
    let compared = 0;
    const disagreements = atlas.entries.flatMap((entry) =>
      entry.cells.flatMap((cell) => {
        if (cell.flaky || (cell.verdict !== "GREEN" && cell.verdict !== "RED")) return [];
        const expected = expectationFor(ledger, { scenario: entry.scenario, version: cell.version, params: entry.params, drive: { driver: entry.driver } });
        if (expected.source !== "scenario") return [];
        compared += 1;
        const agrees = cell.verdict === expected.verdict && (cell.verdict !== "RED" || expected.finding === null || cell.red.includes(expected.finding));
        return agrees ? [] : [`${entry.scenario} ${JSON.stringify(entry.params)} ${cell.version}: the atlas measured ${cell.label}${cell.red.length ? ` ${cell.red.join(" ")}` : ""}, its known entry for ${expected.versions} says ${expected.verdict}${expected.finding ? ` ${expected.finding}` : ""}`];
      }),
    );
    expect(disagreements).toEqual([]);
    expect(compared).toBeGreaterThan(100);
  });
});
