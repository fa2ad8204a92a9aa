// What a scenario is: data (mock script, sessions, steps, hooks, permissions, what is known per release) plus a pure
// check. defineScenario() turns what an author writes into the one shape the pipeline runs, applying the verdict rules
// to what the check found, so no scenario file judges.
import { z } from "zod";
import { ScenarioDefinitionError } from "./definition-error.ts";
import { checkResultSchema, findingSchema, judge, type CheckResult, type Reached, type Verdict } from "../core/verdict.ts";
import type { CheckFinding } from "./findings.ts";
import type { HookCapture, McpServerPlan, PermissionPlan, SeedFiles, SettingSource, Step as RawStep } from "../harness/plan.ts";
import type { Recordings } from "../harness/recordings.ts";
import type { MockScriptInput } from "../mock-api/script.ts";
import { API_FINDINGS, type ApiFindingId } from "../checker/api-conformance.ts";
import { isNeed, NEED_FORMS, type Need } from "../releases/needs.ts";
import { hookCapture, type HooksDeclaration } from "./hooks.ts";
import { ISOLATION_VARS, MERGED_CONFIG_FILES } from "../harness/isolation.ts";

export { ScenarioDefinitionError };

const ISOLATION_NAMES = new Set<string>(ISOLATION_VARS);

const isJsonObject = (text: string): boolean => {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
};

// Relative paths that stay inside their folder, each with its text.
const seededFiles = z
  .record(z.string(), z.string())
  .refine((files) => Object.keys(files).every((p) => p !== "" && !p.startsWith("/") && !p.split("/").includes("..")), { error: "each path must be relative, inside its folder (no leading / and no ..)" });
import type { Session } from "./session.ts";
import { flattenSteps, type Steps } from "./steps.ts";
import { defaultParams, hasDefaults } from "./scenario-params.ts";

/**
 * A verdict a release can be known to give; ERROR is a harness failure, never a property of a release, and
 * UNSUPPORTED follows from `needs`, not from a ledger.
 */
export type KnownVerdict = Exclude<Verdict, "ERROR" | "UNSUPPORTED">;

/**
 * What is known of a range of releases: the verdict it gives, with what was seen. The nightly's ledger starts from it.
 *
 * @example { versions: ">=2.1.284", verdict: "GREEN", note: "fixed in 2.1.284 (bisected)" }
 */
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
  /** The driver the entry was measured with; every driver when absent. */
  driver?: Driver;
}

type ParamsSchema = z.ZodType<Record<string, unknown>>;

/**
 * How the run drives claude: `-p` stream-json (headless), the Agent SDK's query() in a child process (sdk), or the
 * interactive UI in a pseudo-terminal (terminal).
 */
export const DRIVERS = ["headless", "sdk", "terminal"] as const;
/** One of DRIVERS. */
export type Driver = (typeof DRIVERS)[number];

/** What a scenario's steps may depend on besides its parameters: the driver the run uses. */
export interface StepContext {
  driver: Driver;
}

/**
 * What a check returns: whether the run reached the point the scenario tests, what it found, and what it compared.
 * The verdict follows from it by one rule: a red finding is RED; else not reached is INCONCLUSIVE; else GREEN.
 */
export interface CheckOutput {
  reached: Reached;
  findings: readonly CheckFinding[];
  notes?: readonly string[];
}

