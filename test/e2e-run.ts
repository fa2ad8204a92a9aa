// Shared by end-to-end tests: run a registered scenario on a real release from npm, runs kept under test-output/.
import path from "node:path";
import { execa, type ResultPromise } from "execa";
import { resolveClaude } from "../releases/resolve.ts";
import { runAndCheck, type CheckedRun, type ScenarioRun } from "../pipeline/run-scenario.ts";
import { findScenario } from "../scenarios/index.ts";
import { formatCheckResult } from "../cli/format-result.ts";

export const E2E_RUNS_DIR = path.join(import.meta.dirname, "..", "test-output", "e2e-runs");

export async function runOnRelease(
  scenarioName: string,
  version: string,
  params: Record<string, unknown> = {},
  drive: Pick<ScenarioRun, "driver" | "sdk"> = {},
): Promise<CheckedRun> {
  const scenario = findScenario(scenarioName);
  if (!scenario) throw new Error(`no scenario ${scenarioName}`);
  const claude = await resolveClaude(version);
  return runAndCheck({ scenario, params: scenario.params.parse(params), claude, requested: version, runsDir: E2E_RUNS_DIR, ...drive });
}

// An end-to-end test downloads a release (≈7 s) and drives it for up to a few minutes.
export const E2E_TIMEOUT_MS = 300_000;

// The message a verdict assertion fails with: CI keeps no run directory, so what the checker saw goes into its output.
export function verdictMessage(run: CheckedRun): string {
  return formatCheckResult(run.record.result, run.runDir);
}

const CLI = path.join(import.meta.dirname, "..", "bin", "ccrepro.mjs");

// The built CLI as a user runs it (`node bin/ccrepro.mjs …`) in `cwd`, never rejecting: tests read its exit code.
export function ccreproCli(args: readonly string[], cwd: string): ResultPromise<{ cwd: string; reject: false; timeout: number }> {
  return execa(process.execPath, [CLI, ...args], { cwd, reject: false, timeout: E2E_TIMEOUT_MS });
}
