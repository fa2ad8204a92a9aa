// What a scenario is: data (mock script, steps, parameters, what is known per release) plus its pure check.
import { z } from "zod";
import type { CheckResult, Verdict } from "../core/verdict.ts";
import type { HookCapture, Step } from "../harness/plan.ts";
import type { Recordings } from "../harness/recordings.ts";
import type { MockScriptInput } from "../mock-api/script.ts";
import { CAPABILITIES, type Need } from "../releases/capabilities.ts";

// A verdict a release can be known to give; ERROR is a harness failure, never a property of a release, and
// UNSUPPORTED follows from `needs`, not from a ledger.
export type KnownVerdict = Exclude<Verdict, "ERROR" | "UNSUPPORTED">;

export interface KnownState<F extends string = string> {
  // A semver range of releases.
  versions: string;
  // Parameter values the entry was measured with; the defaults when absent.
  params?: Record<string, unknown>;
  verdict: KnownVerdict;
  // One of the scenario's own finding ids.
  finding?: F;
  note: string;
}

type ParamsSchema = z.ZodType<Record<string, unknown>>;

export interface Scenario<P extends ParamsSchema = ParamsSchema, F extends string = string> {
  // Lower-case words joined by dashes; a built-in's file is named after it.
  name: string;
  summary: string;
  // The bug report this scenario reproduces: an upstream link, and in words what it found.
  source: string;
  // The upstream report's address, where there is one; reports link to it.
  link?: string;
  params: P;
  // The finding ids this scenario's check can report as RED; `known` may name only these.
  findings: readonly F[];
  mockScript(params: z.output<P>): MockScriptInput;
  hooks?: HookCapture;
  // Names of variables to pass from the caller's environment; nothing else of it reaches the binary.
  passEnv?: string[];
  // What the driver does, in order; a step's own timeout bounds every wait.
  steps(params: z.output<P>): Step[];
  // Pure: the recordings in, the verdict out. Must not report GREEN when the run did not reach its point.
  check(rec: Recordings, params: z.output<P>): CheckResult;
  // What is known per release; a nightly's ledger starts from it.
  known: KnownState<NoInfer<F>>[];
  // Upper bound for the whole run, as a safety net on top of every step's own timeout.
  timeoutMs: number;
  // What the scenario needs from a release (see `Need`): a release that lacks one gets UNSUPPORTED without a run.
  // A function when the parameters decide (SendMessage only for resumeBy=send-message). Default: DEFAULT_NEEDS.
  needs?: readonly Need[] | ((params: z.output<P>) => readonly Need[]);
}

// What a scenario that does not say needs: a headless session driven over stream-json.
export const DEFAULT_NEEDS: readonly Need[] = ["stream-json-input"];

export function scenarioNeeds<P extends ParamsSchema>(scenario: Scenario<P>, params: z.output<P>): readonly Need[] {
  const needs = scenario.needs ?? DEFAULT_NEEDS;
  return typeof needs === "function" ? needs(params) : needs;
}

// The shape a scenario object must have, for files that come from outside the type checker (a plain .mjs file).
const scenarioShape = z.object({
  name: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "use lower-case words joined by dashes, e.g. my-bug"),
  summary: z.string().min(1),
  source: z.string(),
  link: z.string().url().optional(),
  params: z.custom<ParamsSchema>((value) => value instanceof z.ZodType, "must be a zod schema, e.g. z.strictObject({})"),
  findings: z.array(z.string()),
  mockScript: z.function(),
  steps: z.function(),
  check: z.function(),
  hooks: z.object({ events: z.union([z.array(z.string()), z.literal("all")]) }).optional(),
  passEnv: z.array(z.string()).optional(),
  known: z.array(
    z.object({
      versions: z.string(),
      params: z.record(z.string(), z.unknown()).optional(),
      verdict: z.enum(["GREEN", "RED", "INCONCLUSIVE"], { error: () => "expected GREEN, RED or INCONCLUSIVE (ERROR is never known)" }),
      finding: z.string().optional(),
      note: z.string(),
    }),
  ),
  timeoutMs: z.number().int().positive(),
  needs: z.union([z.array(z.enum(CAPABILITIES).or(z.string().regex(/^hook:[A-Za-z]+$/, "a capability or hook:EventName"))), z.function()]).optional(),
});

export class ScenarioDefinitionError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
    this.name = "ScenarioDefinitionError";
  }
}

// Checks what the types cannot: the object's shape when it came from JavaScript, that `known` names only declared
// findings, and that the parameters have defaults for every field.
export function scenarioProblems(scenario: unknown): string[] {
  const shaped = scenarioShape.safeParse(scenario);
  if (!shaped.success) return shaped.error.issues.map((issue) => `${issue.path.join(".") || "(scenario)"}: ${issue.message}`);
  const s = shaped.data;
  const problems: string[] = [];
  for (const [i, known] of s.known.entries()) {
    if (known.finding !== undefined && !s.findings.includes(known.finding)) {
      problems.push(`known.${i}.finding: "${known.finding}" is not among the scenario's findings (${s.findings.join(", ") || "none"})`);
    }
  }
  if (!s.params.safeParse({}).success) problems.push("params: every parameter needs a default (the schema must accept {})");
  return problems;
}

// Typed identity for scenario files; throws at load time when the definition is wrong, naming the field.
export function defineScenario<P extends ParamsSchema, const F extends string>(scenario: Scenario<P, F>): Scenario<P, F> {
  const problems = scenarioProblems(scenario);
  if (problems.length > 0) throw new ScenarioDefinitionError(problems);
  return scenario;
}
