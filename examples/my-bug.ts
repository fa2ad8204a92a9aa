// My bug: a background task that finishes mid-turn reaches UserPromptSubmit hooks as if I had typed it.
import { bash, conversation, defineScenario, foregroundWait, session, start, text, wait, type Condition } from "ccrepro";
import { answeredAndSettled, checkHookPrompts, notificationDeliveries } from "ccrepro/checkers";

const MARKER = "MY_BUG_7K";
const s1 = session("s1");

// Done once the request that carried the notification was answered and the session printed a result after it.
const notifiedAndSettled: Condition = (rec) => {
  const delivered = notificationDeliveries(rec, ["main"]).find((d) => d.request !== null)?.request;
  return !!delivered && answeredAndSettled(rec, delivered.seq, { session: s1 });
};

export default defineScenario({
  name: "my-hook-bug",
  summary: "A background task that ends mid-turn must not fire UserPromptSubmit as if a person typed it.",
  source: "My hook-driven loop stopped overnight: a <task-notification> arrived as a typed prompt.",
  findings: ["synthetic-prompt-indistinguishable"],
  sessions: [s1],
  // The fake API's side of the conversation: start a 1 s background task, then a 4 s foreground wait, then "noted".
  mockScript: () =>
    conversation({
      main: {
        marker: MARKER,
        replies: [bash("sleep 1; echo BG-done", "background task", { background: true }), bash(`${foregroundWait(4000)}; echo fg-done`, "foreground wait")],
        then: text("noted"),
      },
    }),
  hooks: { record: "all" },
  steps: () => [start(s1, { prompt: `${MARKER} start the background task and wait for it` }), wait("the notification was answered", notifiedAndSettled)],
  // RED when a hook cannot tell the notification from a typed prompt; GREEN when it can or none fired.
  check: (rec) => checkHookPrompts(rec, { redIds: ["synthetic-prompt-indistinguishable"], streams: ["main"] }),
});
