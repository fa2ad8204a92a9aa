// A scenario's "Public record" section: each release the cited report or the changelog names, beside the verdict
// ccrepro's own `known` list gives there, so a page cannot say one thing of a release and measure another.
import type { Scenario } from "../kit/scenario.ts";
import { expectationFor, scenarioLedger } from "../nightly/ledger.ts";
import { defaultParams, paramsOf } from "../kit/scenario-params.ts";

/** The heading the section starts with, on every page that has one. */
export const PUBLIC_RECORD_HEADING = "## Public record";

const SAYS = { reported: "the bug seen", works: "works", fixed: "fix released" } as const;

/** One release of the record with what ccrepro measured there, or null where no `known` entry covers it. */
export interface PublicRecordRow {
  version: string;
  says: keyof typeof SAYS;
  source: string;
  params: Record<string, unknown> | undefined;
  driver: string | undefined;
  measured: { verdict: string; finding: string | null } | null;
}

// The record's releases, each with the `known` entry that covers it: the scenario's defaults under the row's params.
export function publicRecordRows(scenario: Scenario): PublicRecordRow[] {
  const ledger = scenarioLedger().filter((entry) => entry.scenario === scenario.name);
  return (scenario.publicRecord?.releases ?? []).map((release) => {
    const expectation = expectationFor(ledger, {
      scenario: scenario.name,
      version: release.version,
      params: paramsOf(scenario, { ...defaultParams(scenario), ...release.params }, `scenario ${scenario.name}, its public record for ${release.version}`),
      ...(release.driver ? { drive: { driver: release.driver } } : {}),
    });
    return {
      version: release.version,
      says: release.says,
      source: release.source,
      params: release.params,
      driver: release.driver,
      measured: expectation.source === "default" ? null : { verdict: expectation.verdict, finding: expectation.finding },
    };
  });
}

const measuredText = (row: PublicRecordRow): string =>
  row.measured === null ? "not measured" : row.measured.finding ? `${row.measured.verdict} \`${row.measured.finding}\`` : row.measured.verdict;

const releaseText = (row: PublicRecordRow): string => {
  const how = [...Object.entries(row.params ?? {}).map(([key, value]) => `${key}=${String(value)}`), ...(row.driver ? [`--driver ${row.driver}`] : [])];
  return how.length > 0 ? `${row.version} (\`${how.join(" ")}\`)` : row.version;
};

/** The section as a page prints it, made from the scenario alone; null for a scenario without a public record. */
export function publicRecordSection(scenario: Scenario): string | null {
  const record = scenario.publicRecord;
  if (!record) return null;
  const role =
    record.role === "reproduction"
      ? "**A reproduction**: the check tests what the cited report describes, with its trigger."
      : `**A guard**, not a reproduction: ${record.guard}`;
  const rows = publicRecordRows(scenario).map((row) => `| ${releaseText(row)} | ${SAYS[row.says]} | ${row.source} | ${measuredText(row)} |`);
  return [
    PUBLIC_RECORD_HEADING,
    "",
    role,
    "",
    "| release | the record says | where | ccrepro measures there |",
    "| --- | --- | --- | --- |",
    ...rows,
    "",
    "The last column is the scenario's own `known` list (`scenarios/" + scenario.name + ".ts`); a test keeps this table equal to it.",
  ].join("\n");
}
