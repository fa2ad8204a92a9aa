// Scenarios by name across runs, for the commands that look up many (check, nightly, reports): every built-in at
// once (scenarios/index.ts) and the file scenarios this process loaded. A run of one scenario loads its own module
// alone (scenario-source.ts).
import type { Scenario } from "../kit/scenario.ts";
import { findScenario, SCENARIOS } from "../scenarios/index.ts";
import { loadedFileScenario, loadedFileScenarios } from "./scenario-source.ts";

// A built-in, or a file scenario this process loaded.
export function scenarioByName(name: string): Scenario | undefined {
  return findScenario(name) ?? loadedFileScenario(name);
}

// Every scenario known to this process: the built-ins, then the loaded files.
export function knownScenarios(): Scenario[] {
  return [...SCENARIOS, ...loadedFileScenarios()];
}
