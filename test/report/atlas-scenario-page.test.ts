// A scenario's atlas page names what lies inside a boundary drawn across releases that judged nothing, those not run
// among them as assumed: the page says the same as `ccrepro atlas`'s output (report/wording.ts).
import { describe, expect, it } from "vitest";
import { atlasScenarioPage } from "../../report/atlas-site.ts";
import { entryFrom } from "../atlas/build.ts";
import { at, releases } from "../atlas/tables.ts";

describe("an atlas scenario page", () => {
  it("says which releases of a boundary's range judged nothing, and how many were assumed", async () => {
    const entry = await entryFrom("compact-resume", releases(40), (v) => (at(v) < 6 ? "RED a" : at(v) < 30 ? "INCONCLUSIVE" : "GREEN"), 8);
    const page = atlasScenarioPage("compact-resume", [entry], undefined, "/atlas", "/atlas/site");
    const row = /<tr class="boundary-pair">(.*?)<\/tr>/.exec(page)?.[1] ?? "";
    expect(row).toContain("1.0.5 → 1.0.30");
    expect(row).toMatch(/RED a → GREEN; a range: between them 1\.0\.6–1\.0\.29 INCONCLUSIVE \(\d+ measured: INCONCLUSIVE; \d+ assumed from them\), judged neither side/);
    expect(row).not.toContain("between unanswered");
  });
});
