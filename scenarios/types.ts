// What a scenario is: data (mock script, steps, parameters, expectations) plus its pure check. No processes here.
import type { z } from "zod";
import type { CheckResult, Verdict } from "../checker/verdict.ts";
import type { Recordings } from "../harness/recordings.ts";
import type { MockScriptInput } from "../mock-api/script.ts";

// A stdin line: a user message's text, or any stream-json object (e.g. a control request).
export type StdinMessage = { text: string } | { json: Record<string, unknown> };

export type StopHow = "stdin" | "sigterm" | "sigkill";

export type Step =
  // Start a `-p` stream-json session. `resume` names an earlier session of this run whose session id is resumed.
  | { kind: "start"; session: string; resume?: string; extraArgs?: string[] }
  | { kind: "send"; session: string; message: StdinMessage }
  // Wait until the predicate holds on what the run recorded so far; fails the run (ERROR) when timeoutMs passes,
  // unless `onTimeout: "inconclusive"`, which ends the run and lets the checker say what was not reached.
  | {
      kind: "wait";
      label: string;
      until: (rec: Recordings) => boolean;
      timeoutMs: number;
      onTimeout?: "error" | "inconclusive";
    }
  // Close stdin, wait up to graceMs for the process to exit, then send the signal (none for "stdin").
  | { kind: "stop"; session: string; how: StopHow; graceMs: number }
  // A deliberate pause the scenario asks for (e.g. a prompt delay parameter). Never used to wait for an event.
  | { kind: "pause"; label: string; ms: number }
  // Start the interactive UI in a pseudo-terminal (cols × rows) and wait for its prompt; a dialog fails the run.
  | { kind: "terminal"; session: string; extraArgs?: string[]; cols?: number; rows?: number }
  // Type text into the UI as one chunk, like a paste; keys such as Enter are pressed with "press".
  | { kind: "type"; session: string; text: string }
  | { kind: "press"; session: string; keys: TerminalKey[] }
  // Like "wait", with the terminal's screen in view as well.
  | {
      kind: "screen-wait";
      session: string;
      label: string;
      until: (view: TerminalView) => boolean;
      timeoutMs: number;
      onTimeout?: "error" | "inconclusive";
    }
  // Watch the recordings until the predicate holds or timeoutMs passes; either way the run goes on, and the checker
  // judges what was seen (for events whose absence is the finding, e.g. a turn nobody continues).
  | { kind: "watch"; label: string; until: (rec: Recordings) => boolean; timeoutMs: number }
  // Run `claude <args>` as one more process of the run (same environment and working directory) and record its output.
  // Arguments computed as null mean there is nothing to run it on (say, no session to stop): the step is skipped.
  | { kind: "command"; label: string; args: string[] | ((view: CommandView) => string[] | null); timeoutMs: number }
  // Wait until the run has no `claude daemon run` process left (the daemon detaches, so no process group reaches it).
  | { kind: "daemon-exit"; label: string; timeoutMs: number };

// Keys a terminal step presses, by name.
export type TerminalKey = "enter" | "escape" | "tab" | "shift-tab" | "backspace" | "up" | "down" | "left" | "right" | "ctrl-b" | "ctrl-c" | "ctrl-d";

// What a terminal wait sees: the session's screen as text (its last screen once it exited) and the run's recordings.
export interface TerminalView {
  screen: string;
  exited: boolean;
  rec: Recordings;
}

// What a helper command's arguments may be computed from: each terminal's screen by session label, the recordings,
// and the output of the helper commands run before it, by step label (the last one run under a label).
export interface CommandView {
  screens: Record<string, string>;
  rec: Recordings;
  commands: Record<string, CommandOutput>;
}

export interface CommandOutput {
  exitCode: number | null;
  stdout: string;
}

export interface HookCapture {
  // Hook events to register: explicit names, or "all" = every event the release under test reports knowing.
  events: string[] | "all";
}

export interface KnownState {
  // A semver range of releases.
  versions: string;
  // Parameter values the entry was measured with; the defaults when absent.
  params?: Record<string, unknown>;
  verdict: Verdict;
  finding?: string;
  note: string;
}

export interface Scenario<P extends z.ZodType<Record<string, unknown>> = z.ZodType<Record<string, unknown>>> {
  name: string;
  summary: string;
  // The bug report this scenario reproduces (a seed file name or a link).
  source: string;
  params: P;
  mockScript(params: z.output<P>): MockScriptInput;
  hooks?: HookCapture;
  // Names of variables to pass from the caller's environment; nothing else of it reaches the binary.
  passEnv?: string[];
  // What the driver does, in order; a step's own timeout bounds every wait.
  steps(params: z.output<P>): Step[];
  // Pure: the recordings in, the verdict out. Must not report GREEN when the run did not reach its point.
  check(rec: Recordings, params: z.output<P>): CheckResult;
  // Findings that make this scenario RED are decided inside check(); this lists what is known per release.
  known: KnownState[];
  // Upper bound for the whole run, as a safety net on top of every step's own timeout.
  timeoutMs: number;
}

export function defineScenario<P extends z.ZodType<Record<string, unknown>>>(scenario: Scenario<P>): Scenario<P> {
  return scenario;
}
