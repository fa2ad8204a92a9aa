// The error a scenario file gets for a definition ccrepro cannot run: from defineScenario, and from the builders a
// definition calls (a session name, a step's options, a hook with no reply), so it names the file's mistake and is
// reported as one, with exit 3, never as a stack trace.
import { UserError } from "../core/errors.ts";

/** A scenario definition that is wrong: every problem, each naming its field; `hint` (and `fix`) say what to do. */
export class ScenarioDefinitionError extends UserError {
  constructor(
    readonly problems: string[],
    /** What to do about them. */
    readonly fix = "Fix those fields and run again",
  ) {
    super(problems.join("; "), "BAD_SCENARIO_DEFINITION", { hint: fix });
    this.name = "ScenarioDefinitionError";
  }
}

// Scenario files are loaded without a type check, so a file written for the positional forms the kit had before
// 0.1 (`stop(s1, "sigkill", 500)`) would run with its options silently dropped: it is refused, naming the form to use.
export function optionsObject<T extends object>(value: T, call: string, example: string): T {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value;
  throw new ScenarioDefinitionError([`${call}: give the options as an object, e.g. ${example}`], "Write the call as the example shows");
}

// What replaces each value name the kit exported before 0.1 and no longer does. A file still importing one fails to
// load with only node's "does not provide an export named" message; the loader adds this line to it.
export const REMOVED_NAMES: Readonly<Record<string, string>> = {
  startWith: 'start(s1, { prompt }) or resume(s2, { from: s1, prompt }), with const s1 = session("s1")',
  waitFor: "wait(label, until, { timeout })",
  sessionNamed: 'sessionOf(rec, s1) from "ccrepro/checkers"',
  resultSeen: 'resultPrinted(s1) as a wait, or resultOf(rec, s1) from "ccrepro/checkers"',
  promptAnsweredIn: "promptAnswered(s1, { prompt })",
  judge: "nothing: a check returns its { reached, findings, notes } and ccrepro applies the verdict rules",
  nodeWait: "foregroundWait(ms)",
  CAPABILITIES: "the needs listed in docs/kit.md (a need is a string such as \"resume\", \"hook:Stop\" or \"tool:Monitor\")",
  ScenarioDefinitionError: "nothing: defineScenario() throws it and ccrepro prints it; a file need not import it",
  viewRequest: 'requestsOf(rec, …) from "ccrepro/checkers", which gives each request as a view',
  comparePrefix: 'checkContinuation or checkNotificationStability from "ccrepro/checkers"',
  checkTurnStructure: 'checkTurnGrammar from "ccrepro/checkers"',
  checkApiConformance: "nothing: every run is held to the API's rules already, and a rejection is a finding of its own",
};
