// Seed 003: a background task's notification must not reach UserPromptSubmit hooks looking like something a person typed.
import { z } from "zod";
import { checkHookPrompts, type HookFindingId } from "../checker/hooks.ts";
import { notificationDeliveries } from "../checker/notification-delivery.ts";
import { judge } from "../core/verdict.ts";
import type { Recordings } from "../harness/recordings.ts";
import type { MockScriptInput } from "../mock-api/script.ts";
import { choice } from "./params.ts";
import { bash, nodeWait, text } from "./replies.ts";
import { defineScenario } from "./types.ts";
import { answeredAndSettled } from "./waits.ts";

const MARKER = "CCREPRO_HOOKS_3Q";
const PROMPT = `${MARKER} start the background task and wait for it`;

const params = z.strictObject({
  // mid-turn: the task ends while a foreground command of the same turn still runs; after-turn: it wakes the idle session.
  when: choice(["mid-turn", "after-turn"], "mid-turn"),
});
type Params = z.output<typeof params>;

// RED here: a hook cannot tell the notification from a person's prompt, or the model never got it at all.
const RED_FINDINGS: HookFindingId[] = ["synthetic-prompt-indistinguishable", "notification-lost"];
const STREAMS = ["main"];

function mockScript({ when }: Params): MockScriptInput {
  const replies =
    when === "mid-turn"
      ? [bash("sleep 1; echo BG-done", "background task", { background: true }), bash(`${nodeWait(4000)}; echo fg-done`, "foreground wait")]
      : // 4 s leaves the turn (two answered requests and their hooks) time to end first, even on a loaded machine.
        [bash("sleep 4; echo BG-done", "background task", { background: true }), text("Waiting for the background task.")];
  return {
    streams: [{ stream: "main", firstUserContains: MARKER, hasTool: "Bash" }],
    defaultStream: "side",
    replies: { main: { ...Object.fromEntries(replies.map((reply, i) => [String(i), reply])), "*": text("noted") } },
  };
}

// Done when the request that first carried the notification was answered and the session printed a result after it.
function deliveredAndSettled(rec: Recordings): boolean {
  const delivered = notificationDeliveries(rec, STREAMS).find((d) => d.request !== null)?.request;
  return !!delivered && answeredAndSettled(rec, delivered.seq);
}

// Where the notification actually landed: before the first turn's result (absorbed) or after it (it woke the session).
function deliveredWhen(rec: Recordings): Params["when"] | null {
  const delivered = notificationDeliveries(rec, STREAMS).find((d) => d.request !== null)?.request;
  const firstResult = rec.sessions[0]?.stdout.find((line) => line.event?.type === "result");
  if (!delivered || !firstResult) return null;
  return delivered.receivedAt < firstResult.t ? "mid-turn" : "after-turn";
}

export default defineScenario({
  name: "hook-task-notification-prompt",
  summary: "A background task's notification reaches the model without a UserPromptSubmit hook payload that passes for a person's prompt.",
  source: "seed 003 (../shared/seeds/003_be6d31af0665750b.txt)",
  params,
  mockScript,
  hooks: { events: "all" },
  steps: () => [
    { kind: "start", session: "s1" },
    { kind: "send", session: "s1", message: { text: PROMPT } },
    {
      kind: "wait",
      label: "the notification reached the model and the session settled",
      until: deliveredAndSettled,
      timeoutMs: 60_000,
      onTimeout: "inconclusive",
    },
  ],
  check(rec, p) {
    const landed = deliveredWhen(rec);
    // A run whose timing missed the asked-for cell says nothing about that cell: its findings stay informational.
    const inCell = landed === null || landed === p.when;
    const result = checkHookPrompts(rec, { redIds: inCell ? RED_FINDINGS : [], streams: STREAMS });
    const reached = inCell ? result.reached : { ok: false as const, reason: `the notification was delivered ${landed}, not ${p.when} as asked` };
    return judge(reached, result.findings, result.notes);
  },
  // Measured 2026-11-30 with `ccrepro run hook-task-notification-prompt --claude V --param when=W`; the mid-turn entries
  // (the default parameters) come first.
  known: [
    { versions: "2.1.234", verdict: "GREEN", note: "mid-turn: the absorbed notification fires no UserPromptSubmit hook" },
    {
      versions: "2.1.281 || 2.1.332",
      verdict: "RED",
      finding: "synthetic-prompt-indistinguishable",
      note: "mid-turn: UserPromptSubmit with the bare <task-notification> as prompt, the typed prompt's keys and its prompt_id (seed 003)",
    },
    {
      versions: "2.1.234 || 2.1.281 || 2.1.332",
      params: { when: "after-turn" },
      verdict: "RED",
      finding: "synthetic-prompt-indistinguishable",
      note: "after-turn: UserPromptSubmit with the bare <task-notification> as prompt and the typed prompt's keys; 2.1.332's schema has an optional `source`, sent on neither prompt",
    },
  ],
  timeoutMs: 120_000,
});
