// Tool inputs that quote the conversation: `{{toolResult:REGEX}}` becomes REGEX's first group in the newest tool result.
// A script is data written before the run, but some replies must name what the binary made up during it
// (e.g. SendMessage to the agentId an Agent call returned).
import type { MessagesRequest } from "./messages-request.ts";

const PLACEHOLDER = /\{\{toolResult:(.+?)\}\}/g;

// Every tool result's text, newest first.
function toolResultTexts(request: MessagesRequest): string[] {
  const texts: string[] = [];
  for (const message of request.messages) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type !== "tool_result") continue;
      const content = (block as { content?: unknown }).content;
      if (typeof content === "string") texts.push(content);
      else if (Array.isArray(content)) {
        for (const part of content) if (typeof part?.text === "string") texts.push(part.text);
      }
    }
  }
  return texts.reverse();
}

function fill(text: string, results: string[]): string {
  return text.replace(PLACEHOLDER, (placeholder, pattern: string) => {
    const regex = new RegExp(pattern);
    for (const result of results) {
      const match = regex.exec(result);
      if (match) return match[1] ?? match[0];
    }
    // Left as written: the model would have had nothing to quote either, and the log shows why.
    return placeholder;
  });
}

export function fillInputTemplates(input: Record<string, unknown>, request: MessagesRequest): Record<string, unknown> {
  if (!JSON.stringify(input).includes("{{toolResult:")) return input;
  const results = toolResultTexts(request);
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return fill(value, results);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return walk(input) as Record<string, unknown>;
}
