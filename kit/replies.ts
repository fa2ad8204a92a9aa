// Reply builders for scenario scripts, so each scenario reads as the conversation it scripts.
import type { z } from "zod";
import type { replySchema } from "../mock-api/script.ts";

/** One reply the mock plays: content blocks, and optionally a stop reason, usage, a delay or a fault. */
export type ReplyInput = z.input<typeof replySchema>;

/**
 * A reply of one text block.
 *
 * @example text("done")
 */
export const text = (value: string): ReplyInput => ({ content: [{ type: "text", text: value }] });

/**
 * A reply that calls a tool; a list of names uses whichever the request offers (a tool renamed across releases).
 *
 * @example toolCall("Write", { file_path: "out.txt", content: "x" })
 */
export const toolCall = (name: string | string[], input: Record<string, unknown>): ReplyInput => ({
  content: [{ type: "tool_use", name, input }],
});

/**
 * A Bash tool call, in the foreground or with `run_in_background: true`.
 *
 * @example bash("echo hi > out.txt", "write a file")
 */
export const bash = (command: string, description: string, options: { background?: boolean } = {}): ReplyInput =>
  toolCall("Bash", options.background ? { command, description, run_in_background: true } : { command, description });

/**
 * A shell command that waits `ms` in the foreground. Releases refuse a Bash call whose first command is a bare
 * `sleep N` (from 2 s on 2.1.101, from 25 s on 2.1.332: "Blocked: sleep 25 followed by …"); they match the words
 * `sleep N`, so the shell's `command` builtin in front passes, and the wait stays one coreutils process.
 *
 * @example bash(`${foregroundWait(4000)}; echo fg-done`, "wait 4 s")
 */
export const foregroundWait = (ms: number) => `command sleep ${ms / 1000}`;


/**
 * A thinking block before the reply's other content (text, tool calls). `signed`: the block carries the mock's
 * signature of its text, and a request that sends it back changed is one the real API rejects (400 "Invalid
 * `signature` in `thinking` block"), which every run's API conformance findings report. `chunks`: stream the text in
 * that many thinking_delta events (default 1).
 *
 * @example thinking("plan it", text("done"))
 * @example thinking("plan it", bash("echo x", "x"), { signed: true })
 */
export const thinking = (thought: string, then: ReplyInput = { content: [] }, options: { signed?: boolean; chunks?: number } = {}): ReplyInput => ({
  ...then,
  content: [{ type: "thinking", thinking: thought, ...(options.signed ? { signed: true } : {}), ...(options.chunks ? { chunks: options.chunks } : {}) }, ...(then.content ?? [])],
});

/**
 * Launch a subagent: the Agent tool (Task on older releases, whichever the request offers). Its own requests have
 * `prompt` as their first user message, so put a marker in it and give the subagent a stream of its own.
 *
 * @example subagent("SUB_MARKER count to 3", "worker", { background: true })
 */
export const subagent = (prompt: string, description: string, options: { background?: boolean; type?: string } = {}): ReplyInput =>
  toolCall(["Agent", "Task"], {
    description,
    prompt,
    subagent_type: options.type ?? "general-purpose",
    ...(options.background ? { run_in_background: true } : {}),
  });
