// After a stop that orphans a background task, --resume must answer the pushed prompt with its own result first.
import { bash, choice, conversation, defineScenario, flag, milliseconds, pause, promptAnswered, resultPrinted, resume, send, session, start, stop, text, wait, z, type StepContext } from "../kit/index.ts";
import { checkTurnGrammar, notReached, orphanPremise, sessionOf } from "../kit/checkers.ts";

const params = z.strictObject({
  stop: choice(["sigkill", "sigterm", "stdin"], { default: "sigkill" }),
  // Time between closing stdin and the signal.
  grace: milliseconds({ default: 4000, max: 60_000 }),
  // Time between the resumed session's start and the second prompt.
  promptDelay: milliseconds({ default: 0, max: 60_000 }),
  // false: the control variant, with no background task to orphan.
  background: flag({ default: true }),
});
type Params = z.output<typeof params>;

const MARKER = "CCREPRO_ORPHAN_7Q";
const FIRST_PROMPT = `${MARKER} start the background task, then reply with exactly the word: started`;
const SECOND_PROMPT = "SECOND_MSG: reply with exactly the word: second";

// Red here: the pushed prompt was settled by someone else's result first; worse, by one no origin explains.
const RED_FINDINGS = ["prompt-settled-by-extra-result", "unattributed-result"] as const;
const [s1, s2] = [session("s1"), session("s2")];

const steps = (p: Params, { driver }: StepContext) => [
  start(s1, { prompt: FIRST_PROMPT }),
  wait("session 1 settled its first turn", resultPrinted(s1), { onTimeout: "error" }),
  // Through the Agent SDK, the orchestrator's own stop as its report had it: input ended on the result, abort `grace` later.
  stop(s1, { how: driver === "sdk" ? "close-then-abort" : p.stop, grace: p.grace }),
  resume(s2, { from: s1 }),
  p.promptDelay > 0 ? pause("prompt delay", p.promptDelay) : [],
  send(s2, SECOND_PROMPT),
  wait("session 2 answered the pushed prompt", promptAnswered(s2)),
];

export default defineScenario({
  name: "resume-orphaned-background-task",
  summary: "After a stop that orphans a background Bash task, the resumed session's first result answers the prompt pushed to it.",
  source:
    "Reported by an orchestrator built on the Agent SDK (bb issue #1718, CLI 2.1.234): after a stop that leaves a background shell task " +
    "orphaned, --resume first emits a zero-work result with origin task-notification, which settles the newly pushed prompt empty. " +
    "The turn grammar it breaks (a turn settles once) is from bb #1646.",
  params,
  findings: RED_FINDINGS,
  // Whatever the resumed session asks, including an extra turn for a notification, gets the short answer.
  mockScript: ({ background }) =>
    conversation({
      main: {
        marker: MARKER,
        replies: background ? [bash("sleep 120; echo BG_DONE", "Sleep 120 seconds in the background", { background: true }), text("started")] : [text("started")],
        then: text("second"),
      },
    }),
  sessions: [s1, s2],
  steps,
  drivers: ["headless", "sdk"],
  check(rec, p) {
    const first = sessionOf(rec, s1);
    const second = sessionOf(rec, s2);
    if (!first || !second) return { reached: notReached("the run never reached the resumed session"), findings: [] };
    // The control variant orphans nothing on purpose; otherwise the verdict needs the orphan to be real, and a run
    // without one keeps its findings informational.
    const premise = p.background ? orphanPremise(first, second) : null;
    const grammar = checkTurnGrammar(second, { redIds: premise && !premise.holds ? [] : RED_FINDINGS });
    if (premise && !premise.holds) return { ...grammar, reached: notReached(premise.reason) };
    const notes = premise ? [premise.note, ...grammar.notes] : grammar.notes;
    return { ...grammar, notes, reached: grammar.reached.ok ? grammar.reached : notReached("session 2 never answered the pushed prompt") };
  },
  known: [
    {
      versions: ">=2.1.186",
      driver: "sdk",
      verdict: "RED",
      finding: "prompt-settled-by-extra-result",
      note: "open: through Agent SDK 0.3.197 with the graceful close (input ended on the result, abort 4 s later), --resume settles the pushed prompt with a zero-work task-notification result first (2.1.234, 2.1.332; the atlas, 2026-12-07, every release from 2.1.186, 20 measured)",
    },
    {
      versions: "2.1.45 - 2.1.185",
      driver: "sdk",
      verdict: "INCONCLUSIVE",
      note: "the SDK's graceful close ends the first session with exit 0, which lets the CLI end the task itself, and the resumed session never reports it stopped: nothing is orphaned (the atlas, 2026-12-07: 24 releases measured; UNSUPPORTED before 2.1.45)",
    },
    {
      versions: ">=2.1.186",
      verdict: "RED",
      finding: "prompt-settled-by-extra-result",
      note: "open: after a SIGKILL stop, --resume settles the pushed prompt with a zero-work task-notification result first (2.1.186 3 of 3, 2.1.234, 2.1.281, 2.1.332; the atlas, 2026-12-07, on every release between)",
    },
    { versions: "2.1.45 - 2.1.185", verdict: "GREEN", note: "the task was still running when the first session was killed, and the resumed session's first result answers the pushed prompt (2.1.45 and 2.1.185 3 of 3; the atlas on every release between; before 2.1.45 UNSUPPORTED)" },
    { versions: ">=1.0.22", params: { background: false }, verdict: "GREEN", note: "control: with nothing orphaned, the first result is the answer (2.1.234, 2.1.332; the atlas, 2026-12-07, every release from 1.0.22, 75 measured)" },
  ],
  publicRecord: {
    role: "reproduction",
    releases: [{ version: "2.1.234", says: "reported", source: "bb #1718 (an orchestrator's report on the Agent SDK; no claude-code issue found)", driver: "sdk" }],
  },
  timeoutMs: 240_000,
  // The check reads the orphaned task from session 1's `system/task_started` line.
  needs: (p) => ["stream-json-input", "resume", ...(p.background ? (["background-bash", "stream-task-events"] as const) : [])],
});
