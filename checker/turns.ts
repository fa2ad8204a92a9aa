// The turn grammar every scenario can apply: each pushed prompt settles once, and nothing works on a settled turn.
//
// Words used here:
// - human result: a result whose origin is absent or "human". Any other origin (e.g. "task-notification") means the
//   CLI opened that loop for itself; such a result never settles a pushed prompt.
// - zero-work result: num_turns 0, zero tokens of usage, empty result text (the resume settlement an orchestrator reported as bb #1718).
// - pending prompts: pushes not yet settled, first in first out. A human result settles the oldest pending prompt,
//   except a zero-work one followed, before the next push, by at least as many human results as there are pending
//   prompts: it only looked like a settlement (an older release's unstamped resume result); the real answer follows.
// - settled session: no prompt pending and at least one result seen.
// - wake-up: what legitimately starts work in a settled session without a push, after the latest result: a
//   `system/init`, or a `task_notification` event, or — for assistant output — the next result carrying a non-human
//   origin (the output belonged to that task-notification turn). Task started/progress/updated events are not
//   wake-ups: a background task reporting progress does not reopen the conversation.
// - a human result with no prompt pending is a second settlement of the prompt the previous result settled when
//   nothing woke the session in between; otherwise (before any push, after a wake-up, or after a non-human result)
//   it answers nothing that was pushed: unattributed.
import type { SessionRecording } from "../harness/recordings.ts";
import { finding, type CheckerOutput, type Finding } from "../core/verdict.ts";
import { formatTimeline } from "./timeline-format.ts";
import {
  buildTurnTimeline,
  type AssistantEntry,
  type PushEntry,
  type ResultEntry,
  type TimelineEntry,
  type TurnTimeline,
} from "./turn-timeline.ts";

// Re-exported so a caller of the grammar needs one import; the builder lives next to its types.
export { type TurnTimeline } from "./turn-timeline.ts";

export const TURN_FINDINGS = [
  "prompt-settled-by-extra-result",
  "unattributed-result",
  "root-work-after-settle",
  "turn-settled-twice",
  "prompt-never-settled",
] as const;
export type TurnFindingId = (typeof TURN_FINDINGS)[number];

export const isHumanResult = (r: ResultEntry): boolean => r.origin === null || r.origin === "human";
export const isZeroWork = (r: ResultEntry): boolean => r.numTurns === 0 && r.tokens === 0 && r.text === "";

export interface PromptTurn {
  push: PushEntry;
  // Results that arrived while this prompt was pending and did not settle it (non-human origin, or zero work).
  extras: ResultEntry[];
  settledBy: ResultEntry | null;
  // Human results right after the settlement (no push, no wake-up, no other result between): the turn settled again.
  resettled: ResultEntry[];
}

export interface RootWorkStretch {
  // The latest result before the work: the session was settled by it.
  after: ResultEntry;
  work: AssistantEntry[];
}

export interface TurnAnalysis {
  prompts: PromptTurn[];
  // Human results with no pending prompt that are not a re-settlement either: they answer nothing that was pushed.
  unattributed: ResultEntry[];
  rootWorkAfterSettle: RootWorkStretch[];
}

function isResult(entry: TimelineEntry): entry is ResultEntry {
  return entry.kind === "result";
}

// How many human results follow position i before the next push.
function humanResultsBeforeNextPush(entries: TimelineEntry[], i: number): number {
  let count = 0;
  for (const entry of entries.slice(i + 1)) {
    if (entry.kind === "push") break;
    if (isResult(entry) && isHumanResult(entry)) count++;
  }
  return count;
}

// The first result after position i: whose turn a piece of assistant output there belongs to.
function resultAfter(entries: TimelineEntry[], i: number): ResultEntry | null {
  return entries.slice(i + 1).find(isResult) ?? null;
}

export function analyseTurns(timeline: TurnTimeline): TurnAnalysis {
  const { entries } = timeline;
  const prompts: PromptTurn[] = [];
  const pending: PromptTurn[] = [];
  const unattributed: ResultEntry[] = [];
  const stretches: RootWorkStretch[] = [];
  let latest: ResultEntry | null = null;
  // The prompt the latest result settled (or settled again); null when the latest result was anything else.
  let latestSettled: PromptTurn | null = null;
  let woken = false;
  let stretch: RootWorkStretch | null = null;

  for (const [i, entry] of entries.entries()) {
    if (entry.kind === "push") {
      const turn: PromptTurn = { push: entry, extras: [], settledBy: null, resettled: [] };
      prompts.push(turn);
      pending.push(turn);
    } else if (entry.kind === "init" || (entry.kind === "task" && entry.subtype === "task_notification")) {
      woken = true;
    } else if (entry.kind === "assistant") {
      if (latest === null || pending.length > 0 || woken || entry.parentToolUseId !== null) continue;
      // Output of a task-notification turn that got no wake-up event before it.
      const next = resultAfter(entries, i);
      if (next !== null && !isHumanResult(next)) continue;
      if (stretch === null) {
        stretch = { after: latest, work: [] };
        stretches.push(stretch);
      }
      stretch.work.push(entry);
    } else if (entry.kind === "result") {
      const head = pending[0];
      let settles: PromptTurn | null = null;
      if (!isHumanResult(entry)) {
        head?.extras.push(entry);
      } else if (head !== undefined) {
        if (isZeroWork(entry) && humanResultsBeforeNextPush(entries, i) >= pending.length) head.extras.push(entry);
        else {
          pending.shift();
          head.settledBy = entry;
          settles = head;
        }
      } else if (latestSettled !== null && !woken) {
        latestSettled.resettled.push(entry);
        settles = latestSettled;
      } else {
        unattributed.push(entry);
      }
      latest = entry;
      latestSettled = settles;
      woken = false;
      // A stretch of root work ends at a result; tool results inside it do not end it. Pushes and wake-ups need no
      // such check: each holds all output off the stretch until the next result anyway.
      stretch = null;
    }
  }
  return { prompts, unattributed, rootWorkAfterSettle: stretches };
}

