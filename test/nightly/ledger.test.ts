// The expectations ledger: config entries first, then the scenarios' known lists (default parameters only), else GREEN.
import { describe, expect, it } from "vitest";
import { finding, type Finding } from "../../core/verdict.ts";
import { parseNightlyConfig } from "../../nightly/config.ts";
import { buildLedger, DEFAULT_EXPECTATION, expectationFor, meetsExpectation, scenarioLedger } from "../../nightly/ledger.ts";

const HEADER = "subagent-resume-notification-header";
const ORPHAN = "resume-orphaned-background-task";

function ledger(expectations: unknown[] = [], seedFromScenarios = true) {
  return buildLedger(parseNightlyConfig({ versions: ["latest"], expectations, seedFromScenarios }, "test.json"));
}

const red = (id: string): Finding => finding({ id, red: true, title: id, where: "here" });

describe("expectationFor", () => {
  it("takes the scenarios' known lists as the seed", () => {
    const l = ledger();
    expect(expectationFor(l, { scenario: HEADER, version: "2.1.281", params: {} })).toMatchObject({ verdict: "RED", finding: "notification-changed", source: "scenario", versions: ">=2.1.259 <=2.1.283" });
    expect(expectationFor(l, { scenario: HEADER, version: "2.1.250", params: {} })).toMatchObject({ verdict: "RED", finding: "notification-dropped" });
    expect(expectationFor(l, { scenario: HEADER, version: "2.1.332", params: {} })).toMatchObject({ verdict: "GREEN", source: "scenario" });
    // The seed's link is the scenario's source.
    expect(expectationFor(l, { scenario: HEADER, version: "2.1.332", params: {} }).link).toMatch(/issues\/94728/);
  });

  it("applies a known list only to the scenario's default parameters", () => {
    const l = ledger();
    expect(expectationFor(l, { scenario: HEADER, version: "2.1.281", params: { resumes: 1 } }).source).toBe("scenario");
    expect(expectationFor(l, { scenario: HEADER, version: "2.1.281", params: { resumes: 2 } })).toEqual(DEFAULT_EXPECTATION);
  });

  it("lets config entries win over the seeds, in order, matching parameters by value", () => {
    const l = ledger([
      { scenario: HEADER, versions: "2.1.281", params: { resumes: "1" }, verdict: "INCONCLUSIVE", reason: "first" },
      { scenario: HEADER, versions: "*", verdict: "RED", reason: "second", link: "https://example.invalid/1" },
    ]);
    expect(expectationFor(l, { scenario: HEADER, version: "2.1.281", params: { resumes: 1 } })).toMatchObject({ verdict: "INCONCLUSIVE", reason: "first", source: "config" });
    expect(expectationFor(l, { scenario: HEADER, version: "2.1.281", params: { resumes: 2 } })).toMatchObject({ reason: "second", link: "https://example.invalid/1" });
  });

  it("matches an entry's parameters against the cell's with defaults filled in", () => {
    const l = ledger([{ scenario: ORPHAN, versions: ">=2.1.300", params: { stop: "sigkill" }, verdict: "RED", reason: "r" }], false);
    expect(expectationFor(l, { scenario: ORPHAN, version: "2.1.332", params: { grace: 1000 } }).reason).toBe("r");
    expect(expectationFor(l, { scenario: ORPHAN, version: "2.1.332", params: { stop: "sigterm" } })).toEqual(DEFAULT_EXPECTATION);
    expect(expectationFor(l, { scenario: ORPHAN, version: "2.1.281", params: {} })).toEqual(DEFAULT_EXPECTATION);
  });

  it("expects GREEN where nothing matches, and drops the seeds when asked", () => {
    expect(expectationFor(ledger([], false), { scenario: HEADER, version: "2.1.281", params: {} })).toEqual(DEFAULT_EXPECTATION);
  });
});

describe("meetsExpectation", () => {
  const expectRed = { ...DEFAULT_EXPECTATION, verdict: "RED" as const, finding: "a" };
  it("needs the verdict, and the named finding in every run", () => {
    expect(meetsExpectation(expectRed, "RED", [{ findings: [red("a")] }, { findings: [red("b"), red("a")] }])).toBe(true);
    expect(meetsExpectation(expectRed, "RED", [{ findings: [red("a")] }, { findings: [red("b")] }])).toBe(false);
    expect(meetsExpectation(expectRed, "GREEN", [{ findings: [] }])).toBe(false);
    expect(meetsExpectation(DEFAULT_EXPECTATION, "GREEN", [{ findings: [] }])).toBe(true);
    expect(meetsExpectation(DEFAULT_EXPECTATION, "INCONCLUSIVE", [{ findings: [] }])).toBe(false);
  });
});

describe("scenarioLedger", () => {
  it("applies a known entry only to the parameters it was measured with", () => {
    const l = ledger([]);
    expect(expectationFor(l, { scenario: ORPHAN, version: "2.1.332", params: {} }).verdict).toBe("RED");
    expect(expectationFor(l, { scenario: ORPHAN, version: "2.1.332", params: { background: "false" } }).verdict).toBe("GREEN");
    expect(expectationFor(l, { scenario: ORPHAN, version: "2.1.332", params: { background: false } }).source).toBe("scenario");
  });
});

describe("driver-specific known entries", () => {
  it("apply to the cells of that driver only; a cell without a drive has its scenario's default driver", () => {
    const ledger = scenarioLedger();
    const cell = { scenario: "resume-orphaned-background-task", version: "2.1.332", params: {} };
    expect(expectationFor(ledger, { ...cell, drive: { driver: "sdk" } }).reason).toMatch(/through Agent SDK 0\.3\.197/);
    expect(expectationFor(ledger, cell).reason).toMatch(/after a SIGKILL stop/);
  });
});
