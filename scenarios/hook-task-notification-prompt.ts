// A background task's notification must not reach UserPromptSubmit hooks looking like something a person typed.
import { bash, choice, conversation, defineScenario, foregroundWait, session, start, text, wait, z, type Condition } from "../kit/index.ts";
import { answeredAndSettled, checkHookPrompts, notificationDeliveries, notReached, resultsOf, type HookFindingId, type Recordings } from "../kit/checkers.ts";

const MARKER = "CCREPRO_HOOKS_3Q";
const PROMPT = `${MARKER} start the background task and wait for it`;

const params = z.strictObject({
  // mid-turn: the task ends while a foreground command of the same turn still runs; after-turn: it wakes the idle session.
  when: choice(["mid-turn", "after-turn"], { default: "mid-turn" }),
});
type Params = z.output<typeof params>;

// RED here: a hook cannot tell the notification from a person's prompt, or the model never got it at all.
const RED_FINDINGS = ["synthetic-prompt-indistinguishable", "notification-lost"] as const satisfies readonly HookFindingId[];
const [STREAMS, s1] = [["main"], session("s1")];

const firstDelivery = (rec: Recordings) => notificationDeliveries(rec, STREAMS).find((d) => d.request !== null)?.request;

// Done when the request that first carried the notification was answered and the session printed a result after it.
const deliveredAndSettled: Condition = (rec) => answeredAndSettled(rec, firstDelivery(rec)?.seq ?? -1);

// Where the notification actually landed: before the first turn's result (absorbed) or after it (it woke the session).
function deliveredWhen(rec: Recordings): Params["when"] | null {
  const delivered = firstDelivery(rec);
  const firstResult = resultsOf(rec, s1)[0];
  if (!delivered || !firstResult) return null;
  return delivered.receivedAt < firstResult.t ? "mid-turn" : "after-turn";
}

export default defineScenario({
  name: "hook-task-notification-prompt",
  summary: "A background task's notification reaches the model without a UserPromptSubmit hook payload that passes for a person's prompt.",
  source:
    "Reported by the author of a hook-driven implementation loop (CLI 2.1.273): a background task finishing mid-turn fires " +
    "UserPromptSubmit with a synthetic <task-notification> as the prompt, which the loop's hooks cannot tell from a person " +
    "interrupting, so the loop stopped overnight.",
  params,
  findings: RED_FINDINGS,
  mockScript: ({ when }) =>
    conversation({
      main: {
        marker: MARKER,
        replies:
          when === "mid-turn"
            ? [bash("sleep 1; echo BG-done", "background task", { background: true }), bash(`${foregroundWait(4000)}; echo fg-done`, "foreground wait")]
            : // 4 s leaves the turn (two answered requests and their hooks) time to end first, even on a loaded machine.
              [bash("sleep 4; echo BG-done", "background task", { background: true }), text("Waiting for the background task.")],
        then: text("noted"),
      },
    }),
  hooks: { record: "all" },
  sessions: [s1],
  steps: () => [start(s1, { prompt: PROMPT }), wait("the notification reached the model and the session settled", deliveredAndSettled)],
  check(rec, p) {
    const landed = deliveredWhen(rec);
    // A run whose timing missed the asked-for cell says nothing about that cell: its findings stay informational.
    const inCell = landed === null || landed === p.when;
    const result = checkHookPrompts(rec, { redIds: inCell ? RED_FINDINGS : [], streams: STREAMS });
    return inCell ? result : { ...result, reached: notReached(`the notification was delivered ${landed}, not ${p.when} as asked`) };
  },
  // Measured 2026-11-30 with `ccrepro run hook-task-notification-prompt --claude V --param when=W`; the mid-turn entries
  // (the default parameters) come first.
  known: [
    { versions: "2.1.45", verdict: "RED", finding: "synthetic-prompt-indistinguishable", note: "mid-turn, the first release with what the scenario needs (the atlas, 2026-12-07; re-run 3 of 3); INCONCLUSIVE 2.1.47–2.1.100, GREEN 2.1.101 (3 of 3) to 2.1.259" },
    { versions: "2.1.234", verdict: "GREEN", note: "mid-turn: the absorbed notification fires no UserPromptSubmit hook" },
    {
      versions: "2.1.273",
      verdict: "RED",
      finding: "synthetic-prompt-indistinguishable",
      note: "mid-turn, the report's release, measured 2026-12-06 (3 of 3 runs): UserPromptSubmit with the bare <task-notification> as prompt, reusing the typed prompt's prompt_id (prompt-id-reused)",
    },
    {
      versions: "2.1.281 || 2.1.332",
      verdict: "RED",
      finding: "synthetic-prompt-indistinguishable",
      note: "mid-turn: UserPromptSubmit with the bare <task-notification> as prompt, the typed prompt's keys and its prompt_id",
    },
    {
      versions: ">=2.1.45",
      params: { when: "after-turn" },
      verdict: "RED",
      finding: "synthetic-prompt-indistinguishable",
      note: "after-turn: UserPromptSubmit with the bare <task-notification> as prompt and the typed prompt's keys; 2.1.332's schema has an optional `source`, sent on neither prompt (2.1.234, 2.1.281, 2.1.332; the atlas, 2026-12-07, on every release from 2.1.45, the first with what the scenario needs, to 2.1.337)",
    },
  ],
  // The report is not on the claude-code tracker, which has none of this hook payload (searched 2026-12-06; #35610 is
  // the model taking a notification for a user message).
  publicRecord: {
    role: "reproduction",
    releases: [{ version: "2.1.273", says: "reported", source: "a hook-driven loop tool's report (mid-turn)" }],
  },
  timeoutMs: 120_000,
  // Headless task notifications arrive with the stream's task events: on 2.0.77 and 2.1.0 (which have background Bash
  // and <task-notification>) the session exited 1 after its first result (error_during_execution) instead.
  needs: ["stream-json-input", "background-bash", "task-notification", "stream-task-events", "hook:UserPromptSubmit"],
});
