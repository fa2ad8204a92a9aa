// Hook payloads against what really happened: UserPromptSubmit prompts nobody typed, and whether each background
// task's notification reached the model.
import { z } from "zod";
import type { HookRecord, Recordings, SessionRecording } from "../harness/recordings.ts";
import { waitedSince } from "./absence-window.ts";
import { formatHookTimeline, formatHookTimings, runStart } from "./format-hooks.ts";
import { canonicalJson, type Json } from "./json-value.ts";
import { notificationDeliveries, type NotificationDelivery } from "./notification-delivery.ts";
import { offset, quote } from "./timeline-format.ts";
import { buildTurnTimeline, type PushEntry } from "./turn-timeline.ts";
import { finding, type CheckerOutput, type Finding } from "../core/verdict.ts";

export const HOOK_FINDINGS = ["synthetic-prompt-indistinguishable", "prompt-id-reused", "notification-lost"] as const;
export type HookFindingId = (typeof HOOK_FINDINGS)[number];

// Blocks the CLI itself writes into a prompt: named in findings to say what a synthetic prompt held (never to decide it).
const CLI_BLOCK = /<(task-notification|system-reminder)>[\s\S]*?<\/\1>/g;
// Key names that say who wrote a prompt: a value differing from the person's prompt tells a hook it was not a person.
const AUTHOR_KEY = /source|origin|synthetic|author|sender|initiat|trigger|wakeup|kind/i;

const promptPayloadSchema = z.record(z.string(), z.custom<Json>(() => true)).and(z.looseObject({ prompt: z.string() }));
type PromptPayload = z.infer<typeof promptPayloadSchema>;

export interface PromptSubmit {
  hook: HookRecord;
  payload: PromptPayload;
  // The prompt the harness pushed that this hook call is for; null when the harness pushed no such prompt: synthetic,
  // whatever its wording.
  pushed: PushedPrompt | null;
  // The kinds of CLI blocks the prompt holds, for the finding's title.
  injected: string[];
}

export interface PushedPrompt extends PushEntry {
  session: string;
}

// A key that lets a hook tell the synthetic payload from the person's: present only on it, or an author key that differs.
export interface Marker {
  key: string;
  synthetic: Json | undefined;
  human: Json | undefined;
}

export interface HookCheckOptions {
  // Finding ids that make the scenario RED; every other finding is informational.
  redIds: readonly HookFindingId[];
  // The request streams that count as the model being told; every stream by default.
  streams?: readonly string[];
}

export interface HookCheck extends CheckerOutput {
  deliveries: NotificationDelivery[];
}

export function injectedBlocks(prompt: string): string[] {
  return [...new Set([...prompt.matchAll(CLI_BLOCK)].map((match) => match[1]!))];
}

// Every prompt the harness wrote to a session's stdin, in the order it wrote them.
export function pushedPrompts(sessions: readonly SessionRecording[]): PushedPrompt[] {
  return sessions
    .flatMap((session) => buildTurnTimeline(session).entries.flatMap((e) => (e.kind === "push" ? [{ ...e, session: session.label }] : [])))
    .sort((a, b) => a.t - b.t);
}

// Each UserPromptSubmit is matched, in order, to the first not yet matched pushed prompt with the same text; a hook
// call left without one carries a prompt the harness never pushed.
export function promptSubmits(hooks: readonly HookRecord[], sessions: readonly SessionRecording[]): PromptSubmit[] {
  const unmatched = pushedPrompts(sessions);
  return hooks.flatMap((hook) => {
    if (hook.event !== "UserPromptSubmit") return [];
    const parsed = promptPayloadSchema.safeParse(hook.payload);
    if (!parsed.success) return [];
    const at = unmatched.findIndex((p) => p.text === parsed.data.prompt);
    const pushed = at === -1 ? null : unmatched.splice(at, 1)[0]!;
    return [{ hook, payload: parsed.data, pushed, injected: injectedBlocks(parsed.data.prompt) }];
  });
}

