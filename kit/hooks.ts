// Hooks a scenario declares: events to record, and hooks that answer (allow, block, exit 2, a JSON decision, the
// author's own shell command, a list by call index), in whichever settings source the bug needs. Payloads and answers are recorded byte-exact.
import type { HookAnswerRule, HookCapture, HookReply, HookSource } from "../harness/plan.ts";
import { ScenarioDefinitionError } from "./definition-error.ts";

/**
 * What one hook call answers: an exit code, and what it prints on stdout (text, or JSON made from an object) and
 * stderr; or, made by `shell(…)`, the author's own command.
 */
export type HookAnswerReply = FixedReply | ShellReply;

/** A fixed answer: an exit code, and what the hook prints on stdout (text, or JSON made from an object) and stderr. */
export interface FixedReply {
  exitCode: number;
  stdout?: string | Record<string, unknown>;
  stderr?: string;
}

/** The author's own hook command, as `shell(…)` makes it. */
export interface ShellReply {
  shell: string;
}

/**
 * Runs your own shell command as the hook, as your settings.json would: bash runs it with the payload on stdin, in
 * the session's environment (`$CLAUDE_PROJECT_DIR`, …) and working directory; its exit code and output go to claude.
 * The payload, exit code, output (byte-exact, `HookRecord.answer.stdout`/`stderr`) and, when claude ended it at its
 * `timeout`, the signal are recorded.
 *
 * @example answer("SessionEnd", shell('touch "$CLAUDE_PROJECT_DIR/marker-SessionEnd"'))
 */
export const shell = (command: string): ShellReply => ({ shell: command });

/**
 * Exit 0 and print nothing: the hook lets the action go on.
 *
 * @example answer("PreToolUse", allow(), { matcher: "Bash" })
 */
export const allow = (): HookAnswerReply => ({ exitCode: 0 });

/**
 * Exit 2 with `stderr`: the blocking exit code. PreToolUse blocks the call and shows the model the text; Stop and
 * SubagentStop make claude continue; UserPromptSubmit erases the prompt.
 *
 * @example answer("PreToolUse", exit2("writes are not allowed"), { matcher: "Bash" })
 */
export const exit2 = (stderr: string): HookAnswerReply => ({ exitCode: 2, stderr });

/**
 * Exit 0 with `{"decision":"block","reason":…}`: Stop / SubagentStop continue with the reason as the next prompt;
 * PostToolUse and UserPromptSubmit show it.
 *
 * @example answer("Stop", block("keep going"))
 */
export const block = (reason: string): HookAnswerReply => ({ exitCode: 0, stdout: { decision: "block", reason } });

/**
 * PreToolUse's JSON decision: `permissionDecision` deny, ask or allow with a reason (`hookEventName` is filled in).
 *
 * @example answer("PreToolUse", permission("deny", "no writes"), { matcher: "Bash" })
 */
export const permission = (decision: "deny" | "ask" | "allow", reason: string): HookAnswerReply => ({
  exitCode: 0,
  stdout: { hookSpecificOutput: { permissionDecision: decision, permissionDecisionReason: reason } },
});

/**
 * Add `text` to the model's context (`hookSpecificOutput.additionalContext`; UserPromptSubmit, SessionStart, …).
 *
 * @example answer("UserPromptSubmit", context("the build is red"))
 */
export const context = (text: string): HookAnswerReply => ({ exitCode: 0, stdout: { hookSpecificOutput: { additionalContext: text } } });

/**
 * Any answer: an exit code with stdout (an object is printed as JSON) and stderr.
 *
 * @example answer("Stop", reply({ exitCode: 0, stdout: { continue: false, stopReason: "done" } }))
 */
export const reply = (answer: HookAnswerReply): HookAnswerReply => answer;

/** A hook that answers, as the scenario's `hooks.answer` lists them. */
export interface HookAnswer {
  event: string;
  matcher?: string;
  replies: HookAnswerReply[];
  /** The hook's `timeout` in seconds: claude ends a hook that runs longer. Default 10, or for `shell` replies none (claude's own default for the event, as in the author's settings). */
  timeout?: number;
}

/**
 * A hook for `event` that answers each call: one reply for every call, or a list by call index (the last repeats).
 * `matcher` is the tool-name pattern of tool events (default "*"); `timeout` the hook's timeout in seconds (default 10;
 * for `shell` replies none, so claude's own default for the event applies).
 *
 * @example answer("Stop", [block("once more"), allow()])
 */
export function answer(event: string, replies: HookAnswerReply | HookAnswerReply[], options: { matcher?: string; timeout?: number } = {}): HookAnswer {
  const list = Array.isArray(replies) ? replies : [replies];
  if (list.length === 0) throw new ScenarioDefinitionError([`answer("${event}"): give at least one reply`], "Give the hook a reply, e.g. answer(event, allow())");
  return { event, ...(options.matcher ? { matcher: options.matcher } : {}), replies: list, ...(options.timeout === undefined ? {} : { timeout: options.timeout }) };
}

/** The hooks a scenario declares. */
export interface HooksDeclaration {
  /** Events to record (payloads byte-exact): names, or "all" the release knows. */
  record?: string[] | "all";
  /** Hooks that answer; their calls are recorded too. */
  answer?: HookAnswer[];
  /**
   * Where the hook entries are declared: "user" (default: the run's user settings.json), "project" (the working
   * directory's `.claude/settings.json`; add "project" to `settingSources`) or "flag" (`--settings <file>`).
   */
  source?: HookSource;
}

// An object stdout is printed as JSON; a hookSpecificOutput gets the event's name, which claude requires.
function harnessReply(event: string, answer: HookAnswerReply): HookReply {
  if ("shell" in answer) return { shell: answer.shell };
  const { stdout } = answer;
  const printed =
    stdout === undefined || typeof stdout === "string"
      ? stdout
      : JSON.stringify("hookSpecificOutput" in stdout ? { ...stdout, hookSpecificOutput: { hookEventName: event, ...(stdout.hookSpecificOutput as object) } } : stdout);
  return { exitCode: answer.exitCode, ...(printed === undefined ? {} : { stdout: printed }), ...(answer.stderr === undefined ? {} : { stderr: answer.stderr }) };
}

/** The harness's hook capture for a declaration (internal: the pipeline's). */
export function hookCapture(hooks: HooksDeclaration | undefined): HookCapture | undefined {
  if (!hooks) return undefined;
  const answers: HookAnswerRule[] = (hooks.answer ?? []).map((rule) => ({
    event: rule.event,
    ...(rule.matcher ? { matcher: rule.matcher } : {}),
    replies: rule.replies.map((r) => harnessReply(rule.event, r)),
    ...(rule.timeout === undefined ? {} : { timeoutSeconds: rule.timeout }),
  }));
  return { events: hooks.record ?? [], ...(answers.length ? { answers } : {}), ...(hooks.source ? { source: hooks.source } : {}) };
}
