// Which documented invariants of a Messages API request a body breaks, each with the 400 the real API answers it with.
// Pure: the mock records the result on every request and, in strict mode, answers the first violation as the API would.
import { z } from "zod";
import { isMockSigned, signatureMatches } from "./thinking-signature.ts";

export const conformanceRuleIds = [
  "request-shape",
  "first-message-not-user",
  "empty-message-content",
  "empty-text-block",
  "whitespace-text-block",
  "thinking-signature-missing",
  "thinking-signature-invalid",
  "duplicate-tool-names",
  "cache-control-limit",
  "tool-use-without-result",
  "tool-result-without-use",
  "thinking-dropped-in-tool-loop",
] as const;

export type ConformanceRuleId = (typeof conformanceRuleIds)[number];

export const violationSchema = z.object({
  rule: z.enum(conformanceRuleIds),
  status: z.literal(400),
  errorType: z.literal("invalid_request_error"),
  // The API's error message, with its message index and ids filled in.
  message: z.string(),
  // false: the text is this mock's best guess, not seen in the API's documentation or a public report.
  messageVerified: z.boolean(),
  // The offending message's index in `messages`, null for request-wide rules.
  messageIndex: z.number().int().min(0).nullable(),
  // Where in the body, as a JSONPath: $.messages[3].content[1].
  path: z.string(),
});

export type ConformanceViolation = z.infer<typeof violationSchema>;

// Only what the rules read; every other field passes through unchecked.
const block = z.looseObject({ type: z.string() });
const requestSchema = z.looseObject({
  messages: z.array(z.looseObject({ role: z.string(), content: z.union([z.string(), z.array(block)]) })),
  system: z.union([z.string(), z.array(block)]).optional(),
  tools: z.array(z.looseObject({ name: z.string().optional() })).optional(),
  thinking: z.looseObject({ type: z.string() }).optional(),
});

type Block = z.infer<typeof block>;
type Message = z.infer<typeof requestSchema>["messages"][number];

const blocksOf = (message: Message | undefined): Block[] =>
  message === undefined ? [] : typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
const messagePath = (index: number, contentIndex?: number) =>
  `$.messages[${index}]${contentIndex === undefined ? "" : `.content[${contentIndex}]`}`;
const isToolResultOnly = (message: Message | undefined) =>
  message?.role === "user" && blocksOf(message).length > 0 && blocksOf(message).every((b) => b.type === "tool_result");
const idOf = (b: Block, field: "id" | "tool_use_id") => (typeof b[field] === "string" ? (b[field] as string) : "");

function violation(
  rule: ConformanceRuleId,
  message: string,
  at: { messageIndex: number | null; path: string },
  messageVerified = true,
): ConformanceViolation {
  return { rule, status: 400, errorType: "invalid_request_error", message, messageVerified, ...at };
}

/**
 * Rules the public record no longer settles, each with why: the API once answered them with their 400, and a later
 * report says it accepts such a request. A violation of one is logged and named in a check's notes, but it is never a
 * RED finding and a strict mock does not answer with it.
 */
export const DISPUTED_RULES: Readonly<Partial<Record<ConformanceRuleId, string>>> = {
  "first-message-not-user":
    "the API answered it so in 2024 (tonyljx/TextWordExplain#2, langbot-app/LangBot#867); a 2026-03 report says the API accepts a first message of another role (cloudwego/eino-ext#710)",
};

/** The violations the API is known to reject today: all but the disputed rules' (DISPUTED_RULES). */
export function enforcedViolations(violations: readonly ConformanceViolation[]): ConformanceViolation[] {
  return violations.filter((v) => DISPUTED_RULES[v.rule] === undefined);
}

// https://github.com/tonyljx/TextWordExplain/issues/2 shows the API's body:
// {"type":"error","error":{"type":"invalid_request_error","message":"messages: first message must use the \"user\" role"}}
function firstMessageNotUser(messages: Message[]): ConformanceViolation[] {
  const first = messages[0];
  if (first === undefined || first.role === "user") return [];
  return [violation("first-message-not-user", 'messages: first message must use the "user" role', { messageIndex: 0, path: messagePath(0) })];
}