/** What every session of a run shares and is given; see the kit's documentation in README "Reproduce your own bug". */
export interface SessionEnvironment {
  /**
   * "bypass" (default): `--dangerously-skip-permissions` (or `--allowedTools` on releases that refuse it as root).
   * Otherwise the release's own permission handling, with `--permission-mode` and the rules listed here.
   */
  permissions?: PermissionPlan;
  /** The `--setting-sources` every session reads; default `["user"]` (the run's own settings only). */
  settingSources?: SettingSource[];
  /** Names of variables to pass from the caller's environment; nothing else of it reaches the binary. */
  passEnv?: string[];
  /**
   * Variables every session gets set (a string) or unset (`null`), after ccrepro's own (docs/kit.md lists those and
   * what each switches off): a feature a release keeps behind a flag is turned on here, e.g.
   * `{ CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: null }`. What keeps a run isolated (HOME, CLAUDE_CONFIG_DIR, TMPDIR,
   * the mock's URL, the proxies, the run marker) cannot be changed.
   */
  env?: Record<string, string | null>;
  /**
   * Files seeded before the first session, by relative path and text: into the working directory (`work`), the
   * config directory (`config`: `agents/`, `commands/`, `settings.json`, `.claude.json`) and `home`. A fixture's
   * `config/settings.json` or `config/.claude.json` is merged over ccrepro's own at the top level (releases up to
   * 1.0.4 read `config/config.json` instead, merged the same way).
   *
   * @example files: { work: { "NOTES.md": "# notes" }, config: { "agents/reviewer.md": "---\nname: reviewer\n---\nReview." } }
   */
  files?: SeedFiles;
  /**
   * Whether the working directory is a git repository (default true: an empty one of its own). `false` puts it
   * outside every repository, as a session recorded outside one needs (claude says which in its system prompt).
   */
  gitRepository?: boolean;
}

/**
 * What the public record (the cited report, its comments, the changelog) says of one release.
 *
 * @example { version: "2.1.72", says: "reported", source: "#32956" }
 */
export interface PublicRecordRelease {
  /** One release, e.g. "2.1.72". */
  version: string;
  /** "reported": a reporter saw the bug there; "works": a reporter saw it work there; "fixed": the changelog names the fix there. */
  says: "reported" | "works" | "fixed";
  /** Where the record says so, short: "#32956", "#32956 (a comment)", "CHANGELOG 2.1.90". */
  source: string;
  /** The parameters ccrepro measured this release with, where they are not the defaults. */
  params?: Record<string, unknown>;
  /** The driver ccrepro measured this release with, where it is not the default. */
  driver?: Driver;
}

/**
 * How a scenario stands to the report it cites: whether its check tests the trigger the report describes, and what
 * the record says release by release. A scenario's page sets each release beside what ccrepro measures there.
 *
 * @example { role: "reproduction", releases: [{ version: "2.1.72", says: "reported", source: "#32956" }] }
 */
export interface PublicRecord {
  /**
   * "reproduction": the check tests what the report describes, with its trigger; "guard": it guards the bug's class
   * with another trigger, and the report's own is not reproduced here (`guard` says which and why).
   */
  role: "reproduction" | "guard";
  /** For a guard: the report's trigger, the one exercised instead, and why, in a sentence or two. */
  guard?: string;
  /** The releases the record names, oldest first. */
  releases: readonly PublicRecordRelease[];
}

/**
 * A scenario as its file writes it. `S` is the union of its sessions' names, so steps name only declared sessions.
 *
 * @example export default defineScenario({ name: "my-bug", summary: "…", source: "…", findings: ["lost"], sessions: [s1], mockScript, steps, check });
 */
