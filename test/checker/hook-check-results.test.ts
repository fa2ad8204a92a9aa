// checkHookPrompts' own result, word for word: the notification-lost finding, why a run did not reach the point it
// checks, and how synthetic prompts are named and compared. Built on the seed 003 recordings (../fixtures/hooks),
// edited in memory where a case needs it, and on hand-built sessions where a recording has no such case.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkHookPrompts, promptSubmits, pushedPrompts, type HookCheckOptions } from "../../checker/hooks.ts";
import { loadRecordings, type HookRecord, type Recordings } from "../../harness/recordings.ts";
import { fakeRecordings } from "../fixtures/notifications/recordings.ts";
import { result, session, type Step } from "../fixtures/turns/session.ts";

const recorded = (name: string) => loadRecordings(fileURLToPath(new URL(`../fixtures/hooks/${name}`, import.meta.url)));
const check = (rec: Recordings, options: Partial<HookCheckOptions> = {}) => checkHookPrompts(rec, { redIds: [], ...options });
const NOTIFICATION = "<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>";

// The recorded UserPromptSubmit hooks, typed first and synthetic second, with their payloads editable in memory.
function promptHooks(rec: Recordings) {
  const [typed, synthetic] = promptSubmits(rec.hooks, rec.sessions).map((s) => s.hook);
  return { typed: typed!, synthetic: synthetic!, payload: (h: HookRecord) => h.payload as Record<string, unknown> };
}

// Another UserPromptSubmit call at t with a copy of a recorded payload and the given prompt.
function addPrompt(rec: Recordings, like: HookRecord, t: number, prompt: string) {
  rec.hooks.push({ ...like, t, payload: { ...(like.payload as object), prompt } });
  rec.hooks.sort((a, b) => a.t - b.t);
}

// 2.1.281 mid-turn with the delivering request removed: the notification of b0ko2miw6 reached no request.
function lostNotification(keptLonger: boolean) {
  const rec = recorded("2.1.281-mid-turn");
  rec.requests = rec.requests.filter((r) => r.seq !== 3);
  if (keptLonger) rec.sessions[0]!.process!.endedAt = rec.sessions[0]!.process!.startedAt + 60_000;
  return rec;
}

// A hand-built stream-json session: one pushed prompt, and the given background Bash calls, each reported finished one
// second apart on stdout; the session goes on to t = 20 s. The mock received no requests at all.
function backgroundRun(taskIds: string[]): Recordings {
  const calls = taskIds.map((_, i) => ({ type: "tool_use", id: `toolu_${i}`, name: "Bash", input: { command: "sleep 1", run_in_background: true } }));
  const steps: Step[] = [
    { t: 0, push: "start the background tasks" },
    { t: 100, out: { type: "assistant", message: { role: "assistant", content: calls }, parent_tool_use_id: null, session_id: "s" } },
    ...taskIds.map((id, i): Step => ({ t: 1000 * (i + 1), out: { type: "system", subtype: "task_notification", task_id: id, tool_use_id: `toolu_${i}`, status: "completed" } })),
    { t: 20_000, out: result(1, "done") },
  ];
  const rec = fakeRecordings([]);
  rec.sessions = [session("s1", steps)];
  rec.hooks = [{ t: 50, event: "UserPromptSubmit", durationMs: 1, raw: "", payload: { session_id: "s", prompt_id: "p1", prompt: "start the background tasks" }, answer: null }];
  return rec;
}

describe("notification-lost, as a person reads it", () => {
  it("says which task, how long the run watched, where it finished and which streams were searched", () => {
    const [lost] = check(lostNotification(true), { streams: ["main"] }).findings.filter((f) => f.id === "notification-lost");
    expect(lost?.title).toBe("task b0ko2miw6 finished, and no request to the model carried its <task-notification> within 57.5 s");
    expect(lost?.where).toBe("session s1, task finished at +2.502s");
    expect(lost?.detail).toEqual([
      "looked in stream main",
      "watched 57.5 s; window 6.0 s: 5 × (time to first request 1.2 s + slowest response 0.0 s), at least 5.0 s",
    ]);
  });

  it("names every stream it searched, or says it searched them all", () => {
    const detail = (streams?: string[]) => check(lostNotification(true), { streams }).findings.find((f) => f.id === "notification-lost")?.detail[0];
    expect(detail(["main", "sub"])).toBe("looked in stream main, sub");
    expect(detail()).toBe("looked in every stream");
  });
});

