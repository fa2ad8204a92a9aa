// A scenario's parameters, owned here: parsed once through its schema (at the edge: --param, a config, run.json),
// compared as the scenario reads them, and told apart from its defaults. Every layer passes the parsed value on.
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { UserError } from "../core/errors.ts";

// Only the schema is read, so the scenario's own module can use these for its defaults too.
type WithParams = { params: z.ZodType };

export interface ParamsProblem {
  // Where in the parameters (empty for the whole object), and what is wrong there.
  path: PropertyKey[];
  message: string;
}

export type ParsedParams = { ok: true; params: Record<string, unknown> } | { ok: false; problems: ParamsProblem[]; known: string[] };

// The names a scenario's schema accepts, for messages that say what is allowed.
export function paramNames(scenario: WithParams): string[] {
  return scenario.params instanceof z.ZodObject ? Object.keys(scenario.params.shape) : [];
}

// Through the scenario's schema: strings such as "1000" from --param become the values the scenario reads.
export function parseParams(scenario: WithParams, raw: Record<string, unknown>): ParsedParams {
  const parsed = scenario.params.safeParse(raw);
  if (parsed.success) return { ok: true, params: parsed.data as Record<string, unknown> };
  const problems = parsed.error.issues.map((issue) =>
    issue.code === "unrecognized_keys" ? { path: [...issue.path, issue.keys[0]!], message: "unrecognized key" } : { path: [...issue.path], message: issue.message },
  );
  return { ok: false, problems, known: paramNames(scenario) };
}

// The parameters a scenario runs with, or a BAD_PARAM error that lists each problem and the names it has. `whose`
// names the scenario, and where the values came from when that is not the command line.
export function paramsOf(scenario: WithParams, raw: Record<string, unknown>, whose: string): Record<string, unknown> {
  const parsed = parseParams(scenario, raw);
  if (parsed.ok) return parsed.params;
  const lines = parsed.problems.map((problem) => `${problem.path.map(String).join(".") || "(parameters)"}: ${problem.message}`);
  const known = parsed.known.join(", ");
  throw new UserError(`bad parameters for ${whose}: ${lines.join("; ")}${known ? ` (its parameters: ${known})` : ""}`, "BAD_PARAM");
}

// Whether every parameter has a default: a scenario must run with none given.
export function hasDefaults(scenario: WithParams): boolean {
  return scenario.params.safeParse({}).success;
}

// Every parameter at its default.
export function defaultParams<P extends z.ZodType>(scenario: { params: P }): z.output<P> {
  return scenario.params.parse({});
}

// Parameters compared as the scenario reads them: "1000" and 1000, or an omitted default and the default written
// out, are the same question. A side the schema refuses matches nothing.
export function sameParams(scenario: WithParams, a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const left = scenario.params.safeParse(a);
  const right = scenario.params.safeParse(b);
  return left.success && right.success && isDeepStrictEqual(left.data, right.data);
}

// Parameters already parsed and written down (a sweep's or an atlas's file), compared without their scenario: by
// value, whatever the order of their keys.
export function sameParsedParams(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return isDeepStrictEqual(a, b);
}

// The parameters a recorded run's values leave to a default now: a run records every value it ran with, so a name its
// record lacks is one the scenario gained after the run, and what the run did is not known to be what that default
// means (compact-twice's gapMs paced prompts that earlier runs sent unpaced).
export function paramsAddedSince(scenario: WithParams, recorded: Record<string, unknown>): string[] {
  const parsed = scenario.params.safeParse(recorded);
  return parsed.success ? Object.keys(parsed.data as Record<string, unknown>).filter((name) => !(name in recorded)) : [];
}

// The parameters that differ from the defaults: the ones a person set, as a config or a command line names them.
export function givenParams(scenario: WithParams | undefined, params: Record<string, unknown>): Record<string, unknown> {
  if (!scenario) return params;
  const defaults = scenario.params.safeParse({});
  if (!defaults.success) return params;
  return Object.fromEntries(Object.entries(params).filter(([key, value]) => !isDeepStrictEqual((defaults.data as Record<string, unknown>)[key], value)));
}
