// What the driver does, one builder per step kind, each with an options object for what is optional. Steps may be
// nested lists; the harness's own step union (harness/plan.ts) stays internal.
import type { CommandView, Step as RawStep, StopHow, TerminalKey, TerminalView } from "../harness/plan.ts";
import type { Recordings } from "../harness/recordings.ts";
import type { Session } from "./session.ts";
import { optionsObject, ScenarioDefinitionError } from "./definition-error.ts";

declare const usesSessions: unique symbol;

/**
 * One step of a scenario, made by a builder (`start`, `send`, `wait`, …). `S` is the union of the sessions it names,
 * so a step on a session the scenario does not declare in `sessions` is a type error.
 */
export interface Step<S extends string = string> {
  readonly [usesSessions]?: S;
}

/** A scenario's steps: steps and lists of steps, nested as the builders return them. */
export type Steps<S extends string = string> = ReadonlyArray<Step<S> | Steps<S>>;

// A file written before handles named sessions by string; without a type check it would reach the harness unnamed.
function nameOf(s: Session): string {
  if (typeof s === "object" && s !== null && typeof s.name === "string") return s.name;
  throw new ScenarioDefinitionError([`${JSON.stringify(s)} is not a session: use a handle, const s1 = session("s1"), listed in the scenario's \`sessions\``], "Name sessions by handle");
}

// The one place a kit step becomes the harness's step, and back.
const step = <S extends string>(raw: RawStep): Step<S> => raw as unknown as Step<S>;

/** The harness's steps of a nested list, in order (for the pipeline and tests; not part of the public entry). */
export function flattenSteps(steps: Steps): RawStep[] {
  return steps.flatMap((entry) => (Array.isArray(entry) ? flattenSteps(entry as Steps) : [entry as unknown as RawStep]));
}

/** Default time a `wait`, `watch`, `screenWait` or `command` allows: 60 s. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** What every way of starting a session takes besides its handle. */
export interface StartOptions {
  /** The first prompt to push on stdin; none when absent (send one later with `send`). */
  prompt?: string;
  /** Command-line arguments after ccrepro's own, e.g. `["--max-turns", "2"]` or `["--fallback-model", "claude-haiku-4-5"]`. */
  args?: readonly string[];
  /** Add `--fork-session` (with `resume` or `continueLatest`: a new session id for the continued conversation). */
  fork?: boolean;
}

const send1 = <S extends string>(s: Session<S>, prompt: string | undefined): Step<S>[] =>
  prompt === undefined ? [] : [step<S>({ kind: "send", session: nameOf(s), message: { text: prompt } })];

const extra = (options: StartOptions) => ({ ...(options.args?.length ? { extraArgs: [...options.args] } : {}), ...(options.fork ? { fork: true } : {}) });

/**
 * Start a headless session (`claude -p --input-format stream-json --output-format stream-json --verbose`) and push its
 * first prompt.
 *
 * @example start(s1, { prompt: "MARKER run the tool", args: ["--max-turns", "2"] })
 */
export function start<S extends string>(s: Session<S>, options: StartOptions = {}): Steps<S> {
  return [step<S>({ kind: "start", session: nameOf(s), ...extra(options) }), ...send1(s, options.prompt)];
}

/**
 * Start session `s` as `--resume <the session id of session from>` and push a prompt.
 *
 * @example resume(s2, { from: s1, prompt: "go on" })
 */
export function resume<S extends string>(s: Session<S>, options: StartOptions & { from: Session<S> }): Steps<S> {
  optionsObject(options, "resume(s2, …)", 'resume(s2, { from: s1, prompt: "go on" })');
  return [step<S>({ kind: "start", session: nameOf(s), resume: nameOf(options.from), ...extra(options) }), ...send1(s, options.prompt)];
}

/**
 * Start session `s` with `--continue`: the CLI picks the most recent conversation of the working directory itself
 * (every session of a run shares it), which is what a `--continue` bug is about.
 *
 * @example continueLatest(s3, { prompt: "and then?" })
 */
export function continueLatest<S extends string>(s: Session<S>, options: StartOptions = {}): Steps<S> {
  return [step<S>({ kind: "start", session: nameOf(s), continueLatest: true, ...extra(options) }), ...send1(s, options.prompt)];
}

/** How a one-shot `claude -p` turn is started, besides its prompt. */
export interface PrintOptions extends Omit<StartOptions, "prompt"> {
  /** `--resume` the session id of this earlier session. */
  resume?: Session;
  /** `--resume` the session id computed from what the run saw, e.g. one only `claude agents --json` printed; null skips the step. */
  resumeFrom?: (view: CommandView) => string | null;
  /** `--continue` the most recent conversation. */
  continueLatest?: boolean;
  /** The prompt as the argument after `-p` (default) or on stdin. */
  via?: "arg" | "stdin";
  /** Kill it and fail the run (ERROR) when it still runs after this long; default 120 s. */
  timeout?: number;
  /**
   * For a bug that never stops (a loop): end claude (SIGTERM, then SIGKILL) once this step has seen `requests` API
   * requests, or after `ms`, whichever comes first, and judge the run as it stands; `sessionOf(rec, s).process.stoppedBy`
   * then lists the SIGTERM. A turn that ends by itself first is judged as usual.
   *
   * @example print(s1, "MARKER go", { endAfter: { requests: 6 } })
   */
  endAfter?: { requests?: number; ms?: number };
  /**
   * `--output-format` as the report's command line had it: "stream-json" (default, with `--verbose`), "json" (one
   * result object: `resultOf` reads it) or "text" (the answer alone: `stdoutOf` reads it).
   */
  output?: "stream-json" | "json" | "text";
}

