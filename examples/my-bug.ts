// My bug: a background task that finishes mid-turn reaches UserPromptSubmit hooks as if I had typed it.
import { answeredAndSettled, bash, checkHookPrompts, conversation, defineScenario, judge, nodeWait, notificationDeliveries, startWith, text, waitFor, z, type Recordings } from "ccrepro";

const MARKER = "MY_BUG_7K";
const FINDINGS = ["synthetic-prompt-indistinguishable"] as const;

// Done once the request that carried the notification was answered and the session printed a result after it.
function notifiedAndSettled(rec: Recordings): boolean {
  const delivered = notificationDeliveries(rec, ["main"]).find((d) => d.request !== null)?.request;
  return !!delivered && answeredAndSettled(rec, delivered.seq);
}

export default defineScenario({
  name: "my-hook-bug",
  summary: "A background task that ends mid-turn must not fire UserPromptSubmit as if a person typed it.",
  source: "My hook-driven loop stopped overnight: a <task-notification> arrived as a typed prompt.",
  params: z.strictObject({}),
  findings: FINDINGS,
  // The fake API's side of the conversation: start a 1 s background task, then a 4 s foreground wait, then "noted".
  mockScript: () =>
    conversation({
      main: {
        marker: MARKER,
        replies: [bash("sleep 1; echo BG-done", "background task", { background: true }), bash(`${nodeWait(4000)}; echo fg-done`, "foreground wait")],
        then: text("noted"),
      },
    }),
  hooks: { events: "all" },
  steps: () => [...startWith("s1", `${MARKER} start the background task and wait for it`), waitFor("the notification was answered", notifiedAndSettled, 60_000)],
  // RED when a hook cannot tell the notification from a typed prompt; GREEN when it can or none fired.
  check: (rec) => judge(checkHookPrompts(rec, { redIds: FINDINGS, streams: ["main"] })),
  known: [],
  timeoutMs: 120_000,
});
