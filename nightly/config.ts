// The nightly configuration: which scenarios, versions, repeats and expectations — validated with messages that name the field.
import path from "node:path";
import semver from "semver";
import { z } from "zod";
import { UserError } from "../core/errors.ts";
import { readJsonFile } from "../core/json-file.ts";
import { scenarioDrivers, type Driver, type Scenario } from "../kit/scenario.ts";
import { parseParams, sameParams } from "../kit/scenario-params.ts";
import { knownScenarios, scenarioByName } from "../pipeline/scenario-registry.ts";
import { loadScenario, looksLikePath } from "../pipeline/scenario-source.ts";
import { SCENARIOS } from "../scenarios/index.ts";

// Stands for `since:<the previous nightly's start>`: every release published since the previous nightly.
export const SINCE_PREVIOUS = "since:previous";

const paramsSchema = z.record(z.string(), z.unknown());

// The drivers a matrix entry may name; SDK cells are sdkCells' (their SDK release is part of the cell).
const ENTRY_DRIVERS = ["headless", "terminal"] as const;

const scenarioEntrySchema = z.union(
  [
    z.string().min(1),
    // `driver`: the cells run so (the interactive UI: a boundary measured in it), not with the scenario's own.
    z.strictObject({ name: z.string().min(1), params: paramsSchema.default({}), driver: z.enum(ENTRY_DRIVERS).optional() }),
  ],
  { error: () => 'expected a scenario name, or { "name": …, "params": { … }, "driver": "headless" | "terminal" }' },
);

// The atlas measures every scenario with its own driver (one drive for the whole atlas).
const atlasEntrySchema = z.union([z.string().min(1), z.strictObject({ name: z.string().min(1), params: paramsSchema.default({}) })], {
  error: () => 'expected a scenario name, or { "name": …, "params": { … } } (the atlas runs each scenario with its own driver)',
});

const expectationEntrySchema = z.strictObject({
  scenario: z.string().min(1),
  // A semver range of releases, e.g. ">=2.1.270 <2.1.300" for "RED until 2.1.300".
  versions: z.string().refine((range) => semver.validRange(range) !== null, { error: "expected a semver range such as >=2.1.270 <2.1.300" }),
  // Only cells whose parameters (defaults filled in) have these values; every parameter set when absent.
  params: paramsSchema.optional(),
  // ERROR is a harness failure, never something to expect.
  verdict: z.enum(["GREEN", "RED", "INCONCLUSIVE"]),
  // A finding id every run of the cell must report.
  finding: z.string().min(1).optional(),
  reason: z.string().min(1, { error: "say why this is expected" }),
  // Where it is tracked: an issue URL, a seed file.
  link: z.string().optional(),
  // The cell races: a flaky cell with `verdict` among its runs meets the entry ("RED 8/10" meets RED).
  flaky: z.boolean().optional(),
});

export const nightlyConfigSchema = z.strictObject({
  // Every registered scenario when absent.
  scenarios: z.array(scenarioEntrySchema).min(1).optional(),
  // Version words: exact versions, latest, latest-N, semver ranges, since:<date>, since:previous. Empty only when
  // sdkCells gives the matrix (every cell through the Agent SDK); parseNightlyConfig says so.
  versions: z.array(z.string().min(1)),
  repeats: z.int().min(1).max(20).default(1),
  concurrency: z.int().min(1).max(32).default(2),
  // A cell that differs from the ledger or the previous nightly is run again, up to this many runs in all, until the
  // rate rule (pipeline/rates.ts) settles it flaky, changed or unchanged; absent or 0 (as before rates) reports
  // the first runs as they are. 10 is what docs/rates.md recommends.
  confirmRuns: z.int().min(0).max(50).optional(),
  // Checked in order before the scenarios' own `known` lists; the first entry that matches a cell decides.
  expectations: z.array(expectationEntrySchema).default([]),
  // Whether the scenarios' `known` lists seed the ledger after the entries above.
  seedFromScenarios: z.boolean().default(true),
  // Sweeps to run after the matrix, each shown as a release strip in the report: a scenario over a semver range
  // or a comma list of versions.
  sweeps: z.array(z.strictObject({ scenario: z.string().min(1), versions: z.string().min(1), params: paramsSchema.default({}), repeat: z.int().min(1).max(20).default(1) })).default([]),
  // SDK cells: every scenario entry whose scenario supports the sdk driver, on these claude version words, driven
  // through each of these Agent SDK releases (exact versions, so a cell means the same release every night).
  sdkCells: z
    .strictObject({
      versions: z.array(z.string().min(1)).min(1),
      sdk: z.array(z.string().refine((v) => semver.valid(v) === v, { error: "expected an exact SDK release such as 0.3.197" })).min(1),
    })
    .optional(),
  // The atlas the nightly extends after its cells and sweeps (atlas/run-atlas.ts): each scenario over `versions`
  // (a range word resolved every night, so a release published since is in it), into `out`, a directory that
  // outlives the nightly's own (relative to the current directory). Earlier cells are kept; only what is new runs.
  atlas: z
    .strictObject({
      scenarios: z.array(atlasEntrySchema).min(1),
      versions: z.string().min(1, { error: 'expected a semver range such as ">=2.1.240" or a comma list of versions' }),
      stride: z.int().min(1).max(1000).default(8),
      repeat: z.int().min(1).max(20).default(1),
      out: z.string().min(1, { error: "expected the atlas directory, kept from one nightly to the next" }),
    })
    .optional(),
});
export type NightlyConfig = z.infer<typeof nightlyConfigSchema>;