// A print's endAfter, refused at definition when it could never end anything.
function endAfterLimit(limit: { requests?: number; ms?: number }): { requests?: number; ms?: number } {
  const { requests, ms } = limit;
  if (requests === undefined && ms === undefined) throw new ScenarioDefinitionError(["print(…, { endAfter }): give requests, ms or both, e.g. { endAfter: { requests: 6 } }"]);
  if (requests !== undefined && !(Number.isInteger(requests) && requests >= 1)) throw new ScenarioDefinitionError([`print(…, { endAfter: { requests: ${requests} } }): give a whole number of requests, 1 or more`]);
  if (ms !== undefined && !(Number.isInteger(ms) && ms >= 1)) throw new ScenarioDefinitionError([`print(…, { endAfter: { ms: ${ms} } }): give a whole number of milliseconds, 1 or more`]);
  return { ...(requests === undefined ? {} : { requests }), ...(ms === undefined ? {} : { ms }) };
}

/**
 * One `claude -p PROMPT --output-format stream-json --verbose` turn, run to its exit; recorded as session `s`.
 *
 * @example print(s1, "MARKER do it", { args: ["--max-turns", "1"] })
 */
export function print<S extends string>(s: Session<S>, prompt: string, options: PrintOptions & { resume?: Session<S> } = {}): Step<S> {
  return step<S>({
    kind: "print",
    session: nameOf(s),
    prompt,
    timeoutMs: options.timeout ?? 120_000,
    ...(options.endAfter ? { endAfter: endAfterLimit(options.endAfter) } : {}),
    ...(options.output && options.output !== "stream-json" ? { output: options.output } : {}),
    ...(options.via ? { via: options.via } : {}),
    ...(options.resume ? { resume: nameOf(options.resume) } : {}),
    ...(options.resumeFrom ? { resumeFrom: options.resumeFrom } : {}),
    ...(options.continueLatest ? { continueLatest: true } : {}),
    ...extra(options),
  });
}

/**
 * Push one more prompt into a running headless session, or a raw stream-json object (`{ json: … }`).
 *
 * @example send(s1, "SECOND reply with: second")
 */
export function send<S extends string>(s: Session<S>, message: string | { json: Record<string, unknown> }): Step<S> {
  return step<S>({ kind: "send", session: nameOf(s), message: typeof message === "string" ? { text: message } : message });
}

/** How a session is stopped. */
export interface StopOptions {
  /** "stdin" (default: close stdin and let it end), "sigterm", "sigkill"; the SDK driver's "abort", "close-then-abort". */
  how?: StopHow;
  /** Time between closing stdin and the signal, in ms; default 0. */
  grace?: number;
}

/**
 * End a session: close its stdin, wait `grace` ms, then send the signal.
 *
 * @example stop(s1, { how: "sigkill", grace: 500 })
 */
export function stop<S extends string>(s: Session<S>, options: StopOptions = {}): Step<S> {
  optionsObject(options, "stop(s1, …)", 'stop(s1, { how: "sigkill", grace: 500 })');
  return step<S>({ kind: "stop", session: nameOf(s), how: options.how ?? "stdin", graceMs: options.grace ?? 0 });
}

/**
 * Interrupt the current turn, as the Agent SDK's `interrupt()` does (a control request on a headless stdin).
 *
 * @example interrupt(s1)
 */
export const interrupt = <S extends string>(s: Session<S>): Step<S> => step<S>({ kind: "interrupt", session: nameOf(s) });

/** How long a wait allows, and what its timeout means. */
export interface WaitOptions {
  /** In ms; default 60 s. */
  timeout?: number;
  /**
   * "inconclusive" (default): the run ends there, short of its point: the verdict is INCONCLUSIVE, or RED when the
   * check finds the bug in what came before; never GREEN. "error": the run is a harness failure (ERROR), for waits
   * that must always succeed. "continue": the scenario allows this wait to time out; the run goes on to the next
   * step, and the timeout is printed with the verdict and shown in the reports.
   */
  onTimeout?: "inconclusive" | "error" | "continue";
}

/**
 * Wait until `until` holds on what the run recorded so far (the conditions in this entry: `requestsMade`,
 * `resultPrinted`, … or your own function of the recordings).
 *
 * @example wait("the first turn ended", resultPrinted(s1))
 */
export function wait(label: string, until: (rec: Recordings) => boolean, options: WaitOptions = {}): Step<never> {
  return step<never>({ kind: "wait", label, until, timeoutMs: options.timeout ?? DEFAULT_TIMEOUT_MS, onTimeout: options.onTimeout ?? "inconclusive" });
}

