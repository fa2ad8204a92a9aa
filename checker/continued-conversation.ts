// What `--continue` carried on (continue-latest, continue-latest-interactive): the continuing process's first main-loop
// request, judged by the conversation the mock routed it to.
import { finding, type Finding } from "../core/verdict.ts";
import { clip } from "./timeline-format.ts";
import { textOfContent, type RequestView } from "./views.ts";

export const CONTINUED_FINDINGS = ["continued-nothing", "continued-wrong-session", "history-missing"] as const;

/** The mock's conversations (stream names) of a --continue scenario: the older and the newer earlier session, and the new prompt alone. */
export interface ContinuedStreams {
  older: string;
  newer: string;
  fresh: string;
}

// Whether the request's last message is a user message holding `prompt` (a title request quotes it inside its own).
function endsWithPrompt(request: RequestView, prompt: string): boolean {
  const last = request.messages.at(-1);
  return last?.role === "user" && JSON.stringify(last.content).includes(prompt);
}

/**
 * The first main-loop request among a continuing process's `requests`: one in a conversation of `streams`, or one whose
 * last message is the new prompt (marked `prompt`) and that offers tools, as only the main loop does, whatever history
 * it carries (2.0.19–2.0.27 continue the subagent "Warmup" exchange their transcripts hold). Side requests (titles, a
 * warmup) belong to no conversation.
 */
export function continuedRequest(requests: readonly RequestView[], prompt: string, streams: ContinuedStreams): RequestView | undefined {
  const known = [streams.older, streams.newer, streams.fresh];
  return requests.find((r) => known.includes(r.stream ?? "") || (r.tools.length > 0 && endsWithPrompt(r, prompt)));
}

/**
 * What --continue carried on, from that request: nothing (the new prompt alone), the older session, another history
 * than the newer one's, or the newer one without its turn. `ids` are the earlier sessions' ids, `newerPrompt` the newer
 * one's prompt; empty when the newer conversation was carried on whole.
 */
export function checkContinued(asked: RequestView, streams: ContinuedStreams, ids: { older: string; newer: string }, newerPrompt: string, where: string): Finding[] {
  if (asked.stream === streams.fresh) {
    return [finding({ id: "continued-nothing", red: true, title: `--continue started a new conversation: its first request holds only the new prompt, not "${newerPrompt}"`, where })];
  }
  if (asked.stream === streams.older) {
    return [finding({ id: "continued-wrong-session", red: true, title: `--continue carried on the older conversation (${ids.older}), not the most recent one (${ids.newer})`, where })];
  }
  if (asked.stream !== streams.newer) {
    const opening = JSON.stringify(clip(textOfContent(asked.messages[0]?.content), 61));
    return [finding({ id: "history-missing", red: true, title: `the continued request carries another history than the most recent conversation's: it opens with ${opening}`, where })];
  }
  if (asked.messages.length < 3) {
    return [finding({ id: "history-missing", red: true, title: `the continued request has ${asked.messages.length} messages, not the earlier turn and the new prompt`, where })];
  }
  return [];
}