export interface ScenarioDefinition<P extends ParamsSchema, F extends string, S extends string> extends SessionEnvironment {
  /** Lower-case words joined by dashes; a built-in's file is named after it. */
  name: string;
  /** One sentence: the behaviour that should hold (GREEN) and that the bug breaks. */
  summary: string;
  /** The bug report this scenario reproduces: an upstream link, and in words what it found. */
  source: string;
  /** The upstream report's address, where there is one; reports link to it. */
  link?: string;
  /** The parameters, as a zod schema that accepts `{}` (every field has a default); `--param key=value` sets them. Default: none. */
  params?: P;
  /** The finding ids this check reports as RED (and informational ones `known` names). */
  findings: readonly F[];
  /** The sessions the steps start and drive, as `session("s1")` handles. */
  sessions?: readonly Session<S>[];
  /** What the fake Messages API answers: usually `conversation({ main: { marker, replies: [...] } })`. */
  mockScript(params: z.output<P>): MockScriptInput;
  /** Hook events to record and hooks that answer; a function when the parameters decide. */
  hooks?: HooksDeclaration | ((params: z.output<P>) => HooksDeclaration);
  /** MCP servers every session gets with `--mcp-config`, made with `mcpServer(name, { tools, startupDelayMs })`; a function when the parameters decide. */
  mcpServers?: readonly McpServerPlan[] | ((params: z.output<P>) => readonly McpServerPlan[]);
  /** What the driver does, in order; nested lists are fine. `context` tells the driver of the run. */
  steps(params: z.output<P>, context: StepContext): Steps<NoInfer<S>>;
  /** The drivers the steps are written for, the first being the default; derived from the steps when absent. */
  drivers?: readonly Driver[];
  /** Pure: the recordings in, what was reached and found out. Must not call a run reached that missed its point. */
  check(rec: Recordings, params: z.output<P>): CheckOutput;
  /** What is known per release; a nightly's ledger starts from it. Default: nothing. */
  known?: KnownState<NoInfer<F> | ApiFindingId>[];
  /** How the scenario stands to its cited report (a reproduction or a guard) and what the record says per release. Default: nothing said. */
  publicRecord?: PublicRecord;
  /** Upper bound for the whole run in ms, on top of every step's own timeout. Default 180 s. */
  timeoutMs?: number;
  /** What the scenario needs from a release; a release that lacks one gets UNSUPPORTED without a run. */
  needs?: readonly Need[] | ((params: z.output<P>) => readonly Need[]);
  /**
   * True when another run beside this one changes its outcome (a race of claude's own that the machine's load
   * tips): `run --jobs` and `sweep --concurrency` above 1 are refused, and the nightly runs its cells and sweeps
   * with nothing else running. Default false.
   */
  runsAlone?: boolean;
}

/** A defined scenario, as the pipeline runs it (what defineScenario returns). */
export interface Scenario<P extends ParamsSchema = ParamsSchema, F extends string = string> extends SessionEnvironment {
  name: string;
  summary: string;
  source: string;
  link?: string;
  params: P;
  findings: readonly F[];
  mockScript(params: z.output<P>): MockScriptInput;
  /** The hooks the harness registers for these parameters. */
  hooks(params: z.output<P>): HookCapture | undefined;
  /** The MCP servers the sessions get for these parameters (none: an empty list). */
  mcpServers(params: z.output<P>): McpServerPlan[];
  /** The harness's steps, flattened. `context` is absent where steps are read without a run: headless is meant. */
  steps(params: z.output<P>, context?: StepContext): RawStep[];
  drivers?: readonly Driver[];
  /** The verdict: the check's output judged by the verdict rules. */
  check(rec: Recordings, params: z.output<P>): CheckResult;
  known: KnownState<F | ApiFindingId>[];
  publicRecord?: PublicRecord;
  timeoutMs: number;
  needs?: readonly Need[] | ((params: z.output<P>) => readonly Need[]);
  /** Runs with no other run beside it (its outcome depends on the machine's load). */
  runsAlone: boolean;
}

const DEFAULT_TIMEOUT_MS = 180_000;

// What the steps themselves take from a release: a started session is driven over `--input-format stream-json` (the
// headless driver's flags, and the Agent SDK's) and interrupted by a control request on it, a print step reads
// `--output-format stream-json` unless it asks for text or json, and every option a session step (start, print,
// terminal) passes in its args must be one the release has (compact-resume's UI passes `--session-id`, which 1.0.21–1.0.51 refuse: "unknown option").
// A terminal run's steps start no stream-json session.
function stepNeeds(steps: readonly RawStep[]): Need[] {
  const needs = new Set<Need>();
  for (const step of steps) {
    for (const arg of "extraArgs" in step && Array.isArray(step.extraArgs) ? step.extraArgs : []) if (typeof arg === "string" && isNeed(`flag:${arg}`)) needs.add(`flag:${arg}` as Need);
    if (step.kind === "start") needs.add("stream-json-input");
    if (step.kind === "interrupt") needs.add("stream-json-interrupt");
    if (step.kind === "send" && "json" in step.message && severalBlocks(step.message.json)) needs.add("stream-json-input-blocks");
    if (step.kind === "print" && (step.output ?? "stream-json") === "stream-json") needs.add("stream-json-output");
  }
  return [...needs];
}

// A raw stream-json user message whose content is a list of more than one block (an image beside its text).
const severalBlocksSchema = z.object({ message: z.object({ content: z.array(z.unknown()).min(2) }) });
const severalBlocks = (json: Record<string, unknown>): boolean => severalBlocksSchema.safeParse(json).success;

