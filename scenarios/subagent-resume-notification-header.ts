// Seed 002: a background subagent's absorbed <task-notification> must keep its bytes when the idle subagent is resumed.
import { z } from "zod";
import { checkNotificationStability } from "../checker/notification-check.ts";
import { judge } from "../checker/verdict.ts";
import type { Recordings } from "../harness/recordings.ts";
import type { MockScriptInput } from "../mock-api/script.ts";
import { choice, count } from "./params.ts";
import { bash, nodeWait, text, toolCall, type ReplyInput } from "./replies.ts";
import { defineScenario } from "./types.ts";

const MAIN_MARKER = "CCREPRO_MAIN_7Q";
const SUB_MARKER = "CCREPRO_SUBAGENT_7Q";

const params = z.strictObject({
  // How many times the idle subagent is woken.
  resumes: count(1, 1, 3),
  // What wakes it: a background task it started finishing, or the main session's SendMessage to it.
  resumeBy: choice(["task", "send-message"], "task"),
});
type Params = z.output<typeof params>;

// Subagent steps: T1 in the background, a foreground wait that outlasts it (T1's notification is absorbed mid-turn),
// then the end of the turn. Woken by a task: each turn first starts the next background task, whose completion
// wakes the idle subagent. Woken by SendMessage: the turn just ends and the main session sends it a message.
function subagentReplies({ resumes, resumeBy }: Params) {
  const replies = [
    bash("sleep 1; echo T1-done", "T1 background", { background: true }),
    bash(`${nodeWait(5000)}; echo fg-done`, "foreground wait"),
  ];
  for (let n = 2; n <= resumes + 1; n += 1) {
    if (resumeBy === "task") replies.push(bash(`sleep 3; echo T${n}-done`, `T${n} background`, { background: true }));
    replies.push(text(resumeBy === "task" ? `Waiting for T${n} to finish.` : "Waiting for a message."));
  }
  replies.push(text("All done."));
  return replies;
}

// The main session launches the subagent and goes idle; with SendMessage, each time the subagent's completion wakes
// it, it messages the subagent by the agentId the launch returned.
function mainReplies({ resumes, resumeBy }: Params) {
  // Releases renamed the subagent tool from Task to Agent; the mock uses whichever the request offers.
  const launch = toolCall(["Agent", "Task"], {
    description: "background worker",
    prompt: `${SUB_MARKER} run the scripted steps.`,
    subagent_type: "general-purpose",
    run_in_background: true,
  });
  const replies: Record<string, ReplyInput> = { "0": launch, "*": text("main done") };
  if (resumeBy === "send-message") {
    for (let n = 1; n <= resumes; n += 1) {
      replies[String(2 * n)] = toolCall("SendMessage", {
        to: "{{toolResult:agentId: ([A-Za-z0-9-]+)}}",
        summary: "wake the background worker",
        message: "Continue with the scripted steps.",
      });
    }
  }
  return replies;
}

function mockScript(p: Params): MockScriptInput {
  return {
    streams: [
      { stream: "sub", firstUserContains: SUB_MARKER, hasTool: "Bash" },
      { stream: "main", firstUserContains: MAIN_MARKER, hasTool: "Bash" },
    ],
    defaultStream: "side",
    replies: { main: mainReplies(p), sub: subagentReplies(p) },
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
    { versions: ">=2.1.284", verdict: "GREEN", note: "measured with ccrepro bisect: 2.1.283 is the last release that flips the header" },
    {
      versions: "2.1.281",
      params: { resumeBy: "send-message" },
      verdict: "RED",
      finding: "notification-dropped",
      note: "measured: a SendMessage resume drops the absorbed notification and inserts the message early in the history",
    },
    { versions: "2.1.332", params: { resumeBy: "send-message" }, verdict: "GREEN", note: "measured: a SendMessage resume keeps the bytes" },
  ],
  timeoutMs: 180_000,
});