// A payload value as findings and notes show it; also how values are compared (no JSON value prints as "absent").
const shown = (value: Json | undefined) => (value === undefined ? "absent" : canonicalJson(value));

export function distinguishingMarkers(synthetic: PromptPayload, human: PromptPayload): Marker[] {
  const keys = [...new Set([...Object.keys(synthetic), ...Object.keys(human)])];
  return keys
    .filter((key) => (key in synthetic && !(key in human)) || (AUTHOR_KEY.test(key) && shown(synthetic[key]) !== shown(human[key])))
    .map((key) => ({ key, synthetic: synthetic[key], human: human[key] }));
}

const held = (blocks: readonly string[]) => (blocks.length === 0 ? "" : ` (holding ${blocks.map((k) => `<${k}>`).join(" + ")})`);
const keyList = (payload: PromptPayload) => Object.keys(payload).sort().join(", ");

interface Comparison {
  synthetic: PromptSubmit;
  human: PromptSubmit;
  // How findings and notes name the two hook calls.
  where: string;
  typed: string;
}

// The findings on one synthetic prompt, judged against the typed prompt before it.
function compareWithTyped({ synthetic, human, where, typed }: Comparison, red: ReadonlySet<string>): { findings: Finding[]; markers: Marker[] } {
  const markers = distinguishingMarkers(synthetic.payload, human.payload);
  const data = {
    t: synthetic.hook.t,
    injected: synthetic.injected,
    keys: Object.keys(synthetic.payload),
    humanKeys: Object.keys(human.payload),
    markers,
    promptId: synthetic.payload.prompt_id ?? null,
    humanPromptId: human.payload.prompt_id ?? null,
  };
  const findings: Finding[] = [];
  if (markers.length === 0) {
    findings.push(
      finding({
        id: "synthetic-prompt-indistinguishable",
        red: red.has("synthetic-prompt-indistinguishable"),
        title: `a UserPromptSubmit hook got a prompt the harness never pushed${held(synthetic.injected)}, and nothing in its payload says no person typed it`,
        where,
        detail: [
          `prompt ${quote(synthetic.payload.prompt, 100)}`,
          `keys ${keyList(synthetic.payload)}`,
          `${typed} has keys ${keyList(human.payload)}`,
          "no key only on this payload, and no author key (source, origin, …) with a different value",
        ],
        data,
      }),
    );
  }
  if (synthetic.payload.prompt_id !== undefined && shown(synthetic.payload.prompt_id) === shown(human.payload.prompt_id)) {
    findings.push(
      finding({
        id: "prompt-id-reused",
        red: red.has("prompt-id-reused"),
        title: `the synthetic prompt reuses prompt_id ${shown(synthetic.payload.prompt_id)} of the typed prompt before it`,
        where,
        detail: [`${typed} has the same prompt_id`],
        data,
      }),
    );
  }
  return { findings, markers };
}

