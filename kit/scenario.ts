// What a scenario is: data (mock script, steps, parameters, what is known per release) plus its pure check.
import { z } from "zod";
import type { CheckResult, Verdict } from "../core/verdict.ts";
import type { HookCapture, Step } from "../harness/plan.ts";
import type { Recordings } from "../harness/recordings.ts";
import type { MockScriptInput } from "../mock-api/script.ts";
import { API_FINDINGS, type ApiFindingId } from "../checker/api-conformance.ts";
import { CAPABILITIES, type Need } from "../releases/capabilities.ts";

/**
 * A verdict a release can be known to give; ERROR is a harness failure, never a property of a release, and
 * UNSUPPORTED follows from `needs`, not from a ledger.
 */
export type KnownVerdict = Exclude<Verdict, "ERROR" | "UNSUPPORTED">;

export interface KnownState<F extends string = string> {
  /** A semver range of releases. */
  versions: string;
  /** Parameter values the entry was measured with; the defaults when absent. */
  params?: Record<string, unknown>;
  /** The verdict the range gives: GREEN, RED or INCONCLUSIVE (ERROR is never a property of a release). */
  verdict: KnownVerdict;
  /** One of the scenario's own finding ids. */
  finding?: F;
  /** What was seen, in words; reports and the nightly ledger show it. */
  note: string;
  // The driver the entry was measured with; every driver when absent.
  driver?: Driver;
}

type ParamsSchema = z.ZodType<Record<string, unknown>>;

// How the run drives claude: `-p` stream-json (headless), the Agent SDK's query() in a child process (sdk), or the
// interactive UI in a pseudo-terminal (terminal).
export const DRIVERS = ["headless", "sdk", "terminal"] as const;
export type Driver = (typeof DRIVERS)[number];

// What a scenario's steps may depend on besides its parameters.
export interface StepContext {
  driver: Driver;
}

export interface Scenario<P extends ParamsSchema = ParamsSchema, F extends string = string> {
  /** Lower-case words joined by dashes; a built-in's file is named after it. */
  name: string;
  /** One sentence: the behaviour that should hold (GREEN) and that the bug breaks. */
  summary: string;
  /** The bug report this scenario reproduces: an upstream link, and in words what it found. */
  source: string;
  /** The upstream report's address, where there is one; reports link to it. */
  link?: string;
  /** The parameters, as a zod schema that accepts `{}` (every field has a default); `--param key=value` sets them. */
  params: P;
  /**
   * The finding ids this scenario's check can report as RED (and informational ones `known` names); `known` may name
   * only these and API_FINDINGS, which the pipeline adds to every scenario's result.
   */
  findings: readonly F[];
  /** What the fake Messages API answers: usually `conversation({ main: { marker, replies: [...] } })`. */
  mockScript(params: z.output<P>): MockScriptInput;
  /** Hook events to register and record (payloads byte-exact): a list of names, or "all" the release knows. */
  hooks?: HookCapture;
  /** Names of variables to pass from the caller's environment; nothing else of it reaches the binary. */
  passEnv?: string[];
  /**
   * What the driver does, in order; a step's own timeout bounds every wait. `context` is absent where steps are read
   * without a run (tests, the driver derivation): headless is meant.
   */
  steps(params: z.output<P>, context?: StepContext): Step[];
  /**
   * The drivers this scenario's steps are written for, the first being the default; when absent, derived by
   * scenarioDrivers() from the steps (a terminal step: ["terminal"], else ["headless"]).
   */
  drivers?: readonly Driver[];
  /** Pure: the recordings in, the verdict out. Must not report GREEN when the run did not reach its point. */
  check(rec: Recordings, params: z.output<P>): CheckResult;
  /** What is known per release; a nightly's ledger starts from it. */
  known: KnownState<NoInfer<F> | ApiFindingId>[];
  /** Upper bound for the whole run, as a safety net on top of every step's own timeout. */
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
  drivers: z.array(z.enum(DRIVERS)).min(1).optional(),
  known: z.array(
    z.object({
      versions: z.string(),
      params: z.record(z.string(), z.unknown()).optional(),
      verdict: z.enum(["GREEN", "RED", "INCONCLUSIVE"], { error: () => "expected GREEN, RED or INCONCLUSIVE (ERROR is never known)" }),
      finding: z.string().optional(),
      note: z.string(),
      driver: z.enum(DRIVERS).optional(),
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

/**
 * Checks what the types cannot: the object's shape when it came from JavaScript, that `known` names only declared
 * findings, and that the parameters have defaults for every field.
 */
export function scenarioProblems(scenario: unknown): string[] {
  const shaped = scenarioShape.safeParse(scenario);
  if (!shaped.success) return shaped.error.issues.map((issue) => `${issue.path.join(".") || "(scenario)"}: ${issue.message}`);
  const s = shaped.data;
  const problems: string[] = [];
  for (const [i, known] of s.known.entries()) {
    if (known.finding !== undefined && !s.findings.includes(known.finding) && !(API_FINDINGS as readonly string[]).includes(known.finding)) {
      problems.push(`known.${i}.finding: "${known.finding}" is not among the scenario's findings (${s.findings.join(", ") || "none"})`);
    }
  }
  if (!s.params.safeParse({}).success) problems.push("params: every parameter needs a default (the schema must accept {})");
  return problems;
}

/** Typed identity for scenario files; throws at load time when the definition is wrong, naming the field. */
export function defineScenario<P extends ParamsSchema, const F extends string>(scenario: Scenario<P, F>): Scenario<P, F> {
  const problems = scenarioProblems(scenario);
  if (problems.length > 0) throw new ScenarioDefinitionError(problems);
  return scenario;
}

// The drivers a scenario supports, its default first: as declared, else what its steps (default parameters) need.
export function scenarioDrivers(scenario: Pick<Scenario, "drivers" | "steps" | "params">): readonly Driver[] {
  if (scenario.drivers) return scenario.drivers;
  const steps = scenario.steps(scenario.params.parse({}), { driver: "headless" });
  return steps.some((step) => step.kind === "terminal") ? ["terminal"] : ["headless"];
}
