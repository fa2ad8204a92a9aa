// The public entry's thin builders produce what the mock's script schema and the step executor accept.
import { describe, expect, it } from "vitest";
import { mockScriptSchema } from "../../mock-api/script.ts";
import { command, conversation, drop, httpError, midStreamError, press, print, resume, session, stall, start, stop, subagent, terminal, text, thinking, type, wait } from "../../kit/index.ts";
import { flattenSteps } from "../../kit/steps.ts";
import { stepProblems } from "../../kit/scenario.ts";

describe("reply and fault builders", () => {
  it("build replies the mock's script schema accepts, faults included", () => {
    const script = mockScriptSchema.parse(
      conversation({
        main: {
          marker: "M",
          replies: [
            thinking("plan first", text("planned")),
            subagent("SUB run it", "worker", { background: true }),
            httpError(529, { times: 2, then: text("after the retries") }),
            midStreamError(text("cut"), { afterBlocks: 0 }),
            stall(text("late"), { ms: 50 }),
            drop(text("gone"), { afterEvents: 3 }),
          ],
        },
      }),
    );
    const main = script.replies["main"] as Record<string, { content: { type: string }[]; fault?: { kind: string }; faultTimes?: number }>;
    expect(main["0"]!.content.map((c) => c.type)).toEqual(["thinking", "text"]);
    expect(main["1"]!.content[0]).toMatchObject({ type: "tool_use", name: ["Agent", "Task"], input: { run_in_background: true, subagent_type: "general-purpose" } });
    expect([main["2"]!.fault?.kind, main["2"]!.faultTimes]).toEqual(["http-error", 2]);
    expect(["3", "4", "5"].map((k) => main[k]!.fault?.kind)).toEqual(["mid-stream-error", "stall", "drop"]);
  });
});


describe("step builders", () => {
  const [s0, s1, ui] = [session("s0"), session("s1"), session("ui")];

  it("give the harness's steps from nested lists, and resume names an earlier session", () => {
    const steps = flattenSteps([resume(s1, { from: s0, prompt: "go on" }), [stop(s1, { how: "sigkill", grace: 500 }), command("agents", ["agents", "--json"])], type(ui, "hi"), press(ui, "enter")]);
    expect(steps.slice(0, 4)).toEqual([
      { kind: "start", session: "s1", resume: "s0" },
      { kind: "send", session: "s1", message: { text: "go on" } },
      { kind: "stop", session: "s1", how: "sigkill", graceMs: 500 },
      { kind: "command", label: "agents", args: ["agents", "--json"], timeoutMs: 30_000 },
    ]);
    expect(stepProblems(steps)).toEqual([
      'steps[0] (start s1) resumes session "s0", which no earlier step started',
      'steps[4] (type) names session "ui", which no earlier start step started (started so far: s1)',
      'steps[5] (press) names session "ui", which no earlier start step started (started so far: s1)',
    ]);
  });

  it("let a terminal resume an earlier session and be stopped by a signal, refusing a stop it cannot take", () => {
    const steps = flattenSteps([print(s0, "p", { output: "text" }), terminal(ui, { resume: s0, cols: 100 }), stop(ui, { how: "sigterm" }), stop(ui)]);
    expect(steps.slice(0, 3)).toEqual([
      { kind: "print", session: "s0", prompt: "p", timeoutMs: 120_000, output: "text" },
      { kind: "terminal", session: "ui", resume: "s0", cols: 100 },
      { kind: "stop", session: "ui", how: "sigterm", graceMs: 0 },
    ]);
    expect(stepProblems(steps)).toEqual(['steps[3] (stop ui): ui is a terminal session, which has no stdin to close; give { how: "sigterm" } or { how: "sigkill" }']);
    expect(stepProblems(flattenSteps([terminal(ui, { resume: s1 })]))).toEqual(['steps[0] (terminal ui) resumes session "s1", which no earlier step started']);
    // stream-json is the default, so it is not written into the step.
    expect(flattenSteps([print(s0, "p", { output: "stream-json" })])[0]).not.toHaveProperty("output");
  });

  it("put flags and --continue on start and print, and default every optional number", () => {
    expect(flattenSteps([start(s0, { prompt: "p", args: ["--max-turns", "2"], fork: true })])).toEqual([
      { kind: "start", session: "s0", extraArgs: ["--max-turns", "2"], fork: true },
      { kind: "send", session: "s0", message: { text: "p" } },
    ]);
    expect(flattenSteps([print(s1, "p", { continueLatest: true, args: ["--fallback-model", "m"] })])).toEqual([
      { kind: "print", session: "s1", prompt: "p", timeoutMs: 120_000, continueLatest: true, extraArgs: ["--fallback-model", "m"] },
    ]);
    const [waited] = flattenSteps([wait("w", () => true)]);
    expect(waited).toMatchObject({ kind: "wait", timeoutMs: 60_000, onTimeout: "inconclusive" });
    expect(flattenSteps([stop(s0)])).toEqual([{ kind: "stop", session: "s0", how: "stdin", graceMs: 0 }]);
  });

  it("give print an endAfter limit, and refuse one that could never end anything", () => {
    const s1 = session("s1");
    expect(flattenSteps([print(s1, "p", { endAfter: { requests: 3 } })])).toEqual([{ kind: "print", session: "s1", prompt: "p", timeoutMs: 120_000, endAfter: { requests: 3 } }]);
    expect(flattenSteps([print(s1, "p", { endAfter: { ms: 5000, requests: 2 } })])[0]).toMatchObject({ endAfter: { requests: 2, ms: 5000 } });
    expect(() => print(s1, "p", { endAfter: {} })).toThrow(/give requests, ms or both/);
    expect(() => print(s1, "p", { endAfter: { requests: 0 } })).toThrow(/whole number of requests, 1 or more/);
    expect(() => print(s1, "p", { endAfter: { ms: 1.5 } })).toThrow(/whole number of milliseconds/);
  });

  it("refuse a session name that cannot be a folder", () => {
    expect(() => session("../up")).toThrow(/letters, digits/);
  });
});
