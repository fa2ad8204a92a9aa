// The stream-json events claude prints on stdout, validated line by line at the edge.
import { z } from "zod";

const usage = z.looseObject({
  input_tokens: z.number().optional(),
  output_tokens: z.number().optional(),
  cache_creation_input_tokens: z.number().optional(),
  cache_read_input_tokens: z.number().optional(),
});

const messageContent = z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]);

export const systemEventSchema = z.looseObject({
  type: z.literal("system"),
  subtype: z.string(),
  session_id: z.string().optional(),
  task_id: z.string().optional(),
  tool_use_id: z.string().optional(),
  status: z.string().optional(),
  claude_code_version: z.string().optional(),
});

export const assistantEventSchema = z.looseObject({
  type: z.literal("assistant"),
  message: z.looseObject({ content: messageContent.optional() }),
  parent_tool_use_id: z.string().nullable().optional(),
  session_id: z.string().optional(),
});

export const userEventSchema = z.looseObject({
  type: z.literal("user"),
  message: z.looseObject({ content: messageContent.optional() }),
  parent_tool_use_id: z.string().nullable().optional(),
  session_id: z.string().optional(),
});

export const resultEventSchema = z.looseObject({
  type: z.literal("result"),
  /** How the turn ended: "success", "error_max_turns", "error_during_execution", … */
  subtype: z.string(),
  /** Whether claude reports the turn as failed (an orchestrator's success test). */
  is_error: z.boolean().optional(),
  /** The turns claude counted for it. */
  num_turns: z.number().optional(),
  /** The final answer's text. */
  result: z.string().optional(),
  /** Token counts, as claude adds them up. */
  usage: usage.optional(),
  /** The session the turn belongs to. */
  session_id: z.string().optional(),
  /** What started the turn, on releases that say (`kind` "task-notification" for a background task's). */
  origin: z.looseObject({ kind: z.string() }).optional(),
  /** The last reply's stop reason, on releases that print it. */
  stop_reason: z.string().nullable().optional(),
});

export const otherEventSchema = z.looseObject({ type: z.string() });

export type SystemEvent = z.infer<typeof systemEventSchema>;
export type AssistantEvent = z.infer<typeof assistantEventSchema>;
export type UserEvent = z.infer<typeof userEventSchema>;
export type ResultEvent = z.infer<typeof resultEventSchema>;
export type StreamEvent = SystemEvent | AssistantEvent | UserEvent | ResultEvent | z.infer<typeof otherEventSchema>;

const byType: Record<string, z.ZodType<StreamEvent>> = {
  system: systemEventSchema,
  assistant: assistantEventSchema,
  user: userEventSchema,
  result: resultEventSchema,
};

export type ParsedLine = { ok: true; event: StreamEvent } | { ok: false; error: string };

// Parses one stdout line. A line that is not JSON, or a known event type whose shape is off, is reported, not thrown.
export function parseStreamLine(raw: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, error: `not JSON: ${(error as Error).message}` };
  }
  const base = otherEventSchema.safeParse(value);
  if (!base.success) return { ok: false, error: "not a stream-json event (no string 'type')" };
  const schema = byType[base.data.type] ?? otherEventSchema;
  const parsed = schema.safeParse(value);
  if (!parsed.success) return { ok: false, error: `bad ${base.data.type} event: ${z.prettifyError(parsed.error)}` };
  return { ok: true, event: parsed.data };
}

export const isSystem = (e: StreamEvent, subtype?: string): e is SystemEvent =>
  e.type === "system" && (subtype === undefined || (e as SystemEvent).subtype === subtype);
export const isResult = (e: StreamEvent): e is ResultEvent => e.type === "result";
export const isAssistant = (e: StreamEvent): e is AssistantEvent => e.type === "assistant";
