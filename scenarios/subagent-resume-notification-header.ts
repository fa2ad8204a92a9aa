// Seed 002: a background subagent's absorbed <task-notification> must keep its bytes when the idle subagent is resumed.
import { z } from "zod";
import { checkNotificationStability } from "../checker/notification-check.ts";
import { judge } from "../checker/verdict.ts";
import type { Recordings } from "../harness/recordings.ts";
import type { MockScriptInput } from "../mock-api/script.ts";
import { count } from "./params.ts";
import { bash, nodeWait, text, toolCall } from "./replies.ts";
import { defineScenario } from "./types.ts";

const MAIN_MARKER = "CCREPRO_MAIN_7Q";
const SUB_MARKER = "CCREPRO_SUBAGENT_7Q";

const params = z.strictObject({
  // How many times the idle subagent is woken by a finishing background task.
  resumes: count(1, 1, 3),
});
type Params = z.output<typeof params>;

// Subagent steps: T1 in the background, a foreground wait that outlasts it (T1's notification is absorbed mid-turn),
// then per resume one more background task and the end of the turn; its completion wakes the idle subagent.
function subagentReplies(resumes: number) {
  const replies = [
    bash("sleep 1; echo T1-done", "T1 background", { background: true }),
    bash(`${nodeWait(5000)}; echo fg-done`, "foreground wait"),
  ];
  for (let n = 2; n <= resumes + 1; n += 1) {
    replies.push(bash(`sleep 3; echo T${n}-done`, `T${n} background`, { background: true }), text(`Waiting for T${n} to finish.`));
  }
  replies.push(text("All done."));
  return replies;
}

function mockScript({ resumes }: Params): MockScriptInput {
  return {
    streams: [
      { stream: "sub", firstUserContains: SUB_MARKER, hasTool: "Bash" },
      { stream: "main", firstUserContains: MAIN_MARKER, hasTool: "Bash" },
    ],
    defaultStream: "side",
    replies: {
      main: {
        // Releases renamed the subagent tool from Task to Agent; the mock uses whichever the request offers.
        "0": toolCall(["Agent", "Task"], {
          description: "background worker",
          prompt: `${SUB_MARKER} run the scripted steps.`,
          subagent_type: "general-purpose",
          run_in_background: true,
        }),
        "*": text("main done"),
      },
      sub: subagentReplies(resumes),
    },
  };
}

const subRequests = (rec: Recordings) => rec.requests.filter((r) => r.stream === "sub");

// The subagent's requests that follow an idle point (a request answered without a tool call): its resumes.
function resumeRequests(rec: Recordings) {
  const sub = subRequests(rec);
  return sub.filter((request, i) => i > 0 && sub[i - 1]!.reply.stopReason !== "tool_use");
}

// Done when the last expected resume request was answered and the main session printed a result after it.
function settledAfterResumes(rec: Recordings, resumes: number): boolean {
  const wakes = resumeRequests(rec);
  if (wakes.length < resumes) return false;
  const last = wakes[resumes - 1]!;
  const answered = rec.responseEnds.get(last.seq);
  if (!answered) return false;
  const inFlight = rec.requests.some((r) => !rec.responseEnds.has(r.seq));
  const main = rec.sessions[0];
  return !inFlight && !!main?.stdout.some((line) => line.event?.type === "result" && line.t >= answered.endedAt);
}

export default defineScenario({
  name: "subagent-resume-notification-header",
  summary: "A background subagent's absorbed task-notification keeps its bytes (header included) across the subagent's resume.",
  source: "seed 002 (../shared/seeds/002_812e297fae679caf.txt)",
  params,
  mockScript,
  steps: (p) => [
    { kind: "start", session: "s1" },
    { kind: "send", session: "s1", message: { text: `${MAIN_MARKER} start the background worker` } },
    {
      kind: "wait",
      label: `the subagent was resumed ${p.resumes}× and the session settled`,
      until: (rec) => settledAfterResumes(rec, p.resumes),
      timeoutMs: 90_000 + 15_000 * p.resumes,
      onTimeout: "inconclusive",
    },
  ],
  check(rec) {
    const result = checkNotificationStability(rec, { kinds: ["resume"], streams: ["sub"] });
    return judge(result.reached, result.findings, result.notes);
  },
  known: [
    { versions: ">=2.1.247 <=2.1.251", verdict: "RED", finding: "notification-dropped", note: "the absorbed notification is lost across the resume (seed 002)" },
    { versions: ">=2.1.270 <=2.1.281", verdict: "RED", finding: "notification-changed", note: "header flips from the 494-char preamble to the 48-char one, delta 446 (seed 002)" },
    { versions: "2.1.332", verdict: "GREEN", note: "keeps the notification's bytes (seed 002)" },
  ],
  timeoutMs: 180_000,
});
