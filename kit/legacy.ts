// The kit's old names, kept for one release: each works as before and warns once with the name that replaces it.
import { finding as parsedFinding, judge as judgeOutput, type CheckerOutput, type CheckResult } from "../core/verdict.ts";
import { answeredAndSettled as settled, sessionOf } from "../checker/views.ts";
import * as checkers from "./checkers.ts";
import type { Recordings, SessionRecording } from "../harness/recordings.ts";
import { deprecated } from "./deprecated.ts";
import { resume, start, wait, type Steps, type WaitOptions } from "./steps.ts";
import type { Session } from "./session.ts";
import { promptAnswered } from "./waits.ts";

const handle = (name: string): Session => ({ name });

/**
 * Start a headless session with a prompt (the old form).
 * @deprecated Use `start(s1, { prompt })`, or `resume(s2, { from: s1, prompt })`. */
export function startWith(session: string, prompt: string, options: { resume?: string } = {}): Steps {
  deprecated("startWith(session, prompt)", "start(s1, { prompt }) or resume(s2, { from: s1, prompt })");
  return options.resume ? resume(handle(session), { from: handle(options.resume), prompt }) : start(handle(session), { prompt });
}

/**
 * Wait for a condition with a positional timeout (the old form).
 * @deprecated Use `wait(label, until, { timeout, onTimeout })`. */
export function waitFor(label: string, until: (rec: Recordings) => boolean, timeoutMs: number, options: Pick<WaitOptions, "onTimeout"> = {}) {
  deprecated("waitFor(label, until, timeoutMs)", "wait(label, until, { timeout })");
  return wait(label, until, { ...options, timeout: timeoutMs });
}

/**
 * A session's recording by label (the old form).
 * @deprecated Use `sessionOf(rec, s1)` from "ccrepro/checkers". */
export function sessionNamed(rec: Recordings, label: string): SessionRecording | undefined {
  deprecated("sessionNamed(rec, label)", 'sessionOf(rec, s1) from "ccrepro/checkers"');
  return sessionOf(rec, label);
}

/**
 * Whether a session printed a result (the old form).
 * @deprecated Use `resultOf(rec, s1)` from "ccrepro/checkers", or the wait condition `resultPrinted(s1)`. */
export function resultSeen(session: SessionRecording | undefined, after = -Infinity): boolean {
  deprecated("resultSeen(session)", 'resultPrinted(s1) for a wait, resultOf(rec, s1) from "ccrepro/checkers" in a check');
  return !!session?.stdout.some((line) => line.event?.type === "result" && line.t >= after);
}

/**
 * A request was answered and the session settled after it (the old form).
 * @deprecated Use `answeredAndSettled(rec, seq, { session })` from "ccrepro/checkers". */
export function answeredAndSettled(rec: Recordings, seq: number, session?: SessionRecording): boolean {
  deprecated("answeredAndSettled from \"ccrepro\"", 'answeredAndSettled from "ccrepro/checkers"');
  return settled(rec, seq, session ? { session: session.label } : {});
}

/**
 * Whether a session answered its prompt (the old form).
 * @deprecated Use the wait condition `promptAnswered(s1, { prompt })`. */
export function promptAnsweredIn(label: string, prompt = 0) {
  deprecated("promptAnsweredIn(label, prompt)", "promptAnswered(s1, { prompt })");
  return promptAnswered(handle(label), { prompt });
}

/**
 * The verdict of a checker's output (the old form).
 * @deprecated A check returns `{ reached, findings, notes }`; ccrepro applies the verdict rules. */
export function judge(output: CheckerOutput): CheckResult {
  deprecated("judge(…)", "return { reached, findings, notes } from check()");
  return judgeOutput(output);
}


// A checker that moved to "ccrepro/checkers": the same function, warning once where it is still imported from "ccrepro".
const moved = <F extends (...args: never[]) => unknown>(name: string, fn: F): F =>
  ((...args: Parameters<F>) => {
    deprecated(`${name} from "ccrepro"`, `import { ${name} } from "ccrepro/checkers"`);
    return fn(...args);
  }) as F;

/**
 * Moved to "ccrepro/checkers".
 * @deprecated Import it from "ccrepro/checkers". */
export const checkHookPrompts = moved("checkHookPrompts", checkers.checkHookPrompts);
/**
 * Moved to "ccrepro/checkers".
 * @deprecated Import it from "ccrepro/checkers". */
export const notificationDeliveries = moved("notificationDeliveries", checkers.notificationDeliveries);
/**
 * Moved to "ccrepro/checkers".
 * @deprecated Import it from "ccrepro/checkers". */
export const checkTurnGrammar = moved("checkTurnGrammar", checkers.checkTurnGrammar);
/**
 * Moved to "ccrepro/checkers".
 * @deprecated Import it from "ccrepro/checkers". */
export const checkContinuation = moved("checkContinuation", checkers.checkContinuation);
/**
 * Moved to "ccrepro/checkers".
 * @deprecated Import it from "ccrepro/checkers". */
export const checkInterruptedCall = moved("checkInterruptedCall", checkers.checkInterruptedCall);
/**
 * Moved to "ccrepro/checkers".
 * @deprecated Import it from "ccrepro/checkers". */
export const checkNotificationStability = moved("checkNotificationStability", checkers.checkNotificationStability);
/**
 * Moved to "ccrepro/checkers".
 * @deprecated Import it from "ccrepro/checkers". */
export const auditCache = moved("auditCache", checkers.auditCache);
/**
 * Moved to "ccrepro/checkers".
 * @deprecated Import it from "ccrepro/checkers". */
export const finding = moved("finding", parsedFinding);