export function checkHookPrompts(rec: Recordings, options: HookCheckOptions): HookCheck {
  const red = new Set<string>(options.redIds);
  const start = runStart(rec);
  const at = (t: number) => offset(t, start);
  const submits = promptSubmits(rec.hooks, rec.sessions);
  const deliveries = notificationDeliveries(rec, options.streams);
  const findings: Finding[] = [];
  const notes: string[] = [...formatHookTimings(rec.hooks)];
  const unjudged: string[] = [];

  const unreadable = rec.hooks.filter((h) => h.event === "UserPromptSubmit").length - submits.length;
  if (unreadable > 0) unjudged.push(`${unreadable} UserPromptSubmit payload(s) are not JSON objects with a prompt string`);
  notes.push(...reconcile(pushedPrompts(rec.sessions), submits));
  submits.forEach((submit, index) => {
    const label = `UserPromptSubmit #${index + 1} at ${at(submit.hook.t)}`;
    const kind = submit.pushed ? `typed (pushed prompt #${submit.pushed.prompt} of ${submit.pushed.session})` : `synthetic${held(submit.injected)}`;
    notes.push(`${label}, ${kind}: keys ${keyList(submit.payload)}`);
    if (submit.pushed) return;
    const human = submits.slice(0, index).reverse().find((s) => s.pushed !== null);
    if (!human) {
      unjudged.push(`the synthetic ${label} has no typed prompt's payload before it to compare with`);
      return;
    }
    const typed = `typed prompt #${submits.indexOf(human) + 1} at ${at(human.hook.t)}`;
    const compared = compareWithTyped({ synthetic: submit, human, where: `hook ${label}`, typed }, red);
    findings.push(...compared.findings);
    const markerText = compared.markers.map((m) => `${m.key}=${shown(m.synthetic)} (typed prompt: ${shown(m.human)})`).join(", ");
    if (markerText) notes.push(`  told apart from the ${typed} by ${markerText}`);
  });

  for (const lost of deliveries.filter((d) => d.request === null)) {
    // Absence counts only after a window scaled from this run's own pace.
    const waited = waitedSince(rec, lost.finishedAt);
    if (!waited.enough) {
      unjudged.push(`the notification of task ${lost.taskId} had not reached the model when the recording ended (${waited.text})`);
      continue;
    }
    findings.push(
      finding({
        id: "notification-lost",
        red: red.has("notification-lost"),
        title: `task ${lost.taskId} finished, and no request to the model carried its <task-notification> within ${(waited.waitedMs / 1000).toFixed(1)} s`,
        where: `session ${lost.session}, task finished at ${at(lost.finishedAt)}`,
        detail: [`looked in ${options.streams ? `stream ${options.streams.join(", ")}` : "every stream"}`, waited.text],
        data: { ...lost, waitedMs: waited.waitedMs, windowMs: waited.window.requiredMs },
      }),
    );
  }

  for (const d of deliveries) {
    if (d.request) notes.push(`task ${d.taskId} finished at ${at(d.finishedAt)}; its notification reached the model in req ${d.request.seq} at ${at(d.request.receivedAt)}`);
  }
  notes.push("timeline:", ...formatHookTimeline(rec, { start, deliveries }));
  return { findings, reached: reachedPoint(submits, deliveries, unjudged), notes, deliveries };
}

// The harness's count against the hooks': every pushed prompt should fire one UserPromptSubmit; the rest are synthetic.
function reconcile(pushed: readonly PushedPrompt[], submits: readonly PromptSubmit[]): string[] {
  const matched = new Set(submits.flatMap((s) => (s.pushed ? [s.pushed] : [])).map((p) => `${p.session}#${p.prompt}`));
  const typed = matched.size;
  return [
    `prompts: ${pushed.length} pushed on stdin, ${submits.length} UserPromptSubmit (${typed} of a pushed prompt, ${submits.length - typed} synthetic)`,
    ...pushed.filter((p) => !matched.has(`${p.session}#${p.prompt}`)).map((p) => `  pushed prompt #${p.prompt} ${quote(p.text, 60)} fired no UserPromptSubmit`),
  ];
}

function reachedPoint(submits: PromptSubmit[], deliveries: NotificationDelivery[], unjudged: string[]): HookCheck["reached"] {
  if (deliveries.length === 0) return { ok: false, reason: "no background task reported finishing on stdout" };
  const lost = deliveries.filter((d) => d.request === null);
  if (lost.length > 0 && unjudged.length > 0) return { ok: false, reason: unjudged.join("; ") };
  if (lost.length > 0) return { ok: false, reason: `the notification of task ${lost.map((d) => d.taskId).join(", ")} never reached the model` };
  if (!submits.some((s) => s.pushed !== null)) {
    return { ok: false, reason: "the pushed prompt fired no UserPromptSubmit hook, so there is no typed prompt's payload to compare with" };
  }
  if (unjudged.length > 0) return { ok: false, reason: unjudged.join("; ") };
  return { ok: true };
}
