// The plan a run of a scenario records: one builder, so a new run and the question a recorded run is matched
// against (run-match.ts) are the same plan.
import type { RunPlan } from "../harness/plan.ts";
import type { Driver, Scenario } from "../kit/scenario.ts";
import { originOf } from "./scenario-source.ts";

// `params`: parsed by the scenario's schema; `driver`: the run's (driverFor).
export function runPlanOf(scenario: Scenario, params: Record<string, unknown>, driver: Driver): RunPlan {
  return {
    scenario: scenario.name,
    params,
    script: scenario.mockScript(params),
    steps: scenario.steps(params, { driver }),
    hooks: scenario.hooks(params),
    mcpServers: scenario.mcpServers(params),
    passEnv: scenario.passEnv,
    ...(scenario.env ? { env: scenario.env } : {}),
    ...(scenario.files ? { files: scenario.files } : {}),
    permissions: scenario.permissions,
    settingSources: scenario.settingSources,
    ...(scenario.gitRepository === false ? { gitRepository: false } : {}),
    timeoutMs: scenario.timeoutMs,
    source: originOf(scenario),
    driver: sessionDriverOf(driver),
  };
}

// How "start" steps run their sessions; a terminal scenario's own steps say when they use the UI.
function sessionDriverOf(driver: Driver): "sdk" | "headless" {
  return driver === "sdk" ? "sdk" : "headless";
}
