// The capabilities a release may have and what a scenario can need, by name: plain data, apart from the probe that
// reads them from a binary (releases/capabilities.ts), so the kit a scenario file imports loads no process library.

// What a release can do, as far as scenarios and the harness care. Each is read from `--help` and the bundle's bytes
// (no run needed); the comment says the first release measured to have it.
export const CAPABILITIES = [
  "stream-json-input", // `-p --input-format stream-json`: 1.0.21
  "stream-json-output", // `--output-format stream-json`: 0.2.126
  "stream-json-input-blocks", // a stream-json user message of several content blocks: 1.0.63 (1.0.21–1.0.62 exit 1 "Expected message content to have exactly one item")
  "stream-json-interrupt", // a stream-json `control_request` interrupt on stdin: 1.0.45 (1.0.21–1.0.44 exit "Expected message type 'user'")
  "model-flag", // `--model`: 1.0.0
  "allowed-tools-flag", // `--allowedTools`: 0.2.126
  "resume", // `--resume <id>`: 0.2.126
  "session-id-flag", // `--session-id`: 1.0.72
  "root-sandbox-escape", // IS_SANDBOX=1 lets --dangerously-skip-permissions run as root: 1.0.44
  "honours-no-proxy", // the API client skips HTTPS_PROXY for NO_PROXY hosts: 1.0.93
  "background-bash", // Bash `run_in_background`: 1.0.69
  "background-subagent", // Task/Agent `run_in_background`: 2.0.77 (not 2.0.0)
  "task-notification", // `<task-notification>` text reaches the model: 2.0.67 (not 2.0.65; the atlas's probes)
  "stream-task-events", // stream-json `system/task_started` and `task_notification`: 2.1.45 (not 2.1.44; the atlas's probes)
  "send-message", // the SendMessage tool, compiled in: 2.1.112 (offered by default only later; see the README)
  "interactive-background", // the interactive `/background` command: 2.1.119 (not 2.1.118; the atlas's probes)
] as const;
export type Capability = (typeof CAPABILITIES)[number];

// Tools a scenario can need by name (`tool:Monitor`), each found in the bundle by a marker the probe reads; the
// comment says the first release measured to have it. Compiled in is not switched on: a release may keep a tool
// behind a flag (2.1.210–2.1.218 gate Monitor on `tengu_amber_sentinel`) or offer it only through ToolSearch, which
// the scenario then turns on itself (its environment, its fixtures). A release without the marker cannot run it at all.
export const TOOLS = [
  "Monitor", // its description "Start a background monitor…": 2.1.98 (not 2.1.97)
  "ToolSearch", // its name as a constant or user-facing name: 2.1.14 (not 2.1.12)
] as const;
export type Tool = (typeof TOOLS)[number];

// What a scenario can need: a capability, a hook event by name (`hook:UserPromptSubmit`), a tool (`tool:Monitor`) or a
// command-line option its steps pass (`flag:--fallback-model`), found among the options the release declares, hidden
// ones too, so a release without it is UNSUPPORTED rather than an ERROR "unknown option".
export type Need = Capability | `hook:${string}` | `tool:${Tool}` | `flag:--${string}`;

// How a missing need reads in an UNSUPPORTED verdict: "needs `--input-format stream-json`".
const NEED_TEXT: Record<Capability, string> = {
  "stream-json-input": "`--input-format stream-json`",
  "stream-json-output": "`--output-format stream-json`",
  "stream-json-interrupt": "a stream-json `control_request` interrupt",
  "stream-json-input-blocks": "a stream-json user message of several content blocks",
  "model-flag": "`--model`",
  "allowed-tools-flag": "`--allowedTools`",
  resume: "`--resume`",
  "session-id-flag": "`--session-id`",
  "root-sandbox-escape": "`--dangerously-skip-permissions` as root (IS_SANDBOX=1)",
  "honours-no-proxy": "NO_PROXY honoured by the API client",
  "background-bash": "background Bash (`run_in_background`)",
  "background-subagent": "background subagents (Task/Agent `run_in_background`)",
  "task-notification": "`<task-notification>` messages to the model",
  "stream-task-events": "stream-json `system/task_started` events",
  "send-message": "the SendMessage tool",
  "interactive-background": "the interactive `/background` command",
};

export function describeNeed(need: Need): string {
  if (need.startsWith("hook:")) return `the ${need.slice("hook:".length)} hook event`;
  if (need.startsWith("tool:")) return `the ${need.slice("tool:".length)} tool`;
  if (need.startsWith("flag:")) return `the \`${need.slice("flag:".length)}\` option`;
  return NEED_TEXT[need as Capability];
}

// The four forms a need takes, for a scenario file's error message.
export const NEED_FORMS = `a capability (${CAPABILITIES.join(", ")}), hook:EventName, ${TOOLS.map((tool) => `tool:${tool}`).join(", ")}, or flag:--option`;

export function isNeed(name: string): name is Need {
  if (name.startsWith("hook:")) return /^hook:[A-Za-z]+$/.test(name);
  if (name.startsWith("tool:")) return (TOOLS as readonly string[]).includes(name.slice("tool:".length));
  if (name.startsWith("flag:")) return /^flag:--[a-z][a-z0-9-]*$/.test(name);
  return (CAPABILITIES as readonly string[]).includes(name);
}

/** What a probe says a release has, as far as needs are concerned. */
export interface ProbedHas {
  capabilities: readonly Capability[];
  hookEvents: readonly string[];
  tools: readonly Tool[];
  flags: readonly string[];
}

// Pure: the needs the release lacks, in the order the scenario declared them.
export function missingNeeds(needs: readonly Need[], probe: ProbedHas): Need[] {
  return needs.filter((need) => {
    if (need.startsWith("hook:")) return !probe.hookEvents.includes(need.slice("hook:".length));
    if (need.startsWith("tool:")) return !probe.tools.includes(need.slice("tool:".length) as Tool);
    if (need.startsWith("flag:")) return !probe.flags.includes(need.slice("flag:".length));
    return !probe.capabilities.includes(need as Capability);
  });
}
