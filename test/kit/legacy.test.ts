// The previous release's kit names still work for one release: an old-style scenario defines, steps and judges as
// before, and each old name warns once with the name that replaces it.
import { afterAll, describe, expect, it, vi } from "vitest";
import { fakeRecordings } from "../fixtures/notifications/recordings.ts";

// Each old name warns once per copy of the kit, and the unit tier shares one module graph between its files
// (isolate: false): a copy of its own, imported after forgetting the shared one, lets this file see every warning.
vi.resetModules();
const { bash, choice, conversation, count, defineScenario, judge, resultSeen, sessionNamed, startWith, stop, text, waitFor, z } = await import("../../kit/index.ts");
const { flattenSteps } = await import("../../kit/steps.ts");

const warnings: string[] = [];
const onWarning = (warning: Error & { code?: string }) => {
  if (warning.code === "CCREPRO_KIT") warnings.push(warning.message);
};
process.on("warning", onWarning);
afterAll(() => {
  process.off("warning", onWarning);
});

// Written as the README showed it before the kit was reshaped.
const old = defineScenario({
  name: "old-style",
  summary: "an old file",
  source: "test",
  // The old positional forms are runtime-only now: their types are the new ones, hence the casts of an old file.
  params: z.strictObject({ how: choice(["sigkill", "stdin"], "sigkill" as never), n: count(2 as never, 1, 5) }),
  findings: [],
  mockScript: () => conversation({ main: { marker: "M", replies: [bash("echo x", "x")], then: text("ok") } }),
  hooks: { events: "all" } as never,
  steps: () => [...startWith("s1", "M go"), waitFor("settled", (rec) => resultSeen(sessionNamed(rec, "s1")), 30_000), stop("s1" as never, "sigkill" as never, 500)] as never,
  check: (() => judge({ reached: { ok: true }, findings: [], notes: [] })) as never,
});

describe("the old kit names", () => {
  it("give the same steps, parameters and hooks as before", () => {
    const steps = old.steps(old.params.parse({}) as never);
    expect(steps.map((s) => s.kind)).toEqual(["start", "send", "wait", "stop"]);
    expect(steps[2]).toMatchObject({ kind: "wait", label: "settled", timeoutMs: 30_000, onTimeout: "inconclusive" });
    expect(steps[3]).toEqual({ kind: "stop", session: "s1", how: "sigkill", graceMs: 500 });
    expect(flattenSteps(startWith("s2", "p", { resume: "s1" }))).toEqual([{ kind: "start", session: "s2", resume: "s1" }, { kind: "send", session: "s2", message: { text: "p" } }]);
    expect(old.params.parse({})).toEqual({ how: "sigkill", n: 2 });
    expect(old.hooks({} as never)).toEqual({ events: "all" });
  });

  it("judge as before: a check that returns judge(…) keeps its verdict", () => {
    expect(old.check(fakeRecordings([]), {} as never).verdict).toBe("GREEN");
  });

  it("warn once each, naming what replaces them", async () => {
    // process.emitWarning delivers on a later tick.
    await new Promise((resolve) => setImmediate(resolve));
    const expected = [/startWith.*start\(s1, \{ prompt \}\)/, /waitFor.*wait\(label, until, \{ timeout \}\)/, /session named by a string.*session\("s1"\)/, /stop\(session, how, graceMs\).*stop\(s1, \{ how, grace \}\)/, /choice\(values, fallback\)/, /count\(fallback, min, max\)/, /hooks: \{ events \}.*hooks: \{ record \}/, /judge/];
    for (const pattern of expected) expect(warnings.some((w) => pattern.test(w)), String(pattern)).toBe(true);
    expect(new Set(warnings).size).toBe(warnings.length);
  });
});