describe("why a run did not reach the point the hook check judges", () => {
  it("a run whose stdout reported no background task finishing", () => {
    expect(check(backgroundRun([])).reached).toEqual({ ok: false, reason: "no background task reported finishing on stdout" });
  });

  it("a notification that never reached the model, once the run watched long enough, naming every lost task", () => {
    const rec = backgroundRun(["b1", "b2"]);
    const { reached, findings } = check(rec);
    expect(findings.map((f) => `${f.id} ${f.where}`)).toEqual(["notification-lost session s1, task finished at +1.000s", "notification-lost session s1, task finished at +2.000s"]);
    expect(reached).toEqual({ ok: false, reason: "the notification of task b1, b2 never reached the model" });
    expect(check(lostNotification(true)).reached).toEqual({ ok: false, reason: "the notification of task b0ko2miw6 never reached the model" });
  });

  // The run ended too soon to call the notification lost, and a payload could not be read either: both are said.
  it("every reason it could not judge, when a notification is missing too early to call it lost", () => {
    const rec = lostNotification(false);
    rec.hooks.push({ t: rec.hooks.at(-1)!.t + 1, event: "UserPromptSubmit", durationMs: 1, raw: "{trunc", payload: null, answer: null });
    expect(check(rec).reached).toEqual({
      ok: false,
      reason:
        "1 UserPromptSubmit payload(s) are not JSON objects with a prompt string; the notification of task b0ko2miw6 had not reached the model " +
        "when the recording ended (watched 3.5 s; window 6.0 s: 5 × (time to first request 1.2 s + slowest response 0.0 s), at least 5.0 s)",
    });
  });

  // The notification reached the model, but a synthetic prompt came before any typed one (added in memory just before
  // the typed hook) and another payload could not be read: nothing to compare it with.
  it("every reason it could not judge, when the notification reached the model", () => {
    const rec = recorded("2.1.234-mid-turn");
    const [typed] = promptSubmits(rec.hooks, rec.sessions).map((s) => s.hook);
    addPrompt(rec, typed!, typed!.t - 1, "continue");
    rec.hooks.push({ t: rec.hooks.at(-1)!.t + 1, event: "UserPromptSubmit", durationMs: 1, raw: "{trunc", payload: null, answer: null });
    const { reached, findings } = check(rec, { streams: ["main"] });
    expect(findings).toEqual([]);
    expect(reached).toEqual({
      ok: false,
      reason:
        "1 UserPromptSubmit payload(s) are not JSON objects with a prompt string; " +
        "the synthetic UserPromptSubmit #1 at +0.829s has no typed prompt's payload before it to compare with",
    });
  });
});

