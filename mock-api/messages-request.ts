// The parts of an inbound Messages API request the mock reads, validated at the edge; everything else passes through.
import { z } from "zod";

const contentBlock = z.looseObject({ type: z.string(), text: z.unknown().optional() });
const content = z.union([z.string(), z.array(contentBlock)]);

export const messagesRequestSchema = z.looseObject({
  model: z.string(),
  messages: z.array(z.looseObject({ role: z.string(), content })),
  stream: z.boolean().optional(),
  system: content.optional(),
  // Server tools carry a name too, but nothing here depends on every entry having one.
  tools: z.array(z.looseObject({ name: z.string().optional() })).optional(),
});

export type MessagesRequest = z.infer<typeof messagesRequestSchema>;

// The text blocks of a message (or system prompt), each on its own so a marker never matches across two blocks.
export function textsOf(value: z.infer<typeof content> | undefined): string[] {
  if (value === undefined) return [];
  if (typeof value === "string") return [value];
  return value.flatMap((block) => (block.type === "text" && typeof block.text === "string" ? [block.text] : []));
}

export function toolNamesOf(request: MessagesRequest): string[] {
  return (request.tools ?? []).flatMap((tool) => (tool.name === undefined ? [] : [tool.name]));
}

// Whether any message carries a content block of this type, at the top level or inside a tool_result's content.
export function carriesBlock(request: MessagesRequest, type: string): boolean {
  const found = (blocks: unknown): boolean =>
    Array.isArray(blocks) &&
    blocks.some((block: { type?: unknown; content?: unknown } | null) => block?.type === type || (block?.type === "tool_result" && found(block.content)));
  return request.messages.some((message) => found(message.content));
}
