// The harness's own vocabulary: what a run plan is made of (mock script, steps, hooks, environment, timeout).
// The harness drives and records a plan; it never sees how a run is judged.
import crypto from "node:crypto";
import type { MockScriptInput } from "../mock-api/script.ts";
import type { Recordings } from "./recordings.ts";

// A stdin line: a user message's text, or any stream-json object (e.g. a control request).
export type StdinMessage = { text: string } | { json: Record<string, unknown> };

// stdin, sigterm and sigkill are the headless driver's; through the SDK driver, "stdin" ends the SDK's input and
// "abort" / "close-then-abort" are its AbortController: at once, or graceMs after ending the input (the graceful close).
export type StopHow = "stdin" | "sigterm" | "sigkill" | "abort" | "close-then-abort";

// How the sessions of a run are driven: `-p` stream-json processes, or the Agent SDK's query() in a child process.
export type SessionDriver = "headless" | "sdk";

export type Step =
  // Start a `-p` stream-json session. `resume` names an earlier session of this run whose session id is resumed;
  // `continueLatest` adds `--continue` (the CLI picks the session); `fork` adds `--fork-session` to either.
  // `extraArgs` go after the harness's own flags.
  | { kind: "start"; session: string; resume?: string; continueLatest?: boolean; fork?: boolean; extraArgs?: string[] }
  | { kind: "send"; session: string; message: StdinMessage }
  // One `claude -p` turn run to its exit (`--output-format stream-json --verbose`), the prompt given as the argument or
  // on stdin (then stdin is closed); recorded as a session like the others. `resume` as for "start". Fails the run when
  // the process is still running after timeoutMs (it is killed then). `resumeFrom` computes the session id to `--resume`
  // from what the run saw (an id only a command printed, e.g. `claude agents --json`); null skips the step.
  | {
      kind: "print";
      session: string;
      prompt: string;
      via?: "arg" | "stdin";
      resume?: string;
      resumeFrom?: (view: CommandView) => string | null;
      continueLatest?: boolean;
      fork?: boolean;
      extraArgs?: string[];
      timeoutMs: number;
      // A turn that would never end by itself: claude is ended (SIGTERM, then SIGKILL) once the step has seen this
      // many API requests or run this long, and the run is judged as it stands (the step's outcome is "ended").
      endAfter?: { requests?: number; ms?: number };
      // --output-format: stream-json (default), json or text.
      output?: "stream-json" | "json" | "text";
    }
  // Wait until the predicate holds on what the run recorded so far; fails the run (ERROR) when timeoutMs passes,
  // unless `onTimeout: "inconclusive"`, which ends the run short of its point (the verdict cannot be GREEN), or
  // "continue", a timeout the scenario allows: the run goes on and the timeout is shown with the verdict.
  | {
      kind: "wait";
      label: string;
      until: (rec: Recordings) => boolean;
      timeoutMs: number;
      onTimeout?: "error" | "inconclusive" | "continue";
    }
  // Close stdin, wait up to graceMs for the process to exit, then send the signal (none for "stdin").
  | { kind: "stop"; session: string; how: StopHow; graceMs: number }
  // Interrupt the current turn: the SDK's interrupt(), or the same control request written to a headless stdin.
  | { kind: "interrupt"; session: string }
  // A deliberate pause the scenario asks for (e.g. a prompt delay parameter). Never used to wait for an event.
  | { kind: "pause"; label: string; ms: number }
  // Start the interactive UI in a pseudo-terminal (cols × rows) and wait for its prompt; a dialog fails the run.
  // `resume`: `--resume` the session id an earlier session reported; `resumeFrom`: one computed from what the run saw
  // (null skips the step).
  | { kind: "terminal"; session: string; extraArgs?: string[]; cols?: number; rows?: number; onEarlyExit?: "check"; resume?: string; resumeFrom?: (view: CommandView) => string | null }
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
      onTimeout?: "error" | "inconclusive" | "continue";
    }
  // Watch the recordings until the predicate holds or timeoutMs passes; either way the run goes on, and the checker
  // judges what was seen (for events whose absence is the finding, e.g. a turn nobody continues).
  | { kind: "watch"; label: string; until: (rec: Recordings) => boolean; timeoutMs: number }
  // Run `claude <args>` as one more process of the run (same environment and working directory) and record its output.
  // Arguments computed as null mean there is nothing to run it on (say, no session to stop): the step is skipped.
  | { kind: "command"; label: string; args: string[] | ((view: CommandView) => string[] | null); timeoutMs: number }
  // Wait until the run has no `claude daemon run` process left (the daemon detaches, so no process group reaches it).
  | { kind: "daemon-exit"; label: string; timeoutMs: number; onTimeout: "error" | "continue" }
  // Rewrite the transcript claude wrote for session `session` (`<config>/projects/*/<its session id>.jsonl`) with
  // `edit` (its text in, the new text out): a corrupt or truncated transcript made by the scenario, recorded as a step.
  | { kind: "edit-transcript"; label: string; session: string; edit: (text: string) => string };