// The result that answered the push at `index` (0-based among the session's pushes, i.e. prompt #index+1): the first of
// its human settlements with num_turns > 0, else null.
export function promptAnswer(timeline: TurnTimeline, index: number): ResultEntry | null {
  const turn = analyseTurns(timeline).prompts[index];
  if (turn === undefined) return null;
  const settlements = turn.settledBy === null ? turn.resettled : [turn.settledBy, ...turn.resettled];
  return settlements.find((r) => (r.numTurns ?? 0) > 0) ?? null;
}

// Whether a scenario's run reached the point of a prompt: it was answered. Cheap enough for live wait predicates.
export function promptAnswered(session: SessionRecording, index: number): boolean {
  return promptAnswer(buildTurnTimeline(session), index) !== null;
}

export interface TurnCheckOptions {
  // Finding ids that make the scenario RED; every other finding is informational.
  redIds?: readonly string[];
  // Time 0 for printed offsets (the run's start); the session's start by default.
  start?: number;
}

function resultGist(r: ResultEntry): string {
  return `origin=${r.origin ?? "none"} num_turns=${r.numTurns ?? "?"} usage=${r.tokens}${isZeroWork(r) ? " (zero work)" : ""}`;
}

function resultData(r: ResultEntry): Record<string, unknown> {
  return { line: r.line, origin: r.origin, numTurns: r.numTurns, usage: r.usage, tokens: r.tokens, text: r.text };
}

// The turn grammar as a whole check: reached once the given prompt got its answer.
export function checkTurnGrammar(session: SessionRecording, options: TurnCheckOptions & { prompt?: number } = {}): CheckerOutput {
  const prompt = options.prompt ?? 0;
  const reached = promptAnswered(session, prompt)
    ? ({ ok: true } as const)
    : ({ ok: false, reason: `session ${session.label} never answered prompt #${prompt}` } as const);
  return { reached, findings: checkTurnStructure(session, options), notes: [] };
}

// Findings for one session, each citing the stdout lines that show it (pushes are cited by stdin index and time).
export function checkTurnStructure(session: SessionRecording, options: TurnCheckOptions = {}): Finding[] {
  const timeline = buildTurnTimeline(session);
  const start = options.start ?? timeline.start;
  const red = new Set(options.redIds);
  const label = timeline.label;
  const pushed = (p: PushEntry): string => `prompt #${p.prompt} pushed +${((p.t - start) / 1000).toFixed(3)}s`;
  const make = (id: TurnFindingId, title: string, lines: number[], extra: string, data: Record<string, unknown>) =>
    finding({
      id,
      red: red.has(id),
      title,
      where: `session ${label}, stdout line${lines.length > 1 ? "s" : ""} ${lines.join(", ")}${extra}`,
      detail: formatTimeline(timeline, { around: lines, context: 2, start }),
      data: { session: label, lines, ...data },
    });

  const { prompts, unattributed, rootWorkAfterSettle } = analyseTurns(timeline);
  const findings: Finding[] = [];
  for (const turn of prompts) {
    const { push, settledBy } = turn;
    const promptData = { prompt: push.prompt, promptText: push.text, pushedAt: push.t };
    for (const extra of turn.extras) {
      const lines = settledBy === null ? [extra.line] : [extra.line, settledBy.line];
      const title = `prompt #${push.prompt} got a result it did not ask for before its answer: ${resultGist(extra)}`;
      findings.push(
        make("prompt-settled-by-extra-result", title, lines, `; ${pushed(push)}`, {
          ...promptData,
          ...resultData(extra),
          zeroWork: isZeroWork(extra),
          answerLine: settledBy?.line ?? null,
        }),
      );
    }
    if (settledBy === null) {
      const lines = turn.extras.map((r) => r.line);
      const title = `prompt #${push.prompt} was never settled by a human result`;
      findings.push(make("prompt-never-settled", title, lines, `${lines.length ? "; " : ""}${pushed(push)}`, promptData));
      continue;
    }
    // Only a settled prompt is ever settled again.
    for (const again of turn.resettled) {
      const lines = [settledBy.line, again.line];
      const title = `prompt #${push.prompt} settled twice: lines ${lines.join(" and ")} (second: ${resultGist(again)})`;
      findings.push(make("turn-settled-twice", title, lines, `; ${pushed(push)}`, { ...promptData, ...resultData(again) }));
    }
  }
  for (const r of unattributed) {
    const title = `result answers no pushed prompt and cannot be told from a human turn's end: ${resultGist(r)}`;
    findings.push(make("unattributed-result", title, [r.line], "", resultData(r)));
  }
  for (const { after, work } of rootWorkAfterSettle) {
    const lines = work.map((w) => w.line);
    const title = `root assistant output after result at line ${after.line} settled, with no push or wake-up before it`;
    findings.push(
      make("root-work-after-settle", title, [after.line, ...lines], "", { settledAt: after.line, workLines: lines }),
    );
  }
  return findings;
}
