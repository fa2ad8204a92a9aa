// The capabilities a release may have and what a scenario can need, by name: plain data, apart from the probe that
// reads them from a binary (releases/capabilities.ts), so the kit a scenario file imports loads no process library.

// What a release can do, as far as scenarios and the harness care. Each is read from `--help` and the bundle's bytes
// (no run needed); the comment says the first release measured to have it.
export const CAPABILITIES = [
  "stream-json-input", // `-p --input-format stream-json`: 1.0.21
  "stream-json-output", // `--output-format stream-json`: 0.2.126
  "model-flag", // `--model`: 1.0.0
  "allowed-tools-flag", // `--allowedTools`: 0.2.126
  "resume", // `--resume <id>`: 0.2.126
  "session-id-flag", // `--session-id`: 1.0.72
  "root-sandbox-escape", // IS_SANDBOX=1 lets --dangerously-skip-permissions run as root: 1.0.44
  "honours-no-proxy", // the API client skips HTTPS_PROXY for NO_PROXY hosts: 1.0.93
  "background-bash", // Bash `run_in_background`: 1.0.69
  "background-subagent", // Task/Agent `run_in_background`: 2.0.77 (not 2.0.0)
  "task-notification", // `<task-notification>` text reaches the model: 2.0.77 (not 2.0.0)
  "stream-task-events", // stream-json `system/task_started` and `task_notification`: 2.1.112 (not 2.1.0)
  "send-message", // the SendMessage tool, compiled in: 2.1.112 (offered by default only later; see the README)
  "interactive-background", // the interactive `/background` command: 2.1.150 (not 2.1.113)
] as const;
export type Capability = (typeof CAPABILITIES)[number];

// What a scenario can need: a capability, or a hook event by name (`hook:UserPromptSubmit`).
export type Need = Capability | `hook:${string}`;

// How a missing need reads in an UNSUPPORTED verdict: "needs `--input-format stream-json`".
const NEED_TEXT: Record<Capability, string> = {
  "stream-json-input": "`--input-format stream-json`",
  "stream-json-output": "`--output-format stream-json`",
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
  return need.startsWith("hook:") ? `the ${need.slice("hook:".length)} hook event` : NEED_TEXT[need as Capability];
}

// Pure: the needs the release lacks, in the order the scenario declared them.
export function missingNeeds(needs: readonly Need[], probe: { capabilities: readonly Capability[]; hookEvents: readonly string[] }): Need[] {
  return needs.filter((need) =>
    need.startsWith("hook:") ? !probe.hookEvents.includes(need.slice("hook:".length)) : !probe.capabilities.includes(need as Capability),
  );
}
