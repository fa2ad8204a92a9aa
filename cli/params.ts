// `--param key=value` words, validated against a scenario's parameter schema with messages that list what is allowed.
import { Option, type Command } from "commander";
import { UserError } from "../core/errors.ts";
import type { Scenario } from "../kit/scenario.ts";
import { paramsOf } from "../kit/scenario-params.ts";
import { DEFAULT_SDK_VERSION } from "../releases/sdk-install.ts";

export function collectParam(word: string, previous: Record<string, string>): Record<string, string> {
  const at = word.indexOf("=");
  if (at <= 0) throw new UserError(`--param takes key=value, got "${word}"`, "BAD_PARAM");
  return { ...previous, [word.slice(0, at)]: word.slice(at + 1) };
}

export function parseScenarioParams(scenario: Scenario, raw: Record<string, unknown>): Record<string, unknown> {
  return paramsOf(scenario, raw, `scenario ${scenario.name}`);
}

// The options every command that runs a scenario shares: its parameters, and where its run directories go.
export function withRunOptions(command: Command): Command {
  return command
    .option("--param <key=value>", "a scenario parameter (repeatable)", collectParam, {})
    .option("--runs-dir <dir>", "where run directories go", "runs")
    .addOption(new Option("--driver <driver>", "drive claude as `-p` stream-json, through the Agent SDK, or in the interactive UI (default: the scenario's own)").choices(["headless", "sdk", "terminal"]))
    .option("--sdk <version>", `the Agent SDK release the sdk driver uses: a version or latest (default ${DEFAULT_SDK_VERSION})`);
}

// The driver and SDK options as runAndCheck takes them; --sdk without --driver sdk is a mistake worth saying.
export function driverOptions<D extends "headless" | "sdk" | "terminal">(options: { driver?: D; sdk?: string }): { driver?: D; sdk?: string } {
  if (options.sdk !== undefined && options.driver !== "sdk") throw new UserError("--sdk only applies to --driver sdk; add --driver sdk", "CONFLICTING_OPTIONS");
  return { driver: options.driver, sdk: options.sdk };
}
