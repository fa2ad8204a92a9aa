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
