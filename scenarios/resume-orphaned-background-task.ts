// After a stop that orphans a background task, --resume must answer the pushed prompt with its own result first.
import { bash, checkTurnGrammar, choice, conversation, defineScenario, flag, judge, milliseconds, orphanPremise, promptAnsweredIn, resultSeen, sessionNamed, startWith, text, waitFor, z, type Step, type StepContext } from "../kit/index.ts";

const params = z.strictObject({
  stop: choice(["sigkill", "sigterm", "stdin"], "sigkill"),
  // Time between closing stdin and the signal.
  grace: milliseconds(4000, 60_000),
  // Time between the resumed session's start and the second prompt.
  promptDelay: milliseconds(0, 60_000),
  // false: the control variant, with no background task to orphan.
  background: flag(true),
});
type Params = z.output<typeof params>;

const MARKER = "CCREPRO_ORPHAN_7Q";
const FIRST_PROMPT = `${MARKER} start the background task, then reply with exactly the word: started`;
const SECOND_PROMPT = "SECOND_MSG: reply with exactly the word: second";

// Red here: the pushed prompt was settled by someone else's result first; worse, by one no origin explains.
const RED_FINDINGS = ["prompt-settled-by-extra-result", "unattributed-result"] as const;

// Through the Agent SDK the stop is the orchestrator's own (as its report reproduced it): end the input on the result, abort `grace` later (graceful close).
const stopStep = (p: Params, driver: StepContext["driver"]): Step =>
  driver === "sdk" ? { kind: "stop", session: "s1", how: "close-then-abort", graceMs: p.grace } : { kind: "stop", session: "s1", how: p.stop, graceMs: p.grace };

const steps = (p: Params, context?: StepContext): Step[] => [
  ...startWith("s1", FIRST_PROMPT),
  waitFor("session 1 settled its first turn", (rec) => resultSeen(sessionNamed(rec, "s1")), 60_000, { onTimeout: "error" }),
  stopStep(p, context?.driver ?? "headless"),
  { kind: "start", session: "s2", resume: "s1" },
  ...(p.promptDelay > 0 ? [{ kind: "pause" as const, label: "prompt delay", ms: p.promptDelay }] : []),
  { kind: "send", session: "s2", message: { text: SECOND_PROMPT } },
  waitFor("session 2 answered the pushed prompt", promptAnsweredIn("s2"), 60_000),
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
  steps,
  drivers: ["headless", "sdk"],
  check(rec, p) {
    const s1 = sessionNamed(rec, "s1");
    const s2 = sessionNamed(rec, "s2");
    if (!s1 || !s2) return judge({ reached: { ok: false, reason: "the run never reached the resumed session" }, findings: [], notes: [] });
    // The control variant orphans nothing on purpose; otherwise the verdict needs the orphan to be real, and a run
    // without one keeps its findings informational.
    const premise = p.background ? orphanPremise(s1, s2) : null;
    const grammar = checkTurnGrammar(s2, { redIds: premise && !premise.holds ? [] : RED_FINDINGS });
    if (premise && !premise.holds) return judge({ ...grammar, reached: { ok: false, reason: premise.reason } });
    const notes = premise ? [premise.note, ...grammar.notes] : grammar.notes;
    if (!grammar.reached.ok) return judge({ ...grammar, notes, reached: { ok: false, reason: "session 2 never answered the pushed prompt" } });
    return judge({ ...grammar, notes });
  },
  known: [
    {
      versions: ">=2.1.234",
      driver: "sdk",
      verdict: "RED",
      finding: "prompt-settled-by-extra-result",
      note: "open: through Agent SDK 0.3.197 with the graceful close (input ended on the result, abort 4 s later), --resume settles the pushed prompt with a zero-work task-notification result first (measured on 2.1.234, 2.1.332)",
    },
    {
      versions: ">=2.1.234",
      verdict: "RED",
      finding: "prompt-settled-by-extra-result",
      note: "open: after a SIGKILL stop, --resume settles the pushed prompt with a zero-work task-notification result first (measured on 2.1.234, 2.1.281, 2.1.332)",
    },
    { versions: ">=2.1.234", params: { background: false }, verdict: "GREEN", note: "control: with nothing orphaned, the first result is the answer (measured on 2.1.234, 2.1.332)" },
  ],
  timeoutMs: 240_000,
  // The check reads the orphaned task from session 1's `system/task_started` line.
  needs: (p) => ["stream-json-input", "resume", ...(p.background ? (["background-bash", "stream-task-events"] as const) : [])],
});
