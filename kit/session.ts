// Sessions as typed handles: made once by name, passed to every step and view that names that session.
import { ScenarioDefinitionError } from "./definition-error.ts";

const SESSION_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/**
 * One session of a run: a `claude` process (headless, SDK or interactive) the steps start and drive, and the checks
 * read. Make it once with `session("s1")` and list it in the scenario's `sessions`, so a step on a session the
 * scenario does not declare is a type error.
 *
 * @example const s1 = session("s1");
 */
export interface Session<N extends string = string> {
  /** The label: the session's folder under `sessions/` in the run directory. */
  readonly name: N;
}

/**
 * A session handle. The name becomes a folder of the run directory: letters, digits, `-` and `_`.
 *
 * @example const first = session("first"), second = session("second");
 */
export function session<const N extends string>(name: N): Session<N> {
  if (!SESSION_NAME.test(name)) throw new ScenarioDefinitionError([`session("${name}"): use letters, digits, "-" and "_", e.g. session("s1")`], "Rename the session");
  return Object.freeze({ name });
}