// Keys a terminal step presses, by name.
export type TerminalKey = "enter" | "escape" | "tab" | "shift-tab" | "backspace" | "up" | "down" | "left" | "right" | "ctrl-b" | "ctrl-c" | "ctrl-d" | "ctrl-e" | "ctrl-u";

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
  // Hooks that answer: each rule's command records the payload as the recorder does and then answers. A rule's event
  // is registered even when `events` does not name it.
  answers?: HookAnswerRule[];
  // Where the hook entries are declared: the user settings.json of the run's config dir (default), the project's
  // `.claude/settings.json` in the working directory, or a `--settings <file>` flag on every session.
  source?: HookSource;
}

export type HookSource = "user" | "project" | "flag";

// One hook that answers: for `event` (and the tool-name `matcher` of tool events, "*" when absent), its replies by
// call index (0 = the first call of this rule); calls past the list get the last reply.
export interface HookAnswerRule {
  event: string;
  matcher?: string;
  replies: HookReply[];
  // The hook entry's `timeout` in seconds, after which claude ends the hook (default 10).
  timeoutSeconds?: number;
}

// What a hook command does when called: print `stdout` (a JSON decision, or context), `stderr`, and exit; or run the
// scenario author's own shell command with the payload on its stdin, as the reporter's settings.json would.
export type HookReply = FixedHookReply | ShellHookReply;

export interface FixedHookReply {
  exitCode: number;
  stdout?: string;
  stderr?: string;
}

export interface ShellHookReply {
  shell: string;
}

// One stdio MCP server every session of a run is given (`--mcp-config`): ccrepro's fixture server
// (harness/mcp-fixture-server.mjs, built on the official MCP SDK), which waits `startupDelayMs` before it reads its
// first message and then offers `tools` (claude names them `mcp__<name>__<tool>`). It logs what it sees to
// `mcp/<name>.jsonl` in the run directory.
export interface McpServerPlan {
  name: string;
  tools: string[];
  startupDelayMs: number;
}

// The permissions every session of a run gets: "bypass" (--dangerously-skip-permissions, or --allowedTools where a
// release refuses it as root), or the release's own permission handling with a mode and the rules the scenario lists.
export type PermissionPlan =
  | "bypass"
  | { mode: "default" | "acceptEdits" | "dontAsk" | "plan"; allow?: string[]; deny?: string[] };

// The setting sources every session reads (`--setting-sources`), where the release has the flag.
export type SettingSource = "user" | "project" | "local";

// Where the scenario came from, so the run directory alone can judge it again: a built-in by name, or a file whose
// source the harness copies into the run directory.
export type ScenarioSource = { kind: "builtin"; name: string } | { kind: "file"; path: string; sha256: string; text: string; data?: ScenarioDataFile[] };

// A file the scenario file read while it loaded (a recording beside it), copied beside the run directory's copy.
export interface ScenarioDataFile {
  // Where it is from the scenario file's folder; the copy keeps it there from the run directory's scenario/.
  relative: string;
  bytes: Buffer;
  sha256: string;
}

// Everything the harness needs to record one run; a scenario builds it from its parameters.
// Files a scenario seeds before the first session, by where they go, each `{ relative path: text }`: the working
// directory, the config directory (CLAUDE_CONFIG_DIR: agents/, commands/, .claude.json, settings.json) and HOME.
export interface SeedFiles {
  work?: Record<string, string>;
  config?: Record<string, string>;
  home?: Record<string, string>;
}

export interface RunPlan {
  // The scenario's name and parameters, recorded in run.json as given.
  scenario: string;
  params: Record<string, unknown>;
  script: MockScriptInput;
  steps: Step[];
  hooks?: HookCapture;
  // Names of variables to pass from the caller's environment; nothing else of it reaches the binary.
  passEnv?: string[];
  // Variables the scenario sets (a string) or unsets (null) in every session's environment, after ccrepro's own.
  env?: Record<string, string | null>;
  // Files seeded before the first session: into the working directory, the config directory and HOME.
  files?: SeedFiles;
  // Upper bound for the whole run, as a safety net on top of every step's own timeout.
  timeoutMs: number;
  source?: ScenarioSource;
  // How "start" steps run their sessions; headless when absent. "sdk" needs RecordOptions.sdk.
  driver?: SessionDriver;
  // "bypass" when absent.
  permissions?: PermissionPlan;
  // ["user"] when absent.
  settingSources?: SettingSource[];
  // false: the working directory lies outside every git repository (outside-workdir.ts); else an empty one of its own.
  gitRepository?: boolean;
  // MCP servers every session gets, in one `--mcp-config` file; none when absent.
  mcpServers?: McpServerPlan[];
}

// What a run of a plan does, as one hash: its mock script, steps, hooks, files, environment, permissions, limits. A
// recorded run is the same question as a new one only if this matches: a built-in is matched by name, and a step's
// timeout or a reply changed since asks another (a cut stream's 100 s limit ended runs that 300 s lets finish).
// Functions (a screen predicate) are left out: their text differs between a checkout and a build.
export function planFingerprint(plan: RunPlan): string {
  const { scenario: _scenario, params: _params, source: _source, driver: _driver, ...what } = plan;
  const stable = (value: unknown): unknown => {
    if (value instanceof RegExp) return String(value);
    if (Buffer.isBuffer(value)) return value.toString("base64");
    if (Array.isArray(value)) return value.map(stable);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined && typeof (value as Record<string, unknown>)[key] !== "function")
        .map((key) => [key, stable((value as Record<string, unknown>)[key])]),
    );
  };
  return crypto.createHash("sha256").update(JSON.stringify(stable(what))).digest("hex");
}