// anthropics/claude-code#3196 and #6774 (claude-code 1.0.45, 1.0.96) show the API's text:
// "messages.0: all messages must have non-empty content except for the optional final assistant message".
function emptyMessageContent(messages: Message[]): ConformanceViolation[] {
  return messages.flatMap((message, index) => {
    const empty = message.content.length === 0;
    const optionalFinal = index === messages.length - 1 && message.role === "assistant";
    if (!empty || optionalFinal) return [];
    return [
      violation("empty-message-content", `messages.${index}: all messages must have non-empty content except for the optional final assistant message`, {
        messageIndex: index,
        path: messagePath(index),
      }),
    ];
  });
}

// The API names no index for these two. "messages: text content blocks must be non-empty": anthropics/claude-code#59812
// (2.1.143) and #53473. "messages: text content blocks must contain non-whitespace text": anthropics/claude-code#23352
// (2.1.31) and #23440. Which of the two a whitespace-only block gets is inferred from the wording (empty vs
// whitespace); the API may also accept an empty final assistant prefill, which is not modelled (claude sends none).
function emptyTextBlocks(messages: Message[]): ConformanceViolation[] {
  return messages.flatMap((message, index) => {
    if (typeof message.content === "string") return [];
    return message.content.flatMap((b, contentIndex) => {
      if (b.type !== "text" || typeof b.text !== "string") return [];
      const at = { messageIndex: index, path: messagePath(index, contentIndex) };
      if (b.text === "") return [violation("empty-text-block", "messages: text content blocks must be non-empty", at)];
      if (b.text.trim() === "") return [violation("whitespace-text-block", "messages: text content blocks must contain non-whitespace text", at)];
      return [];
    });
  });
}

// A thinking block sent back without its signature fails the API's schema validation, which reports
// "messages.1.content.0.thinking.signature: Field required" (shown through Vertex in lbjlaq/Antigravity-Manager#270
// and #1650; the docs' extended-thinking page says thinking blocks must be passed back unmodified, signature included:
// https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks).
function thinkingSignatureMissing(messages: Message[]): ConformanceViolation[] {
  return messages.flatMap((message, index) =>
    blocksOf(message).flatMap((b, contentIndex) =>
      b.type === "thinking" && typeof b.signature !== "string"
        ? [
            violation("thinking-signature-missing", `messages.${index}.content.${contentIndex}.thinking.signature: Field required`, {
              messageIndex: index,
              path: `${messagePath(index, contentIndex)}.signature`,
            }),
          ]
        : [],
    ),
  );
}

// "tools: Tool names must be unique." — the API's body quoted in tailcallhq/forgecode#892 (provider Anthropic).
function duplicateToolNames(tools: readonly { name?: string | undefined }[]): ConformanceViolation[] {
  const seen = new Set<string>();
  const duplicate = tools.findIndex((tool) => {
    if (tool.name === undefined) return false;
    if (seen.has(tool.name)) return true;
    seen.add(tool.name);
    return false;
  });
  if (duplicate === -1) return [];
  return [violation("duplicate-tool-names", "tools: Tool names must be unique.", { messageIndex: null, path: `$.tools[${duplicate}]` })];
}

// At most 4 cache breakpoints over tools, system and messages
// (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching: "You can define up to 4 cache breakpoints").
// The API's text, "A maximum of 4 blocks with cache_control may be provided. Found 5.", is quoted in
// tghamm/Anthropic.SDK#50 and griffinmartin/opencode-claude-auth#121. Blocks nested in a tool_result's content
// are counted too: they can carry cache_control, and claude-code puts its message breakpoint there.
const MAX_CACHE_BREAKPOINTS = 4;
function cacheControlLimit(request: z.infer<typeof requestSchema>): ConformanceViolation[] {
  const marked = (value: unknown) => typeof value === "object" && value !== null && (value as { cache_control?: unknown }).cache_control != null;
  const nested = (b: Block) => (Array.isArray(b.content) ? (b.content as unknown[]).filter(marked).length : 0);
  const systemBlocks = typeof request.system === "string" || request.system === undefined ? [] : request.system;
  const found =
    (request.tools ?? []).filter(marked).length +
    systemBlocks.filter(marked).length +
    request.messages.flatMap(blocksOf).reduce((sum, b) => sum + (marked(b) ? 1 : 0) + nested(b), 0);
  if (found <= MAX_CACHE_BREAKPOINTS) return [];
  return [
    violation("cache-control-limit", `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${found}.`, {
      messageIndex: null,
      path: "$",
    }),
  ];
}

