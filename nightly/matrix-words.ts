// A nightly matrix given as words (`nightly --scenarios … --claude …`, the GitHub Action's inputs) made into a
// nightly config: the one place that says what those words mean, so the command line and the action cannot differ.
import semver from "semver";
import { UserError } from "../core/errors.ts";
import { scenarioDrivers } from "../kit/scenario.ts";
import { scenarioByName } from "../pipeline/scenario-registry.ts";
import { DEFAULT_SDK_VERSION } from "../releases/sdk-install.ts";
import { loadScenarioFiles, parseNightlyConfig, scenarioEntries, type NightlyConfig } from "./config.ts";

// The scenario's own driver, or every cell through the Agent SDK (the config's sdkCells).
export const MATRIX_DRIVERS = ["scenario", "sdk"] as const;
export type MatrixDriver = (typeof MATRIX_DRIVERS)[number];

export interface MatrixWords {
  // Built-in names or scenario files, separated by commas or line breaks.
  scenarios: string;
  // claude version words (latest, latest-N, 2.1.280, a semver range, since:DATE, since:previous), separated the same way.
  claude: string;
  driver?: MatrixDriver;
  // The Agent SDK release of the sdk driver; ccrepro's default when absent or empty. Refused with any other driver.
  sdk?: string;
}

// Commas and line breaks separate; spaces do not, since a range such as "2.1.245 - 2.1.290" holds them.
export function splitWords(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((word) => word.trim())
    .filter(Boolean);
}

// Scenario files are relative to `baseDir` (the current folder, or the action's working directory).
export async function configFromWords(words: MatrixWords, baseDir: string): Promise<NightlyConfig> {
  const scenarios = splitWords(words.scenarios);
  const claude = splitWords(words.claude);
  if (scenarios.length === 0) throw new UserError("no scenario given: name built-ins or scenario files, separated by commas (ccrepro scenarios lists the built-ins)", "MISSING_ARGUMENT");
  if (claude.length === 0) throw new UserError('no claude release given: give version words separated by commas, e.g. "latest" or "2.1.280, latest"', "MISSING_ARGUMENT");
  const viaSdk = words.driver === "sdk";
  if (!viaSdk && words.sdk?.trim()) {
    throw new UserError(`an Agent SDK release (${words.sdk.trim()}) means something only with the sdk driver: add --driver sdk (the action's driver: sdk), or drop --sdk`, "CONFLICTING_OPTIONS");
  }
  const sdk = words.sdk?.trim() || DEFAULT_SDK_VERSION;
  // An SDK cell names one release, so that it means the same one every night.
  if (semver.valid(sdk) !== sdk) throw new UserError(`the Agent SDK release "${sdk}" is not an exact version: give one such as ${DEFAULT_SDK_VERSION}`, "BAD_ARGUMENT");
  // Concurrency is the command's (`nightly --concurrency`, the action's input), applied to any config the same way.
  const raw = {
    scenarios,
    versions: viaSdk ? [] : claude,
    ...(viaSdk ? { sdkCells: { versions: claude, sdk: [sdk] } } : {}),
  };
  const source = "the matrix given on the command line";
  const config = parseNightlyConfig(await loadScenarioFiles(raw, source, baseDir), source);
  if (viaSdk) {
    const through = scenarioEntries(config).filter((entry) => {
      const scenario = scenarioByName(entry.name);
      return scenario !== undefined && scenarioDrivers(scenario).includes("sdk");
    });
    if (through.length === 0) {
      throw new UserError(`none of ${scenarios.join(", ")} can be driven through the Agent SDK (its drivers leave sdk out); drop the sdk driver, or add a scenario that supports it`, "BAD_CONFIG");
    }
  }
  return config;
}
