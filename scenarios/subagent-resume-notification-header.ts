// A background subagent's absorbed <task-notification> must keep its bytes when the idle subagent is resumed.
import { bash, choice, conversation, count, defineScenario, milliseconds, foregroundWait, session, start, subagent, text, toolCall, wait, z, type ReplyInput } from "../kit/index.ts";
import { answeredAndSettled, checkNotificationStability, findBoundaries, notReached, type Recordings } from "../kit/checkers.ts";

const MAIN_MARKER = "CCREPRO_MAIN_7Q";
const SUB_MARKER = "CCREPRO_SUBAGENT_7Q";

const params = z.strictObject({
  // How many times the idle subagent is woken.
  resumes: count({ default: 1, min: 1, max: 3 }),
  // What wakes it: a background task it started finishing, or the main session's SendMessage to it.
  resumeBy: choice(["task", "send-message"], { default: "task" }),
  // With send-message: how long the main session's SendMessage call is held back, so the subagent has gone idle when
  // the message reaches it. Sent at once (0), it can come within ~40 ms of the subagent's last answer; 2.1.281 then
  // resumed the subagent from a transcript without its last turn in 1 run of 10 (notification-dropped), a race of its own.
  sendDelay: milliseconds({ default: 1000, max: 60_000 }),
});
type Params = z.output<typeof params>;

// Subagent steps: T1 in the background, a foreground wait that outlasts it (T1's notification is absorbed mid-turn),
// then the end of the turn. Woken by a task: each turn first starts the next background task, whose completion
// wakes the idle subagent. Woken by SendMessage: the turn just ends and the main session sends it a message.
function subagentReplies({ resumes, resumeBy }: Params): ReplyInput[] {
  const replies = [bash("sleep 1; echo T1-done", "T1 background", { background: true }), bash(`${foregroundWait(5000)}; echo fg-done`, "foreground wait")];
  for (let n = 2; n <= resumes + 1; n += 1) {
    if (resumeBy === "task") replies.push(bash(`sleep 3; echo T${n}-done`, `T${n} background`, { background: true }));
    replies.push(text(resumeBy === "task" ? `Waiting for T${n} to finish.` : "Waiting for a message."));
  }
  replies.push(text("All done."));
  return replies;
}

// The main session launches the subagent and goes idle; with SendMessage, each time the subagent's completion wakes
// it, it messages the subagent by the agentId the launch returned.
function mainReplies({ resumes, resumeBy, sendDelay }: Params): Record<string, ReplyInput> {
  const launch = subagent(`${SUB_MARKER} run the scripted steps.`, "background worker", { background: true });
  const replies: Record<string, ReplyInput> = { "0": launch };
  if (resumeBy === "send-message") {
    for (let n = 1; n <= resumes; n += 1) {
      replies[String(2 * n)] = {
        ...toolCall("SendMessage", { to: "{{toolResult:agentId: ([A-Za-z0-9-]+)}}", summary: "wake the background worker", message: "Continue with the scripted steps." }),
        delayMs: sendDelay,
      };
    }
  }
  return replies;
}

// The subagent's resume boundaries, as the checker defines them: where it went idle and was woken again.
const subagentResumes = (rec: Recordings) => findBoundaries(rec, { streams: ["sub"] }).filter((b) => b.kind === "resume");

// Done when the request after the last expected wake-up was answered and the main session settled after it.
function settledAfterResumes(rec: Recordings, resumes: number): boolean {
  const wake = subagentResumes(rec)[resumes - 1];
  return wake !== undefined && answeredAndSettled(rec, wake.after);
}

const s1 = session("s1");

