// What a scenario is: data (mock script, steps, parameters, expectations) plus its pure check. No processes here.
import type { z } from "zod";
import type { CheckResult, Verdict } from "../core/verdict.ts";
import type { Recordings } from "../harness/recordings.ts";
import type { MockScriptInput } from "../mock-api/script.ts";
import type { HookCapture, Step } from "../harness/plan.ts";

export type { CommandView, HookCapture, StdinMessage, Step, StopHow, TerminalKey, TerminalView } from "../harness/plan.ts";

export interface KnownState {
  // A semver range of releases.
  versions: string;
  // Parameter values the entry was measured with; the defaults when absent.
  params?: Record<string, unknown>;
  verdict: Verdict;
  finding?: string;
  note: string;
}

export interface Scenario<P extends z.ZodType<Record<string, unknown>> = z.ZodType<Record<string, unknown>>> {
  name: string;
  summary: string;
  // The bug report this scenario reproduces (a seed file name or a link).
  source: string;
  params: P;
  mockScript(params: z.output<P>): MockScriptInput;
  hooks?: HookCapture;
  // Names of variables to pass from the caller's environment; nothing else of it reaches the binary.
  passEnv?: string[];
  // What the driver does, in order; a step's own timeout bounds every wait.
  steps(params: z.output<P>): Step[];
  // Pure: the recordings in, the verdict out. Must not report GREEN when the run did not reach its point.
  check(rec: Recordings, params: z.output<P>): CheckResult;
  // Findings that make this scenario RED are decided inside check(); this lists what is known per release.
  known: KnownState[];
  // Upper bound for the whole run, as a safety net on top of every step's own timeout.
  timeoutMs: number;
}

export function defineScenario<P extends z.ZodType<Record<string, unknown>>>(scenario: Scenario<P>): Scenario<P> {
  return scenario;
}
