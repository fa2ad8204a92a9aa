// The hook checker and seed 003's check, over runs recorded from real releases (../fixtures/hooks/README.md).
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { hookTimings } from "../../checker/format-hooks.ts";
import { median } from "../../core/statistics.ts";
import { distinguishingMarkers, injectedBlocks, promptSubmits } from "../../checker/hooks.ts";
import { notificationDeliveries } from "../../checker/notification-delivery.ts";
import type { CheckResult } from "../../core/verdict.ts";
import { loadRecordings, type HookRecord, type Recordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import type { Step } from "../../harness/plan.ts";

const scenario = findScenario("hook-task-notification-prompt")!;
const params = (when: string) => scenario.params.parse({ when });
const recorded = (name: string) => loadRecordings(fileURLToPath(new URL(`../fixtures/hooks/${name}`, import.meta.url)));
const check = (rec: Recordings, when: string) => scenario.check(rec, params(when));
const ids = (result: CheckResult) => result.findings.map((f) => `${f.id}${f.red ? "" : " (info)"}`);
const settledWait = (rec: Recordings) => (scenario.steps(params("mid-turn")).find((s) => s.kind === "wait") as Extract<Step, { kind: "wait" }>).until(rec);

const NOTIFICATION = "<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>";
const PAYLOAD_KEYS = ["cwd", "hook_event_name", "permission_mode", "prompt", "prompt_id", "session_id", "transcript_path"];

// The loaded UserPromptSubmit payloads, typed vs synthetic, for tests that edit them in memory.
function promptPayloads(rec: Recordings) {
  const [typed, synthetic] = promptSubmits(rec.hooks, rec.sessions).map((s) => s.hook.payload as Record<string, unknown>);
  return { typed: typed!, synthetic: synthetic! };
}

describe("injectedBlocks", () => {
  it("names the CLI's blocks a prompt holds, whatever surrounds them", () => {
    expect(injectedBlocks("CCREPRO_HOOKS_3Q start the background task")).toEqual([]);
    expect(injectedBlocks(NOTIFICATION)).toEqual(["task-notification"]);
    expect(injectedBlocks(`A background task finished:\n${NOTIFICATION}`)).toEqual(["task-notification"]);
    expect(injectedBlocks(`<system-reminder>\n[SYSTEM NOTIFICATION - NOT USER INPUT]\n${NOTIFICATION}\n</system-reminder>`)).toEqual(["system-reminder"]);
    expect(injectedBlocks(`${NOTIFICATION}\n<system-reminder>x</system-reminder>\n${NOTIFICATION}`)).toEqual(["task-notification", "system-reminder"]);
  });
});

describe("distinguishingMarkers", () => {
  const typed = { session_id: "s", prompt_id: "p1", prompt: "hello" };
  const synthetic = { session_id: "s", prompt_id: "p2", prompt: NOTIFICATION };

  it("finds none when only the prompt and its id differ", () => {
    expect(distinguishingMarkers(synthetic, typed)).toEqual([]);
  });

  it("finds a key only the synthetic payload has", () => {
    expect(distinguishingMarkers({ ...synthetic, task_id: "b1" }, typed)).toEqual([{ key: "task_id", synthetic: "b1", human: undefined }]);
  });

  it("finds an author key whose value differs, also when the synthetic payload lacks it", () => {
    expect(distinguishingMarkers({ ...synthetic, source: "system" }, { ...typed, source: "sdk" })).toEqual([{ key: "source", synthetic: "system", human: "sdk" }]);
    expect(distinguishingMarkers(synthetic, { ...typed, origin: "user" })).toEqual([{ key: "origin", synthetic: undefined, human: "user" }]);
  });

  it("does not count an author key both payloads share with the same value", () => {
    expect(distinguishingMarkers({ ...synthetic, source: "sdk" }, { ...typed, source: "sdk" })).toEqual([]);
  });
});

describe("hook timings", () => {
  it("gives the median and max per event, and for all calls first", () => {
    const hook = (event: string, durationMs: number | null): HookRecord => ({ t: 0, event, durationMs, raw: "", payload: null, answer: null });
    const timings = hookTimings([hook("Stop", 1), hook("PreToolUse", 4), hook("Stop", 3), hook("Stop", 8), hook("PreToolUse", null)]);
    expect(timings).toEqual([
      { event: "all", calls: 5, medianMs: 3.5, maxMs: 8 },
      { event: "Stop", calls: 3, medianMs: 3, maxMs: 8 },
      { event: "PreToolUse", calls: 2, medianMs: 4, maxMs: 4 },
    ]);
    expect(median([])).toBeNull();
  });
});

describe("seed 003 replayed: 2.1.281, when=mid-turn", () => {
  it("is RED: the absorbed notification fires a UserPromptSubmit shaped like the typed one, reusing its prompt_id", () => {
    const result = check(recorded("2.1.281-mid-turn"), "mid-turn");
    expect(result.verdict).toBe("RED");
    expect(ids(result)).toEqual(["synthetic-prompt-indistinguishable", "prompt-id-reused (info)"]);
    const [indistinguishable, reused] = result.findings;
    expect(indistinguishable?.data).toMatchObject({ injected: ["task-notification"], markers: [] });
    const { keys, humanKeys } = indistinguishable?.data as { keys: string[]; humanKeys: string[] };
    expect([...keys].sort()).toEqual(PAYLOAD_KEYS);
    expect(keys).toEqual(humanKeys);
    expect(indistinguishable?.detail[0]).toMatch(/^prompt "<task-notification> <task-id>b0ko2miw6<\/task-id>/);
    expect(reused?.data.promptId).toBe("6e442b84-4542-4784-8e7d-e9b2c9ec9bde");
    expect(reused?.data.humanPromptId).toBe(reused?.data.promptId);
  });

  it("prints hook count and median per event, the payload keys, and one timeline merging hooks, requests and stdout", () => {
    const rec = recorded("2.1.281-mid-turn");
    const { notes } = check(rec, "mid-turn");
    expect(notes[0]).toMatch(/^hooks: 11 calls, median \d+\.\d ms, max \d+\.\d ms/);
    for (const event of new Set(rec.hooks.map((h) => h.event))) {
      const calls = rec.hooks.filter((h) => h.event === event).length;
      expect(notes).toContainEqual(expect.stringMatching(new RegExp(`^  ${event} +${calls}×  median +\\d+\\.\\d ms  max +\\d+\\.\\d ms$`)));
    }
    expect(notes).toContain(`UserPromptSubmit #2 at +5.752s, synthetic (holding <task-notification>): keys ${PAYLOAD_KEYS.join(", ")}`);
    expect(notes).toContain("task b0ko2miw6 finished at +2.502s; its notification reached the model in req 3 at +5.799s");
    const timeline = notes.slice(notes.indexOf("timeline:") + 1);
    expect(timeline).toHaveLength(rec.hooks.length + rec.requests.length + rec.sessions[0]!.stdout.length + rec.sessions[0]!.stdin.length);
    expect(timeline).toContainEqual(expect.stringMatching(/^ +\+5\.752s {2}hook {2}UserPromptSubmit {2,}prompt_id=6e442b84 "<task-notification>/));
    expect(timeline).toContainEqual(expect.stringMatching(/^ +\+5\.799s {2}mock {2}request {2,}#3 {2}main\/2 → text:"noted" {2}⇐ task-notification b0ko2miw6$/));
    const offsets = timeline.map((line) => Number.parseFloat(line.trim()));
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  });

  it("reports notification-lost when no request carried the notification (delivering request removed, session kept 60 s longer, in memory)", () => {
    const rec = recorded("2.1.281-mid-turn");
    rec.requests = rec.requests.filter((r) => r.seq !== 3);
    rec.sessions[0]!.process!.endedAt = rec.sessions[0]!.process!.startedAt + 60_000;
    const result = check(rec, "mid-turn");
    expect(ids(result)).toContain("notification-lost");
    expect(result.findings.find((f) => f.id === "notification-lost")?.data).toMatchObject({ taskId: "b0ko2miw6", request: null });
    expect(result.verdict).toBe("RED");
    expect(settledWait(rec)).toBe(false);
  });

  it("cannot judge a synthetic payload without a typed prompt's payload to compare with (typed hook removed in memory)", () => {
    const rec = recorded("2.1.281-mid-turn");
    const typed = promptSubmits(rec.hooks, rec.sessions).find((s) => s.pushed !== null)!.hook;
    rec.hooks = rec.hooks.filter((h) => h !== typed);
    const result = check(rec, "mid-turn");
    expect(result.findings).toEqual([]);
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toMatch(/fired no UserPromptSubmit hook/);
  });
});

describe("seed 003 replayed: 2.1.234", () => {
  it("after-turn is RED: the wake-up fires a UserPromptSubmit shaped like the typed one, with its own prompt_id", () => {
    const result = check(recorded("2.1.234-after-turn"), "after-turn");
    expect(result.verdict).toBe("RED");
    expect(ids(result)).toEqual(["synthetic-prompt-indistinguishable"]);
    expect(result.findings[0]?.data.promptId).not.toBe(result.findings[0]?.data.humanPromptId);
  });

  it("mid-turn is GREEN: the notification reached the model and fired no UserPromptSubmit", () => {
    const rec = recorded("2.1.234-mid-turn");
    const result = check(rec, "mid-turn");
    expect(result.verdict).toBe("GREEN");
    expect(promptSubmits(rec.hooks, rec.sessions).map((s) => s.pushed?.prompt)).toEqual([1]);
    expect(notificationDeliveries(rec, ["main"])).toMatchObject([{ taskId: "bkv8tq80c", request: { seq: 3 } }]);
  });

  it("is not GREEN when a UserPromptSubmit payload cannot be read (an unparseable payload added in memory)", () => {
    const rec = recorded("2.1.234-mid-turn");
    rec.hooks.push({ t: rec.hooks.at(-1)!.t + 1, event: "UserPromptSubmit", durationMs: 1, raw: "{trunc", payload: null, answer: null });
    const result = check(rec, "mid-turn");
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toBe("1 UserPromptSubmit payload(s) are not JSON objects with a prompt string");
  });

  it("after-turn turns GREEN when the synthetic payload carries a marker (payload edited in memory: no release sends one yet)", () => {
    const withSource = recorded("2.1.234-after-turn");
    const both = promptPayloads(withSource);
    both.typed.source = "sdk";
    both.synthetic.source = "system";
    const result = check(withSource, "after-turn");
    expect(result.verdict).toBe("GREEN");
    expect(result.notes).toContainEqual(expect.stringMatching(/told apart from the typed prompt #1 at \+\d+\.\d+s by source="system" \(typed prompt: "sdk"\)$/));

    const withFlag = recorded("2.1.234-after-turn");
    promptPayloads(withFlag).synthetic.task_id = "bl2hpgkgi";
    expect(check(withFlag, "after-turn").verdict).toBe("GREEN");
  });

  it("stays RED when both payloads carry the same author value", () => {
    const rec = recorded("2.1.234-after-turn");
    const both = promptPayloads(rec);
    both.typed.source = "sdk";
    both.synthetic.source = "sdk";
    expect(check(rec, "after-turn").verdict).toBe("RED");
  });

  it("does not count a run for the cell it did not reach: after-turn timing checked as mid-turn is INCONCLUSIVE", () => {
    const result = check(recorded("2.1.234-after-turn"), "mid-turn");
    expect(result.verdict).toBe("INCONCLUSIVE");
    expect(result.reason).toBe("the notification was delivered after-turn, not mid-turn as asked");
    expect(ids(result)).toEqual(["synthetic-prompt-indistinguishable (info)"]);
  });
});

describe("the scenario's wait", () => {
  it("holds once the delivering request was answered and a result followed, not before", () => {
    const rec = recorded("2.1.234-after-turn");
    expect(settledWait(rec)).toBe(true);
    const session = rec.sessions[0]!;
    const finalResult = Math.max(...session.stdout.filter((line) => line.event?.type === "result").map((line) => line.line));
    session.stdout = session.stdout.slice(0, finalResult);
    expect(settledWait(rec)).toBe(false);
    const unanswered = recorded("2.1.234-after-turn");
    unanswered.responseEnds.delete(3);
    expect(settledWait(unanswered)).toBe(false);
  });
});

describe("synthetic is what the harness did not push, whatever its wording", () => {
  // A release that puts a lead-in line in front of the notification (edited in memory on the recorded payload).
  const reword = (rec: Recordings) => {
    const { synthetic } = promptPayloads(rec);
    synthetic.prompt = `A background task finished:\n${String(synthetic.prompt)}`;
    return rec;
  };

  it.each([
    ["2.1.281-mid-turn", "mid-turn"],
    ["2.1.234-after-turn", "after-turn"],
  ])("%s: a reworded synthetic prompt stays RED", (name, when) => {
    const result = check(reword(recorded(name)), when);
    expect(result.verdict).toBe("RED");
    expect(ids(result)[0]).toBe("synthetic-prompt-indistinguishable");
    expect(result.findings[0]?.detail[0]).toMatch(/^prompt "A background task finished: <task-notification>/);
  });

  it("a prompt the harness pushed is typed, even when it is only a notification's blocks", () => {
    const rec = recorded("2.1.234-after-turn");
    const { typed, synthetic } = promptPayloads(rec);
    const stdin = rec.sessions[0]!.stdin;
    const pushed = JSON.parse(stdin[0]!.raw) as { message: { content: string } };
    pushed.message.content = String(synthetic.prompt);
    stdin[0] = { ...stdin[0]!, raw: JSON.stringify(pushed) };
    typed.prompt = synthetic.prompt;
    // Both prompts now read alike; the first was pushed, so only the second is synthetic.
    const submits = promptSubmits(rec.hooks, rec.sessions);
    expect(submits.map((s) => s.pushed !== null)).toEqual([true, false]);
  });

  it("a plain prompt nobody pushed is synthetic too, and its title names no CLI block", () => {
    const rec = recorded("2.1.234-after-turn");
    promptPayloads(rec).synthetic.prompt = "continue";
    const result = check(rec, "after-turn");
    expect(result.verdict).toBe("RED");
    expect(result.findings[0]?.title).toBe("a UserPromptSubmit hook got a prompt the harness never pushed, and nothing in its payload says no person typed it");
    expect(result.notes).toContainEqual(expect.stringMatching(/^UserPromptSubmit #1 at \+\d+\.\d+s, typed \(pushed prompt #1 of s1\): keys /));
    expect(result.notes).toContainEqual(expect.stringMatching(/^UserPromptSubmit #2 at \+\d+\.\d+s, synthetic: keys /));
  });

  it("reconciles pushed prompts with UserPromptSubmit events in the notes", () => {
    expect(check(recorded("2.1.281-mid-turn"), "mid-turn").notes).toContain(
      "prompts: 1 pushed on stdin, 2 UserPromptSubmit (1 of a pushed prompt, 1 synthetic)",
    );
  });

  it("names a pushed prompt that fired no UserPromptSubmit (a second push added in memory)", () => {
    const rec = recorded("2.1.281-mid-turn");
    const stdin = rec.sessions[0]!.stdin;
    stdin.push({ t: stdin[0]!.t + 1, raw: JSON.stringify({ type: "user", message: { role: "user", content: "second" } }) });
    const result = check(rec, "mid-turn");
    expect(result.notes).toContain("prompts: 2 pushed on stdin, 2 UserPromptSubmit (1 of a pushed prompt, 1 synthetic)");
    expect(result.notes).toContainEqual(expect.stringMatching(/^  pushed prompt #2 "second" fired no UserPromptSubmit$/));
  });
});
