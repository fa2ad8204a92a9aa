// Reply builders for scenario scripts, so each scenario reads as the conversation it scripts.
import type { z } from "zod";
import type { replySchema } from "../mock-api/script.ts";

export type ReplyInput = z.input<typeof replySchema>;

export const text = (value: string): ReplyInput => ({ content: [{ type: "text", text: value }] });

export const toolCall = (name: string | string[], input: Record<string, unknown>): ReplyInput => ({
  content: [{ type: "tool_use", name, input }],
});

export const bash = (command: string, description: string, options: { background?: boolean } = {}): ReplyInput =>
  toolCall("Bash", options.background ? { command, description, run_in_background: true } : { command, description });

/** A foreground wait that is not a bare `sleep`: recent releases refuse a long bare sleep as a foreground call. */
export const nodeWait = (ms: number) => `node -e "setTimeout(() => {}, ${ms})"`;

/** A thinking block before the reply's other content (text, tool calls): `thinking("plan it", text("done"))`. */
export const thinking = (thought: string, then: ReplyInput = { content: [] }): ReplyInput => ({
  ...then,
  content: [{ type: "thinking", thinking: thought }, ...(then.content ?? [])],
});

/**
 * Launch a subagent: the Agent tool (Task on older releases, whichever the request offers). Its own requests have
 * `prompt` as their first user message, so put a marker in it and give the subagent a stream of its own.
 */
export const subagent = (prompt: string, description: string, options: { background?: boolean; type?: string } = {}): ReplyInput =>
  toolCall(["Agent", "Task"], {
    description,
    prompt,
    subagent_type: options.type ?? "general-purpose",
    ...(options.background ? { run_in_background: true } : {}),
  });