// The API combines consecutive messages of the same role into one turn (see checkConformance), so tool pairing is
// judged between turns: a run of assistant messages and the run of user messages right after it.
interface Turn {
  role: string;
  // Each block with the index of the message that holds it and its own index there.
  blocks: Array<{ block: Block; index: number; contentIndex: number }>;
  lastIndex: number;
}

function turnsOf(messages: Message[]): Turn[] {
  const turns: Turn[] = [];
  messages.forEach((message, index) => {
    const blocks = blocksOf(message).map((block, contentIndex) => ({ block, index, contentIndex }));
    const last = turns.at(-1);
    if (last?.role === message.role) {
      last.blocks.push(...blocks);
      last.lastIndex = index;
    } else turns.push({ role: message.role, blocks, lastIndex: index });
  });
  return turns;
}

const idsOfType = (turn: Turn | undefined, type: string, field: "id" | "tool_use_id") =>
  new Set((turn?.blocks ?? []).filter(({ block }) => block.type === type).map(({ block }) => idOf(block, field)));

// Every tool_use needs its tool_result in the very next message. The API's text, index being the assistant message:
// "messages.22: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01Hq…, toolu_01SJ….
// Each `tool_use` block must have a corresponding `tool_result` block in the next message." — anthropics/claude-code#5989
// (two ids, comma-separated), #5317, #1237; docs: https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use.
// An assistant turn that ends the conversation (a prefill) has no next message and is not judged: claude sends none,
// and what the API says to it is not verified. For a run of assistant messages the index named is the run's last
// message (not verified: the API's index after combining).
function toolUseWithoutResult(messages: Message[]): ConformanceViolation[] {
  const turns = turnsOf(messages);
  return turns.flatMap((turn, t) => {
    const next = turns[t + 1];
    if (turn.role !== "assistant" || next === undefined) return [];
    const answered = next.role === "user" ? idsOfType(next, "tool_result", "tool_use_id") : new Set<string>();
    const missing = [...idsOfType(turn, "tool_use", "id")].filter((id) => !answered.has(id));
    if (missing.length === 0) return [];
    return [
      violation(
        "tool-use-without-result",
        `messages.${turn.lastIndex}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. ` +
          "Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
        { messageIndex: turn.lastIndex, path: messagePath(turn.lastIndex) },
      ),
    ];
  });
}

// Every tool_result must answer a tool_use of the previous message. The API's text, indexed by the block:
// "messages.48.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_019E…. Each `tool_result`
// block must have a corresponding `tool_use` block in the previous message." — anthropics/claude-code#13460 (2.0.61),
// #18947 (messages.0.content.0: a tool_result in the first message).
function toolResultWithoutUse(messages: Message[]): ConformanceViolation[] {
  const turns = turnsOf(messages);
  return turns.flatMap((turn, t) => {
    if (turn.role !== "user") return [];
    const previous = turns[t - 1];
    const offered = previous?.role === "assistant" ? idsOfType(previous, "tool_use", "id") : new Set<string>();
    return turn.blocks.flatMap(({ block, index, contentIndex }) => {
      if (block.type !== "tool_result" || offered.has(idOf(block, "tool_use_id"))) return [];
      return [
        violation(
          "tool-result-without-use",
          `messages.${index}.content.${contentIndex}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${idOf(block, "tool_use_id")}. ` +
            "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
          { messageIndex: index, path: messagePath(index, contentIndex) },
        ),
      ];
    });
  });
}

