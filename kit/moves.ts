// The conversation the mock plays: scripted streams, each told apart by a marker in its first user message.
import type { MockScriptInput } from "../mock-api/script.ts";
import type { ReplyInput } from "./replies.ts";

/** One scripted stream of requests: how to recognise it, and its replies by step. */
export interface ConversationStream {
  /** Text in the stream's first user message that tells its requests apart (a prompt or an Agent prompt marker). */
  marker: string;
  /** A tool the stream's requests offer; tells the main loop from side requests that quote the same prompt. Default "Bash". */
  hasTool?: string;
  /** Replies by step (the number of assistant messages in the request): a list from step 0, or keys such as "2". */
  replies: ReplyInput[] | Record<string, ReplyInput>;
  /** What every later step gets. */
  then?: ReplyInput;
}

/**
 * The mock's script for scripted streams; every request no stream claims (titles, summaries) is a side request.
 * `extra` adds script options beyond the streams (strict conformance, a fallback reply, usage modelling).
 *
 * @example conversation({ main: { marker: MARKER, replies: [bash("echo hi", "greet"), text("done")] } })
 */
export function conversation(streams: Record<string, ConversationStream>, extra: Partial<MockScriptInput> = {}): MockScriptInput {
  const entries = Object.entries(streams);
  return {
    streams: entries.map(([stream, s]) => ({ stream, firstUserContains: s.marker, hasTool: s.hasTool ?? "Bash" })),
    defaultStream: "side",
    replies: Object.fromEntries(
      entries.map(([stream, s]) => {
        const bySteps = Array.isArray(s.replies) ? Object.fromEntries(s.replies.map((reply, i) => [String(i), reply])) : s.replies;
        return [stream, s.then === undefined ? bySteps : { ...bySteps, "*": s.then }];
      }),
    ),
    ...extra,
  };
}