// The scenario's own needs, the needs of its steps for the driver (the scenario's first when absent), the hook
// events it answers (a release without the event cannot run those hooks), and the flag its MCP servers go through.
export function scenarioNeeds<P extends ParamsSchema>(scenario: Scenario<P>, params: z.output<P>, driver?: Driver): readonly Need[] {
  const declared = scenario.needs ?? [];
  const needs = typeof declared === "function" ? declared(params) : declared;
  const steps = scenario.steps(params, { driver: driver ?? scenarioDrivers(scenario)[0]! });
  const answered = (scenario.hooks(params)?.answers ?? []).map((rule): Need => `hook:${rule.event}`);
  // Its MCP servers reach claude as `--mcp-config`, which 0.2.70 and 0.2.74 lack (an ERROR before they counted).
  const mcp: Need[] = scenario.mcpServers(params).length > 0 ? ["flag:--mcp-config"] : [];
  return [...new Set([...needs, ...stepNeeds(steps), ...answered, ...mcp])];
}

const knownShape = z.object({
  versions: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
  verdict: z.enum(["GREEN", "RED", "INCONCLUSIVE"], { error: () => "expected GREEN, RED or INCONCLUSIVE (ERROR is never known)" }),
  finding: z.string().optional(),
  note: z.string(),
  driver: z.enum(DRIVERS).optional(),
});

// The shape a definition must have, for files that come from outside the type checker (a plain .mjs file).
const definitionShape = z.object({
  name: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "use lower-case words joined by dashes, e.g. my-bug"),
  summary: z.string().min(1),
  source: z.string(),
  link: z.string().url().optional(),
  params: z.custom<ParamsSchema>((value) => value instanceof z.ZodType, "must be a zod schema, e.g. z.strictObject({})").optional(),
  findings: z.array(z.string()),
  sessions: z.array(z.object({ name: z.string() }), { error: () => 'expected a list of session("name") handles' }).optional(),
  mockScript: z.function(),
  steps: z.function(),
  check: z.function(),
  hooks: z
    .union([
      z.strictObject({ record: z.union([z.array(z.string()), z.literal("all")]).optional(), answer: z.array(z.object({ event: z.string(), replies: z.array(z.unknown()).min(1) }).loose()).optional(), source: z.enum(["user", "project", "flag"]).optional() },
        // The pre-0.1 field is refused by name, so the message says what replaces it.
        { error: (issue) => (issue.code === "unrecognized_keys" && issue.keys.includes("events") ? 'hooks: { events } is now hooks: { record }, e.g. hooks: { record: ["Stop"] }' : undefined) },
      ),
      z.function(),
    ])
    .optional(),
  mcpServers: z.union([z.array(z.object({ name: z.string().regex(/^[A-Za-z0-9_-]+$/, "letters, digits, _ and -"), tools: z.array(z.string()), startupDelayMs: z.number().int().nonnegative() }), { error: () => "expected a list of mcpServer(name, { tools, startupDelayMs })" }), z.function()]).optional(),
  permissions: z.union([z.literal("bypass"), z.object({ mode: z.enum(["default", "acceptEdits", "dontAsk", "plan"]), allow: z.array(z.string()).optional(), deny: z.array(z.string()).optional() })]).optional(),
  settingSources: z.array(z.enum(["user", "project", "local"])).min(1).optional(),
  passEnv: z.array(z.string()).optional(),
  env: z
    .record(z.string(), z.string().nullable())
    .refine((env) => Object.keys(env).every((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)), { error: "each key must be a variable name: letters, digits and _, not starting with a digit" })
    .refine((env) => !Object.keys(env).some((name) => ISOLATION_NAMES.has(name.toUpperCase())), {
      error: `may not set or unset what keeps a run isolated (${[...ISOLATION_VARS].join(", ")}); ccrepro sets those itself: remove them from env`,
    })
    .optional(),
  files: z
    .strictObject({ work: seededFiles.optional(), config: seededFiles.optional(), home: seededFiles.optional() }, { error: () => "expected { work?, config?, home? }, each { relative path: text }" })
    .refine((files) => Object.entries(files.config ?? {}).every(([name, text]) => !MERGED_CONFIG_FILES.has(name) || isJsonObject(text)), {
      error: `config's ${[...MERGED_CONFIG_FILES].join(" and ")} are merged over ccrepro's own, so each must be a JSON object's text: write it as JSON.stringify({ … })`,
    })
    .optional(),
  gitRepository: z.boolean().optional(),
  drivers: z.array(z.enum(DRIVERS)).min(1).optional(),
  known: z.array(knownShape).optional(),
  publicRecord: z
    .strictObject({
      role: z.enum(["reproduction", "guard"]),
      guard: z.string().min(1).optional(),
      releases: z.array(z.strictObject({ version: z.string().regex(/^\d+\.\d+\.\d+$/, "one release, e.g. 2.1.72"), says: z.enum(["reported", "works", "fixed"]), source: z.string().min(1), params: z.record(z.string(), z.unknown()).optional(), driver: z.enum(DRIVERS).optional() })),
    })
    .refine((record) => (record.role === "guard") === (record.guard !== undefined), { error: 'a guard says in `guard` which trigger the report names and why another is exercised; a reproduction has no `guard`' })
    .optional(),
  timeoutMs: z.number().int().positive().optional(),
  needs: z
    .union([z.array(z.string().refine(isNeed, { error: (issue) => `${JSON.stringify(issue.input)} is not a need: ${NEED_FORMS}` })), z.function()])
    .optional(),
  runsAlone: z.boolean().optional(),
});


