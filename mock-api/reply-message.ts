// Turns a scripted reply into the concrete assistant Message the API would return for one request.
import type { ContentBlock, Reply } from "./script.ts";
import { paddedSeq } from "./log-entry.ts";
import { fillInputTemplates } from "./input-template.ts";
import { toolNamesOf, type MessagesRequest } from "./messages-request.ts";
import { signThinking } from "./thinking-signature.ts";

export type ApiContentBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | { type: "thinking"; thinking: string; signature: string };

export interface ApiUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface ApiMessage {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: ApiContentBlock[];
  stop_reason: string;
  stop_sequence: null;
  usage: ApiUsage;
}

export interface MessageContext {
  seq: number;
  model: string;
  // The request being answered: its tool names choose among a block's candidate names, its tool results fill templates.
  request: MessagesRequest;
}

function resolveToolName(name: string | string[], offered: readonly string[]): string {
  if (typeof name === "string") return name;
  // The schema guarantees at least one candidate.
  return name.find((candidate) => offered.includes(candidate)) ?? name[0]!;
}

function resolveBlock(block: ContentBlock, index: number, context: MessageContext): ApiContentBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "thinking":
      return { type: "thinking", thinking: block.thinking, signature: block.signed ? signThinking(block.thinking) : block.signature };
    case "tool_use":
      return {
        type: "tool_use",
        id: block.id ?? `toolu_mock_${context.seq}_${index}`,
        name: resolveToolName(block.name, toolNamesOf(context.request)),
        input: fillInputTemplates(block.input, context.request),
      };
  }
}

function messageId(seq: number): string {
  return `msg_mock_${paddedSeq(seq)}`;
}

export function stopReasonOf(reply: Reply): string {
  return reply.stopReason ?? (reply.content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn");
}

export function renderMessage(reply: Reply, context: MessageContext): ApiMessage {
  return {
    id: messageId(context.seq),
    type: "message",
    role: "assistant",
    model: context.model,
    content: reply.content.map((block, index) => resolveBlock(block, index, context)),
    stop_reason: stopReasonOf(reply),
    stop_sequence: null,
    usage: { ...reply.usage },
  };
}

// A one-line description of the reply for the request index, e.g. `tool_use:Agent + text:"done"`.
export function summariseContent(content: readonly ApiContentBlock[]): string {
  if (content.length === 0) return "(no content)";
  const clip = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
  return content
    .map((block) => {
      if (block.type === "tool_use") return `tool_use:${block.name}`;
      if (block.type === "thinking") return `thinking:${clip(block.thinking)}`;
      return `text:${clip(block.text)}`;
    })
    .join(" + ");
}