/**
 * Watch the recordings until `until` holds or `timeout` passes; either way the run goes on. For events whose
 * absence is the finding (a turn nobody continues).
 *
 * @example watch("a notification, if any", requestsMade(3), { timeout: 20_000 })
 */
export function watch(label: string, until: (rec: Recordings) => boolean, options: { timeout?: number } = {}): Step<never> {
  return step<never>({ kind: "watch", label, until, timeoutMs: options.timeout ?? DEFAULT_TIMEOUT_MS });
}

/**
 * A deliberate pause (a parameter's delay), never a way to wait for an event: use `wait` for that.
 *
 * @example pause("prompt delay", p.delay)
 */
export const pause = (label: string, ms: number): Step<never> => step<never>({ kind: "pause", label, ms });

/**
 * Run `claude <args>` (e.g. `["agents", "--json"]`) in the run's environment and record its output; args may be
 * computed from what was recorded and screened so far (null: skip the step).
 *
 * @example command("agents", ["agents", "--json"])
 */
export function command(label: string, args: string[] | ((view: CommandView) => string[] | null), options: { timeout?: number } = {}): Step<never> {
  optionsObject(options, "command(label, args, …)", 'command("agents", ["agents", "--json"], { timeout: 30_000 })');
  return step<never>({ kind: "command", label, args, timeoutMs: options.timeout ?? 30_000 });
}

/**
 * Wait until the run has no `claude daemon run` process left (the `/background` daemon detaches from its parent).
 * `onTimeout`: "error" (default), the run is a harness failure; "continue", a daemon still running is allowed (the
 * run's reaper ends it) and the timeout is shown with the verdict.
 *
 * @example daemonExit("the daemon went idle", { timeout: 30_000 })
 */
export const daemonExit = (label: string, options: { timeout?: number; onTimeout?: "error" | "continue" } = {}): Step<never> =>
  step<never>({ kind: "daemon-exit", label, timeoutMs: options.timeout ?? DEFAULT_TIMEOUT_MS, onTimeout: options.onTimeout ?? "error" });

/** The interactive UI's size and arguments. */
export interface TerminalOptions {
  /** Arguments after ccrepro's own, e.g. `["--continue"]`. */
  args?: readonly string[];
  cols?: number;
  rows?: number;
  /**
   * What a UI that exits before showing its prompt means: "fail" (the default: the step fails, ERROR) or "check" (the
   * remaining steps are skipped and the check judges the run, e.g. `--continue` that finds nothing to continue).
   */
  onEarlyExit?: "fail" | "check";
  /** `--resume` the session id of this earlier session (a headless, print or SDK one, which reported its id). */
  resume?: Session;
  /** `--resume` the session id computed from what the run saw (e.g. a request's `x-claude-code-session-id`); null skips the step. */
  resumeFrom?: (view: CommandView) => string | null;
}

/**
 * Start the interactive UI in a pseudo-terminal as session `s` and wait for its prompt.
 *
 * @example terminal(ui, { cols: 120 })
 */
export function terminal<S extends string>(s: Session<S>, options: TerminalOptions & { resume?: Session<S> } = {}): Step<S> {
  return step<S>({
    kind: "terminal",
    session: nameOf(s),
    ...(options.resume ? { resume: nameOf(options.resume) } : {}),
    ...(options.resumeFrom ? { resumeFrom: options.resumeFrom } : {}),
    ...(options.args?.length ? { extraArgs: [...options.args] } : {}),
    ...(options.cols ? { cols: options.cols } : {}),
    ...(options.rows ? { rows: options.rows } : {}),
    ...(options.onEarlyExit === "check" ? { onEarlyExit: "check" as const } : {}),
  });
}

/**
 * Type text into the UI as one chunk, like a paste; press Enter with `press`.
 *
 * @example type(ui, "/background")
 */
export const type = <S extends string>(s: Session<S>, text: string): Step<S> => step<S>({ kind: "type", session: nameOf(s), text });

/**
 * Press keys in the UI, by name.
 *
 * @example press(ui, "enter")
 */
export const press = <S extends string>(s: Session<S>, ...keys: TerminalKey[]): Step<S> => step<S>({ kind: "press", session: nameOf(s), keys });

/**
 * Like `wait`, with the UI's screen in view as well (only for what the screen alone shows: recordings first).
 *
 * @example screenWait(ui, "the prompt is back", (view) => view.screen.includes("> "))
 */
export function screenWait<S extends string>(s: Session<S>, label: string, until: (view: TerminalView) => boolean, options: WaitOptions = {}): Step<S> {
  optionsObject(options, "screenWait(ui, label, until, …)", 'screenWait(ui, "the prompt is back", (view) => view.screen.includes("> "), { timeout: 20_000 })');
  return step<S>({ kind: "screen-wait", session: nameOf(s), label, until, timeoutMs: options.timeout ?? DEFAULT_TIMEOUT_MS, onTimeout: options.onTimeout ?? "inconclusive" });
}