/** Steps that name a session before a step started it, or resume one never started (internal: load-time checks). */
export function stepProblems(steps: readonly RawStep[], declared?: readonly string[]): string[] {
  const started = new Set<string>();
  const terminals = new Set<string>();
  const problems: string[] = [];
  const undeclared = (name: string) => declared !== undefined && !declared.includes(name);
  steps.forEach((step, i) => {
    if ("session" in step && undeclared(step.session)) problems.push(`steps[${i}] (${step.kind}) names session "${step.session}", which \`sessions\` does not declare (${declared!.join(", ") || "none"})`);
    if (step.kind === "stop" && terminals.has(step.session) && step.how !== "sigterm" && step.how !== "sigkill") {
      problems.push(`steps[${i}] (stop ${step.session}): ${step.session} is a terminal session, which has no stdin to close; give { how: "sigterm" } or { how: "sigkill" }`);
    }
    if (step.kind === "terminal") terminals.add(step.session);
    if (step.kind === "start" || step.kind === "terminal") {
      if (step.resume !== undefined && !started.has(step.resume)) {
        problems.push(`steps[${i}] (${step.kind} ${step.session}) resumes session "${step.resume}", which no earlier step started`);
      }
      started.add(step.session);
      return;
    }
    if (step.kind === "print") {
      if (step.resume !== undefined && !started.has(step.resume)) problems.push(`steps[${i}] (print ${step.session}) resumes session "${step.resume}", which no earlier step started`);
      started.add(step.session);
      return;
    }
    if ("session" in step && !started.has(step.session)) {
      problems.push(`steps[${i}] (${step.kind}) names session "${step.session}", which no earlier start step started (started so far: ${[...started].join(", ") || "none"})`);
    }
  });
  return problems;
}

/**
 * Checks what the types cannot: the object's shape when it came from JavaScript, that `known` names only declared
 * findings, that the parameters have defaults, and that the steps (default parameters) start each session they use.
 */
export function scenarioProblems(scenario: unknown): string[] {
  const shaped = definitionShape.safeParse(scenario);
  if (!shaped.success) return shaped.error.issues.map((issue) => `${issue.path.join(".") || "(scenario)"}: ${issue.message}`);
  const s = shaped.data;
  const problems: string[] = [];
  for (const [i, known] of (s.known ?? []).entries()) {
    if (known.finding !== undefined && !s.findings.includes(known.finding) && !(API_FINDINGS as readonly string[]).includes(known.finding)) {
      problems.push(`known.${i}.finding: "${known.finding}" is not among the scenario's findings (${s.findings.join(", ") || "none"})`);
    }
  }
  if (s.params && !hasDefaults({ params: s.params })) problems.push("params: every parameter needs a default (the schema must accept {})");
  return problems;
}

