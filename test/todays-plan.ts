// The planSha256 a run of a built-in makes today, for tests that reuse run records recorded before run.json kept one
// (a recorded run is reused only for the same plan: pipeline/run-match.ts).
import { planFingerprint } from "../harness/plan.ts";
import type { Driver } from "../kit/scenario.ts";
import { paramsOf } from "../kit/scenario-params.ts";
import { runPlanOf } from "../pipeline/run-plan.ts";
import { findScenario } from "../scenarios/index.ts";

export function todaysPlan(scenarioName: string, params: Record<string, unknown>, driver: Driver = "headless"): string {
  const scenario = findScenario(scenarioName);
  if (!scenario) throw new Error(`no built-in ${scenarioName}`);
  return planFingerprint(runPlanOf(scenario, paramsOf(scenario, params, "the test's record"), driver));
}
