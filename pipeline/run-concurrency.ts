// How many runs of one scenario may go at once: a scenario that runs alone (kit `runsAlone`: another run beside it
// tips a race of claude's own) takes one; anything else takes what was asked, within the machine's cores for runs of
// one cell (`run --jobs`), whose rate is meant to be the release's and not the machine's.
import os from "node:os";
import { UserError } from "../core/errors.ts";
import type { Scenario } from "../kit/scenario.ts";

// Whether a run of the scenario must have nothing beside it (kit `runsAlone`); false for a name no scenario has.
export function runsAlone(scenario: Pick<Scenario, "runsAlone"> | undefined): boolean {
  return scenario?.runsAlone === true;
}

export function runsAtOnce(scenario: Pick<Scenario, "name" | "runsAlone">, asked: number, option: string, within: "cores" | "any" = "cores"): number {
  if (asked > 1 && runsAlone(scenario)) {
    throw new UserError(`${scenario.name} runs alone: a run beside it changes its outcome (its race depends on the machine's load), so ${option} ${asked} would measure the machine`, "CONFLICTING_OPTIONS", {
      hint: `drop ${option}; its runs go one at a time`,
    });
  }
  return within === "cores" ? withinCores(asked, option) : asked;
}

// Runs at once within the machine's cores: beyond them, claude's timing would be the machine's.
export function withinCores(asked: number, option: string): number {
  const cores = os.availableParallelism();
  if (asked > cores) {
    throw new UserError(`${option} ${asked} is more runs at once than this machine has cores (${cores}): claude's timing would be the machine's`, "CONFLICTING_OPTIONS", { hint: `use ${option} ${cores} or fewer` });
  }
  return asked;
}
