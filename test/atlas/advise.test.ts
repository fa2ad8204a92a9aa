// advise against atlases built from state tables: the newest clean release, the newest per minor line, what the
// current release carries, and the releases it cannot vouch for.
import { describe, expect, it } from "vitest";
import { advise, formatAdvice } from "../../atlas/advise.ts";
import { UserError } from "../../core/errors.ts";
import { atlasOf, entryFrom } from "./build.ts";

const VERSIONS = ["2.0.1", "2.0.2", "2.0.3", "2.0.4", "2.1.0", "2.1.1", "2.1.2", "2.1.3", "2.1.4", "2.1.5"];
const n = (v: string) => VERSIONS.indexOf(v);

// a: RED from 2.0.3 to 2.1.1, GREEN otherwise; b: RED "b1" from 2.1.4 on; c: RED (two findings) up to 2.0.2.
async function atlas() {
  return atlasOf([
    await entryFrom("a", VERSIONS, (v) => (n(v) >= 2 && n(v) <= 5 ? "RED a1" : "GREEN")),
    await entryFrom("b", VERSIONS, (v) => (n(v) >= 8 ? "RED b1" : "GREEN")),
    await entryFrom("c", VERSIONS, (v) => (n(v) <= 1 ? "RED c1 c2" : "INCONCLUSIVE")),
  ]);
}

describe("advise", () => {
  it.each([
    [["a"], "2.1.5", [["2.1", "2.1.5"], ["2.0", "2.0.2"]]],
    [["b"], "2.1.3", [["2.1", "2.1.3"], ["2.0", "2.0.4"]]],
    [["a", "b"], "2.1.3", [["2.1", "2.1.3"], ["2.0", "2.0.2"]]],
    // Every scenario by default; INCONCLUSIVE is not RED.
    [[], "2.1.3", [["2.1", "2.1.3"]]],
  ])("avoiding %j: newest %s, per minor %j", async (avoid, newest, byMinor) => {
    const advice = advise(await atlas(), { avoid });
    expect(advice.newest).toBe(newest);
    expect(advice.byMinor.map((m) => [m.line, m.newest])).toEqual(byMinor);
  });

  // Issue 45, item 7: guards do not count; only the scenarios that reproduce a reported bug are avoided by default.
  it("without --avoid, avoids only the reproductions it is told of", async () => {
    const advice = advise(await atlas(), { reproductions: ["a", "c", "not-in-the-atlas"] });
    expect(advice.avoid).toEqual(["a", "c"]);
    expect(advice.newest).toBe("2.1.5");
    expect(advise(await atlas(), { avoid: ["b"], reproductions: ["a"] }).avoid).toEqual(["b"]);
  });

  it("says what the current release carries that the advised one does not", async () => {
    const advice = advise(await atlas(), { current: "2.0.2" });
    expect(advice.newest).toBe("2.1.3");
    expect(advice.current!.carries).toEqual([{ scenario: "c", params: {}, driver: "headless", sdk: null, red: ["c1", "c2"], state: "RED c1 c2" }]);
    const onA = advise(await atlas(), { current: "2.1.4" });
    expect(onA.current!.carries.map((c) => c.scenario)).toEqual(["b"]);
    expect(formatAdvice(onA)).toContain("2.1.4 carries what 2.1.3 does not:\n  b: RED b1");
  });

  // The same parameters measured headless and through the Agent SDK are two entries: each line says which.
  it("names the driver of a row that is not headless", async () => {
    const base = await atlas();
    const b = base.entries.find((e) => e.scenario === "b")!;
    const advice = advise(atlasOf([...base.entries, { ...b, driver: "sdk", sdk: "0.3.197" }]), { current: "2.1.4" });
    expect(advice.current!.carries.map((c) => [c.scenario, c.driver])).toEqual([["b", "headless"], ["b", "sdk"]]);
    expect(formatAdvice(advice)).toContain("  b: RED b1\n  b (sdk 0.3.197): RED b1");
  });

  it("vouches only for releases every avoided scenario covers", async () => {
    const short = await entryFrom("short", VERSIONS.slice(0, 6), () => "GREEN");
    const advice = advise(atlasOf([...(await atlas()).entries, short]), { avoid: ["short", "b"] });
    expect(advice.considered).toBe(6);
    expect(advice.newest).toBe("2.1.1");
  });

  it("refuses a scenario the atlas lacks, and a current release outside it", async () => {
    expect(() => advise(atlasOf([]), { avoid: ["nope"] })).toThrow(UserError);
    await expect(atlas().then((a) => advise(a, { current: "9.9.9" }))).rejects.toThrow(/not in the atlas/);
  });
});
