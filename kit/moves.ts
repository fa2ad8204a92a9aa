// The moves scenarios share, one call each: the conversation the mock plays, starting a session with a prompt,
// waiting for a condition, finding a session, and the "settled" conditions waits are made of.
import { promptAnswered } from "../checker/turns.ts";
import type { Step } from "../harness/plan.ts";
import type { Recordings, SessionRecording } from "../harness/recordings.ts";
import type { MockScriptInput } from "../mock-api/script.ts";
import type { ReplyInput } from "./replies.ts";

export interface ConversationStream {
  /** Text in the stream's first user message that tells its requests apart (a prompt or an Agent prompt marker). */
  marker: string;
  /** A tool the stream's requests offer; tells the main loop from side requests that quote the same prompt. */
  hasTool?: string;
  /** Replies by step (the number of assistant messages in the request): a list from step 0, or keys such as "2". */
  replies: ReplyInput[] | Record<string, ReplyInput>;
  /** What every later step gets. */
  then?: ReplyInput;
}

/**
 * The mock's script for scripted streams; every request no stream claims (titles, summaries) is a side request.
 * `extra` adds script options beyond the streams (faults, strict conformance, delays).
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

/** Start a headless session (resuming an earlier one of the run when asked) and push its first prompt. */
export function startWith(session: string, prompt: string, options: { resume?: string } = {}): Step[] {
  return [
    { kind: "start", session, ...(options.resume ? { resume: options.resume } : {}) },
    { kind: "send", session, message: { text: prompt } },
  ];
}

/**
 * Wait until `until` holds. By default a timeout ends the run and lets the checker say what was not reached
 * (INCONCLUSIVE); `onTimeout: "error"` makes it a harness failure instead, for waits that must always succeed.
 */
export function waitFor(
  label: string,
  until: (rec: Recordings) => boolean,
  timeoutMs: number,
  options: { onTimeout?: "error" | "inconclusive" } = {},
): Step {
  return { kind: "wait", label, until, timeoutMs, onTimeout: options.onTimeout ?? "inconclusive" };
}

export const sessionNamed = (rec: Recordings, label: string): SessionRecording | undefined => rec.sessions.find((s) => s.label === label);

/** The session printed a result (after time `after`, when given). */
export function resultSeen(session: SessionRecording | undefined, after = -Infinity): boolean {
  return !!session?.stdout.some((line) => line.event?.type === "result" && line.t >= after);
}

/**
 * Request `seq` was answered, nothing else is in flight, and the session printed a result after the answer:
 * the session has settled on what that request started.
 */
export function answeredAndSettled(rec: Recordings, seq: number, session = rec.sessions[0]): boolean {
  const answered = rec.responseEnds.get(seq);
  if (!answered || !session) return false;
  if (rec.requests.some((r) => !rec.responseEnds.has(r.seq))) return false;
  return resultSeen(session, answered.endedAt);
}

// A wait condition: session `label` answered its prompt number `prompt` (0 = the first pushed) with a real turn.
export const promptAnsweredIn =
  (label: string, prompt = 0) =>
  (rec: Recordings): boolean => {
    const session = sessionNamed(rec, label);
    return !!session && promptAnswered(session, prompt);
  };