describe("synthetic prompts, compared with the typed prompt before them", () => {
  it("names both CLI blocks a synthetic prompt holds", () => {
    const rec = recorded("2.1.234-after-turn");
    const { synthetic, payload } = promptHooks(rec);
    payload(synthetic).prompt = `${NOTIFICATION}\n<system-reminder>\nThe task finished.\n</system-reminder>`;
    expect(check(rec).findings[0]?.title).toBe(
      "a UserPromptSubmit hook got a prompt the harness never pushed (holding <task-notification> + <system-reminder>), and nothing in its payload says no person typed it",
    );
  });

  // A release whose payloads carry no prompt_id at all: two absent ids are not one id reused.
  it("does not call a prompt_id reused when neither payload has one", () => {
    const rec = recorded("2.1.281-mid-turn");
    const { typed, synthetic, payload } = promptHooks(rec);
    delete payload(typed).prompt_id;
    delete payload(synthetic).prompt_id;
    expect(check(rec).findings.map((f) => f.id)).toEqual(["synthetic-prompt-indistinguishable"]);
  });

  it("makes prompt-id-reused RED only when the caller counts it RED", () => {
    const red = (redIds: HookCheckOptions["redIds"]) => check(recorded("2.1.281-mid-turn"), { redIds }).findings.map((f) => `${f.id} ${f.red}`);
    expect(red(["prompt-id-reused"])).toEqual(["synthetic-prompt-indistinguishable false", "prompt-id-reused true"]);
    expect(red(["synthetic-prompt-indistinguishable"])).toEqual(["synthetic-prompt-indistinguishable true", "prompt-id-reused false"]);
  });

  // A second synthetic prompt (added in memory one second after the first) is judged against the typed prompt, not
  // against the synthetic one just before it.
  it("compares each synthetic prompt with the last typed prompt, skipping synthetic ones", () => {
    const rec = recorded("2.1.234-after-turn");
    const { synthetic } = promptHooks(rec);
    addPrompt(rec, synthetic, synthetic.t + 1000, "continue");
    const findings = check(rec).findings;
    expect(findings.map((f) => f.where)).toEqual(["hook UserPromptSubmit #2 at +5.811s", "hook UserPromptSubmit #3 at +6.811s"]);
    expect(findings.map((f) => f.detail[2]?.split(" has keys")[0])).toEqual(["typed prompt #1 at +1.430s", "typed prompt #1 at +1.430s"]);
  });

  // A second typed prompt pushed after the synthetic one (added in memory to stdin and the hooks): the synthetic prompt
  // is compared with the typed prompt before it, never with one a person typed later.
  it("compares a synthetic prompt with a typed prompt before it, not with a later one", () => {
    const rec = recorded("2.1.234-after-turn");
    const { typed, synthetic } = promptHooks(rec);
    const later = synthetic.t + 1000;
    rec.sessions[0]!.stdin.push({ t: later - 10, raw: JSON.stringify({ type: "user", message: { role: "user", content: "and now?" } }) });
    addPrompt(rec, typed, later, "and now?");
    const result = check(rec);
    expect(result.notes.filter((n) => n.startsWith("UserPromptSubmit #")).map((n) => n.split(":")[0])).toEqual([
      "UserPromptSubmit #1 at +1.430s, typed (pushed prompt #1 of s1)",
      "UserPromptSubmit #2 at +5.811s, synthetic (holding <task-notification>)",
      "UserPromptSubmit #3 at +6.811s, typed (pushed prompt #2 of s1)",
    ]);
    expect(result.findings.map((f) => f.detail[2]?.split(" has keys")[0])).toEqual(["typed prompt #1 at +1.430s"]);
  });

  // Two typed prompts before the synthetic one (the second added in memory): the comparison is with the nearer one.
  it("compares a synthetic prompt with the last typed prompt before it, not the first", () => {
    const rec = recorded("2.1.234-after-turn");
    const { typed, synthetic } = promptHooks(rec);
    const between = synthetic.t - 1000;
    rec.sessions[0]!.stdin.push({ t: between - 10, raw: JSON.stringify({ type: "user", message: { role: "user", content: "one more" } }) });
    rec.sessions[0]!.stdin.sort((a, b) => a.t - b.t);
    addPrompt(rec, typed, between, "one more");
    expect(check(rec).findings.map((f) => [f.where, f.detail[2]?.split(" has keys")[0]])).toEqual([
      ["hook UserPromptSubmit #3 at +5.811s", "typed prompt #2 at +4.811s"],
    ]);
  });

  // Two markers (edited in memory): an author key with another value, and a key the typed payload lacks.
  it("lists every marker that tells the synthetic payload apart, with the typed prompt's value or its absence", () => {
    const rec = recorded("2.1.234-after-turn");
    const { typed, synthetic, payload } = promptHooks(rec);
    payload(typed).source = "sdk";
    Object.assign(payload(synthetic), { source: "system", task_id: "bl2hpgkgi" });
    expect(check(rec).notes.filter((n) => n.startsWith("  told apart"))).toEqual([
      '  told apart from the typed prompt #1 at +1.430s by source="system" (typed prompt: "sdk"), task_id="bl2hpgkgi" (typed prompt: absent)',
    ]);
  });
});

describe("pushed prompts and the hooks that count", () => {
  // Two sessions whose pushes interleave in time (s2 pushed between s1's first and second prompt).
  it("lists the prompts of every session in the order the harness pushed them", () => {
    const sessions = [session("s1", [{ t: 1000, push: "one" }, { t: 5000, push: "three" }]), session("s2", [{ t: 3000, push: "two" }])];
    expect(pushedPrompts(sessions).map((p) => `${p.session}#${p.prompt} ${p.text}`)).toEqual(["s1#1 one", "s2#1 two", "s1#2 three"]);
  });

  // A hook of another event whose payload happens to carry a prompt string is no prompt submission.
  it("reads only UserPromptSubmit hooks as prompt submissions", () => {
    const hooks: HookRecord[] = [{ t: 1, event: "SubagentStart", durationMs: 1, raw: "", payload: { session_id: "s", prompt: "one" }, answer: null }];
    expect(promptSubmits(hooks, [session("s1", [{ t: 0, push: "one" }])])).toEqual([]);
  });
});