// With thinking on, the assistant turn the request continues (the one before the trailing tool_use/tool_result
// pairs) must start with its thinking block. The API's text, quoted in n8n-io/n8n#22550, anomalyco/opencode#3077 and
// anthropics/claude-code#20705: "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found
// `text`. When `thinking` is enabled, …". Docs: https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
// (thinking blocks of the last assistant turn must be passed back during tool use).
// Not verified: whether the API names the first assistant message of the turn (as here) or the last one.
// The real API would also reject a history whose replies never had thinking, but the mock's scripts often send none,
// which is not the client's doing; so this fires only when the request shows thinking blocks elsewhere, i.e. when
// the client had them and dropped these.
const THINKING_LOOP_TEXT =
  "When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of " +
  "`tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this " +
  "requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking";
function thinkingDroppedInToolLoop(request: z.infer<typeof requestSchema>): ConformanceViolation[] {
  const { messages, thinking } = request;
  if (thinking === undefined || thinking.type === "disabled") return [];
  let turnStart = -1;
  for (let i = messages.length - 1; i >= 1 && isToolResultOnly(messages[i]) && messages[i - 1]!.role === "assistant"; i -= 2) turnStart = i - 1;
  if (turnStart === -1) return [];
  const first = blocksOf(messages[turnStart])[0];
  if (first === undefined || first.type === "thinking" || first.type === "redacted_thinking") return [];
  const hadThinking = messages.some((m) => m.role === "assistant" && blocksOf(m).some((b) => b.type === "thinking" || b.type === "redacted_thinking"));
  if (!hadThinking) return [];
  return [
    violation(
      "thinking-dropped-in-tool-loop",
      `messages.${turnStart}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first.type}\`. ${THINKING_LOOP_TEXT}`,
      { messageIndex: turnStart, path: `${messagePath(turnStart, 0)}.type` },
    ),
  ];
}

// A thinking block that comes back with its text or signature changed fails the API's signature check, which answers
// "messages.1.content.0: Invalid `signature` in `thinking` block" (anthropics/claude-code#10627, 2.0.29). Only the
// mock's own signatures are judged (thinking-signature.ts): a scripted fixed one cannot be told from a changed one.
function thinkingSignatureInvalid(messages: Message[]): ConformanceViolation[] {
  return messages.flatMap((message, index) =>
    blocksOf(message).flatMap((b, contentIndex) =>
      b.type === "thinking" && typeof b.signature === "string" && isMockSigned(b.signature) && !(typeof b.thinking === "string" && signatureMatches(b.thinking, b.signature))
        ? [
            violation("thinking-signature-invalid", `messages.${index}.content.${contentIndex}: Invalid \`signature\` in \`thinking\` block`, {
              messageIndex: index,
              path: messagePath(index, contentIndex),
            }),
          ]
        : [],
    ),
  );
}

// Consecutive messages of the same role are not flagged: the API reference for `messages`
// (https://docs.anthropic.com/en/api/messages) says consecutive user or assistant turns are combined into a single
// turn. (Quoted from that page as known to the author; the search corpus did not return it.)
export function checkConformance(body: unknown): ConformanceViolation[] {
  const parsed = requestSchema.safeParse(body);
  if (!parsed.success) {
    // The mock's own wording: the API's schema errors differ field by field.
    const issue = parsed.error.issues[0]!;
    return [
      violation("request-shape", `${issue.path.join(".") || "body"}: ${issue.message}`, { messageIndex: null, path: `$${issue.path.map((k) => (typeof k === "number" ? `[${k}]` : `.${String(k)}`)).join("")}` }, false),
    ];
  }
  const request = parsed.data;
  return [
    ...thinkingSignatureMissing(request.messages),
    ...thinkingSignatureInvalid(request.messages),
    ...emptyTextBlocks(request.messages),
    ...firstMessageNotUser(request.messages),
    ...emptyMessageContent(request.messages),
    ...duplicateToolNames(request.tools ?? []),
    ...cacheControlLimit(request),
    ...toolUseWithoutResult(request.messages),
    ...toolResultWithoutUse(request.messages),
    ...thinkingDroppedInToolLoop(request),
  ];
}