export interface ScenarioEntry {
  name: string;
  params: Record<string, unknown>;
  // Absent: the scenario's own driver.
  driver?: (typeof ENTRY_DRIVERS)[number];
}

// `scenarios[1].params.grace`, the way the field appears in the file.
function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === "number" ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), "") || "(top level)";
}

function badConfig(source: string, field: string, message: string): UserError {
  return new UserError(`nightly config ${source}: ${field}: ${message}. Fix that field and run again.`, "BAD_CONFIG");
}

// A scenario's parameters checked against its own schema, so a misspelt key or a bad value fails here rather than
// leaving a cell unmatched later. `at` is where the params object sits in the file, e.g. ["expectations", 2, "params"].
function checkScenarioParams(source: string, scenario: Scenario, params: Record<string, unknown>, at: readonly PropertyKey[]): Record<string, unknown> {
  const parsed = parseParams(scenario, params);
  if (parsed.ok) return parsed.params;
  const problem = parsed.problems[0]!;
  if (problem.message === "unrecognized key") {
    const allowed = parsed.known.join(", ");
    throw badConfig(source, fieldPath([...at, ...problem.path]), `unrecognized key for scenario ${scenario.name}${allowed ? ` (its parameters: ${allowed})` : ""}`);
  }
  throw badConfig(source, fieldPath([...at, ...problem.path]), problem.message);
}

const entryOf = (entry: string | ScenarioEntry): ScenarioEntry =>
  typeof entry === "string" ? { name: entry, params: {} } : { name: entry.name, params: entry.params, ...(entry.driver ? { driver: entry.driver } : {}) };

export function scenarioEntries(config: NightlyConfig): ScenarioEntry[] {
  return (config.scenarios ?? SCENARIOS.map((s) => s.name)).map(entryOf);
}