// Marks what defineScenario made. A registered symbol, not a WeakSet or a class: a user's file loads its own copy of
// the kit through the scenario loader, and its scenarios must be recognised by this one.
const DEFINED = Symbol.for("ccrepro.defined-scenario");

/** Whether `value` came from defineScenario (internal: the loader defines plain objects itself). */
export const isDefinedScenario = (value: unknown): value is Scenario => typeof value === "object" && value !== null && DEFINED in value;

// The verdict rules applied to a check's output.
function verdictOf(output: CheckOutput, redIds: readonly string[]): CheckResult {
  const findings = output.findings.map((f) => findingSchema.parse({ ...f, red: f.red ?? redIds.includes(f.id) }));
  return judge({ reached: output.reached, findings, notes: [...(output.notes ?? [])] });
}

/**
 * Defines a scenario: checks it (throws ScenarioDefinitionError naming each wrong field) and returns it in the shape
 * the pipeline runs. The identity of `defineConfig`, with types.
 *
 * @example export default defineScenario({ name: "my-bug", summary, source, findings: ["lost"], sessions: [s1], mockScript, steps, check });
 */
export function defineScenario<P extends ParamsSchema = z.ZodObject<{}, z.core.$strict>, const F extends string = never, const S extends string = string>(
  definition: ScenarioDefinition<P, F, S>,
): Scenario<P, F> {
  const problems = scenarioProblems(definition);
  if (problems.length > 0) throw new ScenarioDefinitionError(problems);
  const { hooks } = definition;
  const declared = definition.sessions?.map((s) => s.name);
  const params = (definition.params ?? z.strictObject({})) as P;
  const scenario: Scenario<P, F> = {
    name: definition.name,
    summary: definition.summary,
    source: definition.source,
    ...(definition.link ? { link: definition.link } : {}),
    params,
    findings: definition.findings,
    mockScript: (p) => definition.mockScript(p),
    hooks: (p) => hookCapture(typeof hooks === "function" ? hooks(p) : hooks),
    mcpServers: (p) => [...(typeof definition.mcpServers === "function" ? definition.mcpServers(p) : (definition.mcpServers ?? []))],
    ...(definition.permissions ? { permissions: definition.permissions } : {}),
    ...(definition.settingSources ? { settingSources: definition.settingSources } : {}),
    ...(definition.passEnv ? { passEnv: definition.passEnv } : {}),
    ...(definition.env ? { env: { ...definition.env } } : {}),
    ...(definition.files ? { files: structuredClone(definition.files) } : {}),
    ...(definition.gitRepository === false ? { gitRepository: false } : {}),
    steps: (p, context) => flattenSteps(definition.steps(p, context ?? { driver: "headless" })),
    ...(definition.drivers ? { drivers: definition.drivers } : {}),
    check: (rec, p) => verdictOf(definition.check(rec, p), definition.findings),
    known: (definition.known ?? []) as KnownState<F | ApiFindingId>[],
    ...(definition.publicRecord ? { publicRecord: definition.publicRecord } : {}),
    timeoutMs: definition.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ...(definition.needs ? { needs: definition.needs } : {}),
    runsAlone: definition.runsAlone ?? false,
  };
  const stepIssues = stepProblems(scenario.steps(defaultParams(scenario)), declared);
  if (stepIssues.length > 0) throw new ScenarioDefinitionError(stepIssues, "Start each session (start(s1, …), resume, continueLatest, print or terminal) before the steps that use it");
  Object.defineProperty(scenario, DEFINED, { value: true });
  return scenario;
}

// The drivers a scenario supports, its default first: as declared, else what its steps (default parameters) need.
export function scenarioDrivers(scenario: Pick<Scenario, "drivers" | "steps" | "params">): readonly Driver[] {
  if (scenario.drivers) return scenario.drivers;
  const steps = scenario.steps(defaultParams(scenario), { driver: "headless" });
  return steps.some((step) => step.kind === "terminal") ? ["terminal"] : ["headless"];
}
