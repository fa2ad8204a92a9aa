// Which stream and step a Messages request belongs to, and which scripted reply answers it.
import { textsOf, toolNamesOf, type MessagesRequest } from "./messages-request.ts";
import type { MockScript, Reply, StreamRule } from "./script.ts";

export interface Classification {
  stream: string;
  // The number of assistant messages already in the conversation.
  step: number;
}

function ruleHolds(rule: StreamRule, request: MessagesRequest, path: string): boolean {
  const userMessages = request.messages.filter((message) => message.role === "user");
  const toolNames = toolNamesOf(request);
  const contains = (texts: string[], needle: string) => texts.some((text) => text.includes(needle));
  const checks: Array<[string | undefined, (needle: string) => boolean]> = [
    [rule.firstUserContains, (needle) => contains(textsOf(userMessages[0]?.content), needle)],
    [rule.anyUserContains, (needle) => userMessages.some((message) => contains(textsOf(message.content), needle))],
    [rule.systemContains, (needle) => contains(textsOf(request.system), needle)],
    [rule.hasTool, (name) => toolNames.includes(name)],
    [rule.lacksTool, (name) => !toolNames.includes(name)],
    [rule.path, (wanted) => wanted === path],
  ];
  return checks.every(([condition, holds]) => condition === undefined || holds(condition));
}

// `path` is the request's URL path without the query string.
export function classifyRequest(script: MockScript, request: MessagesRequest, path: string): Classification {
  const rule = script.streams.find((candidate) => ruleHolds(candidate, request, path));
  return {
    stream: rule?.stream ?? script.defaultStream,
    step: request.messages.filter((message) => message.role === "assistant").length,
  };
}

export function pickReply(script: MockScript, { stream, step }: Classification): Reply {
  const replies = script.replies[stream];
  if (replies === undefined) return script.fallback;
  if (Array.isArray(replies)) return replies[step] ?? script.fallback;
  return replies[String(step)] ?? replies["*"] ?? script.fallback;
}
