// What the harness and the Agent SDK child process say to each other: the plan (argv file) and the stdin commands.
// Plain JS, because the child runs in a bare node without tsx; typed for the harness by sdk-child-protocol.d.mts.
import { z } from "zod";

export const sdkPlanSchema = z.strictObject({
  // The installed package's directory (the one holding sdk.mjs).
  sdkDir: z.string().min(1),
  pathToClaudeCodeExecutable: z.string().min(1),
  // Passed as the SDK's `env` option, which replaces the CLI's whole environment: the full isolated set.
  env: z.record(z.string(), z.string()),
  cwd: z.string().min(1),
  model: z.string().min(1),
  // The session id to resume, or null for a new session.
  resume: z.string().min(1).nullable(),
  // Further query() options as they are (permissionMode, settingSources, debugFile, extraArgs, …).
  options: z.record(z.string(), z.unknown()).default({}),
  // Where to record the CLI's own stdin and stdout ({t, raw} per line), beneath the SDK; null: the SDK spawns it itself.
  cliStreams: z.strictObject({ stdin: z.string().min(1), stdout: z.string().min(1) }).nullable().default(null),
});

export const sdkCommandSchema = z.union([
  // `text` becomes {type:"user",message:{role:"user",content:text}}; `json` is pushed as it is.
  z.strictObject({ op: z.literal("send"), text: z.string() }),
  z.strictObject({ op: z.literal("send"), json: z.record(z.string(), z.unknown()) }),
  z.strictObject({ op: z.literal("end-input") }),
  z.strictObject({ op: z.literal("interrupt") }),
  z.strictObject({ op: z.literal("abort") }),
  // The orchestrators' graceful close: end the input, then abort after `ms` unless the query ended by itself.
  z.strictObject({ op: z.literal("close-then-abort"), ms: z.number().int().min(0).max(600_000) }),
]);

export function parsePlan(value) {
  return sdkPlanSchema.parse(value);
}

// One stdin line to a command, or an error message naming what was wrong (the child reports it and goes on).
export function parseCommand(line) {
  let value;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, error: `not JSON: ${error.message}` };
  }
  const parsed = sdkCommandSchema.safeParse(value);
  return parsed.success ? { ok: true, command: parsed.data } : { ok: false, error: z.prettifyError(parsed.error) };
}

// The streaming-input message a `send` pushes, shaped as the headless driver writes it to stdin.
export function userMessage(command) {
  return "json" in command ? command.json : { type: "user", message: { role: "user", content: command.text } };
}

// The last stderr line, so the harness can tell the child's own end from the CLI's stderr text above it.
export const END_MARKER = "ccreproSdkChild";
export function endLine(outcome, detail) {
  return JSON.stringify({ [END_MARKER]: { outcome, ...detail } });
}

// A stderr line written when the CLI is spawned (with cliStreams): its pid and argv, before anything can kill the child.
export const SPAWNED_MARKER = "ccreproSdkChildSpawned";
