// A release table never says more than its runs: every release the checked-in atlas measured (answered, not flaky)
// that a scenario's `known` list covers must have the verdict that entry says, and its RED finding where it names one.
// The atlas's runs are checked in as proofs where they bound something; the cells themselves are runs of today's
// releases, so a table whose range reaches past what was measured shows up here.
import { describe, expect, it } from "vitest";
import { CHECKED_IN_ATLAS, readAtlasFile } from "../../atlas/atlas-file.ts";
import { expectationFor, meetsExpectation, scenarioLedger } from "../../nightly/ledger.ts";

describe("the scenarios' known lists and the checked-in atlas", () => {
  it("agree on every release both cover", () => {
    const ledger = scenarioLedger();
    const atlas = readAtlasFile(CHECKED_IN_ATLAS);
    let compared = 0;
    const disagreements = atlas.entries.flatMap((entry) =>
      entry.cells.flatMap((cell) => {
        // INCONCLUSIVE cells too: a row that says GREEN or RED where the atlas measured no answer says more than its runs.
        if (cell.flaky || (cell.verdict !== "GREEN" && cell.verdict !== "RED" && cell.verdict !== "INCONCLUSIVE")) return [];
        const expected = expectationFor(ledger, { scenario: entry.scenario, version: cell.version, params: entry.params, drive: { driver: entry.driver } });
        if (expected.source !== "scenario") return [];
        compared += 1;
        // The atlas keeps each run's red findings only: a GREEN entry's finding (a note such as incomplete-notice-missing)
        // is not there to compare.
        const comparable = expected.verdict === "RED" ? expected : { ...expected, finding: null };
        const agrees = meetsExpectation(comparable, cell.verdict, cell.runs.map((run) => ({ findings: run.red.map((id) => ({ id })) })));
        return agrees ? [] : [`${entry.scenario} ${JSON.stringify(entry.params)} ${cell.version}: the atlas measured ${cell.label}${cell.red.length ? ` ${cell.red.join(" ")}` : ""}, its known entry for ${expected.versions} says ${expected.verdict}${expected.finding ? ` ${expected.finding}` : ""}`];
      }),
    );
    expect(disagreements).toEqual([]);
    expect(compared).toBeGreaterThan(100);
  });
});
