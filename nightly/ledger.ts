// The expectations ledger: which verdict (and finding) each cell should have, why, and where that is tracked.
import semver from "semver";
import { z } from "zod";
import type { CheckResult, Finding } from "../core/verdict.ts";
import { defaultParams, paramsOf, sameParams } from "../kit/scenario-params.ts";
import { knownScenarios, scenarioByName } from "../pipeline/scenario-registry.ts";
import type { NightlyConfig } from "./config.ts";
import { scenarioDrivers } from "../kit/scenario.ts";

export const expectationSchema = z.object({
  verdict: z.enum(["GREEN", "RED", "INCONCLUSIVE"]),
  finding: z.string().nullable(),
  reason: z.string(),
  link: z.string().nullable(),
  // The range the entry covers; null for the default expectation.
  versions: z.string().nullable(),
  // config: the nightly config's expectations; scenario: a scenario's `known` list; previous: the previous nightly's
  // cell, where neither says anything (cell-outcome.ts); default: nothing matched.
  source: z.enum(["config", "scenario", "previous", "default"]),
  // The cell is known to race: a flaky cell with `verdict` among its runs meets it.
  flaky: z.boolean().optional(),
});
export type Expectation = z.infer<typeof expectationSchema>;

export interface LedgerEntry {
  scenario: string;
  versions: string;
  // Parameter values a cell must have for the entry to apply; null = any.
  params: Record<string, unknown> | null;
  // The driver a cell must run with (its own default when it has no drive); null = any.
  driver?: string | null;
  expectation: Expectation;
}

// A scenario that reproduces a bug is expected to pass once the bug is gone, so no entry means GREEN.
export const DEFAULT_EXPECTATION: Expectation = {
  verdict: "GREEN",
  finding: null,
  reason: "no ledger entry covers this cell",
  link: null,
  versions: null,
  source: "default",
};

export function buildLedger(config: NightlyConfig): LedgerEntry[] {
  const entries: LedgerEntry[] = config.expectations.map((e) => ({
    scenario: e.scenario,
    versions: e.versions,
    params: e.params ?? null,
    expectation: { verdict: e.verdict, finding: e.finding ?? null, reason: e.reason, link: e.link ?? null, versions: e.versions, source: "config", ...(e.flaky ? { flaky: true } : {}) },
  }));
  return config.seedFromScenarios ? [...entries, ...scenarioLedger()] : entries;
}

// The scenarios' own `known` lists: each entry covers the parameters it was measured with (the defaults, unless it says).
export function scenarioLedger(): LedgerEntry[] {
  return knownScenarios().flatMap((scenario) => {
    const defaults = defaultParams(scenario);
    return scenario.known.map(
      (known): LedgerEntry => ({
        scenario: scenario.name,
        versions: known.versions,
        params: paramsOf(scenario, { ...defaults, ...known.params }, `scenario ${scenario.name}, its known entry for ${known.versions}`),
        driver: known.driver ?? null,
        expectation: {
          verdict: known.verdict,
          finding: known.finding ?? null,
          reason: known.note,
          link: scenario.link ?? null,
          versions: known.versions,
          source: "scenario",
        },
      }),
    );
  });
}

// Entry values go through the scenario's schema with the cell's own, so "1000" and 1000 name the same value.
function paramsMatch(scenarioName: string, wanted: Record<string, unknown> | null, cellParams: Record<string, unknown>): boolean {
  if (wanted === null) return true;
  const scenario = scenarioByName(scenarioName);
  if (!scenario) return false;
  return sameParams(scenario, cellParams, { ...cellParams, ...wanted });
}

// A cell without a drive runs with its scenario's default driver.
function driverMatches(scenarioName: string, wanted: string | null | undefined, drive: { driver: string } | undefined): boolean {
  if (wanted === null || wanted === undefined) return true;
  const scenario = scenarioByName(scenarioName);
  return (drive?.driver ?? (scenario ? scenarioDrivers(scenario)[0] : undefined)) === wanted;
}

export function expectationFor(
  ledger: readonly LedgerEntry[],
  cell: { scenario: string; version: string; params: Record<string, unknown>; drive?: { driver: string } },
): Expectation {
  const entry = ledger.find(
    (e) =>
      e.scenario === cell.scenario &&
      semver.satisfies(cell.version, e.versions) &&
      paramsMatch(e.scenario, e.params, cell.params) &&
      driverMatches(e.scenario, e.driver, cell.drive),
  );
  return entry?.expectation ?? DEFAULT_EXPECTATION;
}

// The verdict matches, and when the entry names a finding, every run reported it.
export function meetsExpectation(expectation: Expectation, verdict: CheckResult["verdict"], runs: readonly { findings: readonly Pick<Finding, "id">[] }[]): boolean {
  if (verdict !== expectation.verdict) return false;
  const finding = expectation.finding;
  return finding === null || runs.every((run) => run.findings.some((f) => f.id === finding));
}