// Schema first, then what the schema cannot know: scenario names, their parameters, duplicates.
export function parseNightlyConfig(raw: unknown, source: string): NightlyConfig {
  // An array (of scenarios, of versions) is the usual slip; "versions: expected array" would not say it.
  if (Array.isArray(raw) || typeof raw !== "object" || raw === null) {
    throw badConfig(source, "the top level", `is ${Array.isArray(raw) ? "an array" : JSON.stringify(raw)}; a nightly config is an object: { "scenarios": [...], "versions": [...] }`);
  }
  const parsed = nightlyConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw badConfig(source, fieldPath(issue.path), issue.message);
  }
  const config = parsed.data;
  if (config.versions.length === 0 && !config.sdkCells) throw badConfig(source, "versions", "expected at least 1 version word (or sdkCells, for a matrix driven through the Agent SDK alone)");
  const known = knownScenarios().map((s) => s.name).join(", ");
  const seen: { name: string; params: Record<string, unknown>; driver: Driver; at: number }[] = [];
  scenarioEntries(config).forEach((entry, i) => {
    const scenario = scenarioByName(entry.name);
    const at = typeof config.scenarios?.[i] === "string" ? `scenarios[${i}]` : `scenarios[${i}].name`;
    if (!scenario) throw badConfig(source, at, `unknown scenario "${entry.name}" (known: ${known})`);
    const params = checkScenarioParams(source, scenario, entry.params, ["scenarios", i, "params"]);
    const drivers = scenarioDrivers(scenario);
    if (entry.driver && !drivers.includes(entry.driver)) {
      throw badConfig(source, `scenarios[${i}].driver`, `scenario ${scenario.name} runs with ${drivers.join(" or ")}, not ${entry.driver}`);
    }
    const driver = entry.driver ?? drivers[0]!;
    const first = seen.find((earlier) => earlier.name === entry.name && earlier.driver === driver && sameParams(scenario, earlier.params, params));
    if (first !== undefined) throw badConfig(source, `scenarios[${i}]`, `repeats scenarios[${first.at}] (same scenario, parameters and driver)`);
    seen.push({ name: entry.name, params, driver, at: i });
  });
  config.expectations.forEach((entry, i) => {
    const scenario = scenarioByName(entry.scenario);
    if (!scenario) throw badConfig(source, `expectations[${i}].scenario`, `unknown scenario "${entry.scenario}" (known: ${known})`);
    // Only the values given; the cell's own fill in the rest when the ledger matches.
    if (entry.params) checkScenarioParams(source, scenario, entry.params, ["expectations", i, "params"]);
  });
  config.sweeps.forEach((entry, i) => {
    const scenario = scenarioByName(entry.scenario);
    if (!scenario) throw badConfig(source, `sweeps[${i}].scenario`, `unknown scenario "${entry.scenario}" (known: ${known})`);
    entry.params = checkScenarioParams(source, scenario, entry.params, ["sweeps", i, "params"]);
  });
  if (config.atlas) {
    atlasEntries(config.atlas).forEach((entry, i) => {
      const scenario = scenarioByName(entry.name);
      const at = typeof config.atlas!.scenarios[i] === "string" ? `atlas.scenarios[${i}]` : `atlas.scenarios[${i}].name`;
      if (!scenario) throw badConfig(source, at, `unknown scenario "${entry.name}" (known: ${known})`);
      checkScenarioParams(source, scenario, entry.params, ["atlas", "scenarios", i, "params"]);
    });
  }
  return config;
}

// The atlas's scenarios as name and parameters (as the config gave them).
export function atlasEntries(atlas: NonNullable<NightlyConfig["atlas"]>): ScenarioEntry[] {
  return atlas.scenarios.map(entryOf);
}

// Scenario entries (and expectations) given as a path, relative to the config file, are loaded and replaced by the
// scenario's name, so the matrix, the ledger and the cells name file scenarios as they name built-ins.
// `baseDir`: what the paths are relative to, when not the config file's folder (a matrix given on the command line).
export async function loadScenarioFiles(raw: unknown, source: string, baseDir = path.dirname(path.resolve(source))): Promise<unknown> {
  // Only an object has entries to load; anything else goes to parseNightlyConfig as it is, which names the slip.
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const config = raw as { scenarios?: unknown; expectations?: unknown; sweeps?: unknown };
  const named = async (word: unknown, at: string): Promise<unknown> => {
    if (typeof word !== "string" || !looksLikePath(word)) return word;
    try {
      return (await loadScenario(word, { baseDir })).name;
    } catch (error) {
      throw badConfig(source, at, (error as Error).message.replace(/\.$/, ""));
    }
  };
  const scenarios = Array.isArray(config.scenarios)
    ? await Promise.all(
        config.scenarios.map(async (entry: unknown, i) =>
          typeof entry === "object" && entry !== null && "name" in entry
            ? { ...entry, name: await named((entry as { name: unknown }).name, `scenarios[${i}].name`) }
            : named(entry, `scenarios[${i}]`),
        ),
      )
    : config.scenarios;
  // Entries of a list that name their scenario under `key`: the path in it becomes the scenario's name.
  const namedUnder = async (list: unknown, key: string, field: string) =>
    Array.isArray(list)
      ? Promise.all(
          list.map(async (entry: unknown, i) =>
            typeof entry === "object" && entry !== null && key in entry
              ? { ...entry, [key]: await named((entry as Record<string, unknown>)[key], `${field}[${i}].${key}`) }
              : entry,
          ),
        )
      : list;
  const expectations = await namedUnder(config.expectations, "scenario", "expectations");
  const sweeps = await namedUnder(config.sweeps, "scenario", "sweeps");
  return {
    ...config,
    ...(scenarios === undefined ? {} : { scenarios }),
    ...(expectations === undefined ? {} : { expectations }),
    ...(sweeps === undefined ? {} : { sweeps }),
  };
}

export async function loadNightlyConfig(file: string): Promise<NightlyConfig> {
  const raw = readJsonFile(file, "nightly config", (kind, message) =>
    new UserError(kind === "unreadable" ? `${message}; pass the path of a JSON config, or omit --config for the default` : message, "BAD_CONFIG"),
  );
  return parseNightlyConfig(await loadScenarioFiles(raw, file), file);
}
