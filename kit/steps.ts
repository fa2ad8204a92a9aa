// The step kinds as one call each, so a scenario's steps read as what the driver does. Thin: each returns the
// harness's own Step object (harness/plan.ts documents every field).
import type { CommandView, StopHow, Step, TerminalKey, TerminalView } from "../harness/plan.ts";

/** End a headless session: close its stdin, wait up to graceMs, then send the signal ("stdin": none). */
export const stop = (session: string, how: StopHow, graceMs = 0): Step => ({ kind: "stop", session, how, graceMs });

/** Start session `session` with `claude --resume <the session id of an earlier session>` and push a prompt. */
export const resume = (session: string, from: string, prompt: string): Step[] => [
  { kind: "start", session, resume: from },
  { kind: "send", session, message: { text: prompt } },
];

/** Push one more prompt into a running headless session. */
export const send = (session: string, prompt: string): Step => ({ kind: "send", session, message: { text: prompt } });

/** Run `claude <args>` (e.g. ["agents", "--json"]) in the run's environment and record its output. */
export const command = (label: string, args: string[] | ((view: CommandView) => string[]), timeoutMs = 30_000): Step => ({ kind: "command", label, args, timeoutMs });

/** The interactive UI in a pseudo-terminal, and what a person does in it. */
export const terminal = (session: string, size: { cols?: number; rows?: number } = {}): Step => ({ kind: "terminal", session, ...size });
export const type = (session: string, text: string): Step => ({ kind: "type", session, text });
export const press = (session: string, ...keys: TerminalKey[]): Step => ({ kind: "press", session, keys });
export const screenWait = (session: string, label: string, until: (view: TerminalView) => boolean, timeoutMs: number, options: { onTimeout?: "error" | "inconclusive" } = {}): Step => ({
  kind: "screen-wait",
  session,
  label,
  until,
  timeoutMs,
  onTimeout: options.onTimeout ?? "inconclusive",
});

/** A deliberate pause (a parameter's delay), never a way to wait for an event: use waitFor for that. */
export const pause = (label: string, ms: number): Step => ({ kind: "pause", label, ms });