export default defineScenario({
  name: "subagent-resume-notification-header",
  summary: "A background subagent's absorbed task-notification keeps its bytes (header included) across the subagent's resume.",
  source:
    "Reported upstream beside anthropics/claude-code#94728 (a messages_changed cache miss on the same resume path): when an idle " +
    "background subagent is resumed, the <task-notification> it absorbed mid-turn is re-rendered with a different header, so the " +
    "request's prefix changes and the prompt cache is rebuilt.",
  link: "https://github.com/anthropics/claude-code/issues/94728",
  params,
  findings: ["notification-changed", "notification-dropped", "prefix-changed", "cache-control-moved"],
  mockScript: (p) =>
    conversation({
      sub: { marker: SUB_MARKER, replies: subagentReplies(p) },
      main: { marker: MAIN_MARKER, replies: mainReplies(p), then: text("main done") },
    }),
  sessions: [s1],
  steps: (p) => [
    start(s1, { prompt: `${MAIN_MARKER} start the background worker` }),
    wait(`the subagent was resumed ${p.resumes}× and the session settled`, (rec) => settledAfterResumes(rec, p.resumes), { timeout: 90_000 + 15_000 * p.resumes }),
  ],
  check(rec, p) {
    const result = checkNotificationStability(rec, { kinds: ["resume"], streams: ["sub"] });
    const resumed = subagentResumes(rec).length;
    // Every asked-for resume must have happened: a later one is where a notification absorbed after a resume flips.
    if (result.reached.ok && resumed < p.resumes) return { ...result, reached: notReached(`the subagent was resumed ${resumed} time(s), not the ${p.resumes} asked for`) };
    return result;
  },
  known: [
    // Swept 2026-11-30: `ccrepro sweep subagent-resume-notification-header --versions "2.1.245 - 2.1.290"`.
    { versions: "2.1.45 - 2.1.224", verdict: "INCONCLUSIVE", note: "the subagent is never woken again after its turn, so there is no resume to compare (the atlas, 2026-12-07; 2.1.45 and 2.1.224 3 of 3); subagent-background-task-notified finds the same edge: a subagent is first woken by a notification in 2.1.225" },
    { versions: ">=2.1.225 <=2.1.258", verdict: "RED", finding: "notification-dropped", note: "the absorbed notification is lost across the resume (the prefix changes too; 2.1.225 3 of 3, the atlas on every release to 2.1.258)" },
    { versions: ">=2.1.259 <=2.1.283", verdict: "RED", finding: "notification-changed", note: "header flips from the 494-char preamble to the 48-char one, delta 446" },
    { versions: "2.1.332", verdict: "GREEN", note: "keeps the notification's bytes" },
    { versions: ">=2.1.284", verdict: "GREEN", note: "measured with ccrepro bisect and sweep: 2.1.283 is the last release that flips the header" },
    {
      versions: "2.1.281",
      params: { resumeBy: "send-message" },
      verdict: "RED",
      finding: "notification-changed",
      note:
        "measured 2026-11-30, 10 of 10 runs with the SendMessage held back 1 s: the resume flips the absorbed notification's " +
        "header as a task resume does (delta 446), in place. Sent at once (sendDelay=0), 1 run in 10 read notification-dropped: " +
        "the message came 40 ms after the subagent's last answer and the resumed subagent started from a transcript without its last turn",
    },
    { versions: "2.1.332", params: { resumeBy: "send-message" }, verdict: "GREEN", note: "measured (10 of 10 runs): a SendMessage resume keeps the bytes" },
    {
      versions: "2.1.233",
      params: { resumeBy: "send-message" },
      verdict: "RED",
      finding: "notification-dropped",
      note: "measured 2026-12-06, 3 of 3 runs (#86876's release): the SendMessage resume drops the absorbed notification (prefix-changed too)",
    },
    {
      versions: "2.1.273",
      params: { resumeBy: "send-message" },
      verdict: "RED",
      finding: "notification-changed",
      note: "measured 2026-12-06, 3 of 3 runs (#94728's release): the SendMessage resume flips the header, delta 446, as a task resume does",
    },
  ],
  publicRecord: {
    role: "reproduction",
    releases: [
      { version: "2.1.233", says: "reported", source: "#86876 (SendMessage resume drops role:system messages)", params: { resumeBy: "send-message" } },
      { version: "2.1.273", says: "reported", source: "#94728 (SendMessage resume, messages_changed)", params: { resumeBy: "send-message" } },
    ],
  },
  timeoutMs: 180_000,
  // On 2.0.77 and 2.1.0 (background subagents, but no stream task events) the idle subagent was never woken: INCONCLUSIVE
  // after 105 s. Its wake-up comes with the headless task events (2.1.112).
  needs: (p) => ["stream-json-input", "background-bash", "background-subagent", "task-notification", "stream-task-events", ...(p.resumeBy === "send-message" ? (["send-message"] as const) : [])],
});
