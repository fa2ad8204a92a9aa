// `run --repeat N --jobs J` with a stand-in for one run (no claude here: the verdicts are scripted): at most J runs at
// once, results in the order they were started, --stop-early starting nothing once the finished runs disagree, a run
// that throws ending the repeats only after the runs going beside it finished, and the rules of what may run at once.
import os from "node:os";
import { describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.ts";
import type { CheckResult, Verdict } from "../../core/verdict.ts";
import { runsAtOnce } from "../../pipeline/run-concurrency.ts";
import { runRepeats, type RepeatedRun } from "../../pipeline/run-repeats.ts";
import type { CheckedRun, ScenarioRun } from "../../pipeline/run-scenario.ts";
import { findScenario } from "../../scenarios/index.ts";

const scenario = findScenario("subagent-resume-notification-header")!;
const alone = findScenario("background-mid-turn")!;
const result = (verdict: Verdict): CheckResult => ({ verdict, reason: verdict, findings: [], notes: [] });

// Run i (in the order started) takes delays[i] ms and gives verdicts[i]; records how many ran at once.
function standIn(verdicts: Verdict[], delays: number[]) {
  let active = 0;
  let most = 0;
  let started = 0;
  const runOne = async (_run: ScenarioRun): Promise<CheckedRun> => {
    const i = started++;
    active += 1;
    most = Math.max(most, active);
    await new Promise((r) => setTimeout(r, delays[i] ?? 5));
    active -= 1;
    if (verdicts[i] === undefined) throw new Error(`run ${i} was not scripted`);
    return { runDir: `run-${i}`, record: { result: result(verdicts[i]!) } } as unknown as CheckedRun;
  };
  return { runOne, most: () => most, started: () => started };
}

const base = (over: Partial<RepeatedRun>): RepeatedRun =>
  ({ scenario, params: {}, claude: {} as RepeatedRun["claude"], requested: "2.1.281", runsDir: "runs", repeat: 4, ...over }) as RepeatedRun;

describe("runRepeats with --jobs", () => {
  it("keeps at most `jobs` runs going and gives the results in the order the runs were started", async () => {
    const s = standIn(["RED", "GREEN", "RED", "RED", "RED", "RED"], [40, 5, 5, 5, 5, 5]);
    const finishedOrder: number[] = [];
    const out = await runRepeats(base({ repeat: 6, jobs: 2, runOne: s.runOne, onRun: (_run, index) => finishedOrder.push(index) }));
    expect(s.most()).toBe(2);
    expect(out.results.map((r) => r.verdict)).toEqual(["RED", "GREEN", "RED", "RED", "RED", "RED"]);
    // Run 0 took longest: the others finished first, and it is still first in the results.
    expect(finishedOrder[0]).not.toBe(0);
    expect(out.combined).toMatchObject({ flaky: true, label: "RED 5/6" });
  });

  it("one job runs them one after another", async () => {
    const s = standIn(["RED", "RED", "RED"], [5, 5, 5]);
    await runRepeats(base({ repeat: 3, runOne: s.runOne }));
    expect(s.most()).toBe(1);
  });

  it("with --stop-early starts nothing once the finished runs disagree, and keeps the runs that were going", async () => {
    // Runs 0 and 1 go at once; 1 (GREEN) finishes first, then 0 (RED): flaky. Run 2 starts after run 1 finished
    // (they agreed so far), and is kept; nothing starts after the disagreement.
    const s = standIn(["RED", "GREEN", "RED", "RED", "RED", "RED"], [30, 5, 60]);
    const out = await runRepeats(base({ repeat: 6, jobs: 2, stopEarly: true, runOne: s.runOne }));
    expect(s.started()).toBe(3);
    expect(out.results.map((r) => r.verdict)).toEqual(["RED", "GREEN", "RED"]);
    expect(out.stoppedEarly).toBe(true);
  });

  it("a run that throws stops more from starting, and is thrown once the run beside it has finished", async () => {
    const s = standIn(["RED"], [30, 5]);
    const finished: number[] = [];
    await expect(runRepeats(base({ repeat: 6, jobs: 2, runOne: s.runOne, onRun: (_run, i) => finished.push(i) }))).rejects.toThrow("run 1 was not scripted");
    expect(finished).toEqual([0]);
    expect(s.started()).toBe(2);
  });

  it("a scenario that runs alone refuses more than one job, before any run starts", async () => {
    const s = standIn(["RED", "RED"], [5, 5]);
    const error = await runRepeats(base({ scenario: alone, repeat: 2, jobs: 2, runOne: s.runOne })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect(error).toMatchObject({ code: "CONFLICTING_OPTIONS", hint: "drop --jobs; its runs go one at a time" });
    expect((error as Error).message).toContain("background-mid-turn runs alone");
    expect(s.started()).toBe(0);
  });
});

describe("runsAtOnce", () => {
  it("takes what was asked within the cores; one for a scenario that runs alone", () => {
    const cores = os.availableParallelism();
    expect(runsAtOnce(scenario, cores, "--jobs")).toBe(cores);
    expect(runsAtOnce(alone, 1, "--jobs")).toBe(1);
    expect(() => runsAtOnce(scenario, cores + 1, "--jobs")).toThrow(`--jobs ${cores + 1} is more runs at once than this machine has cores (${cores})`);
    // Across releases (a sweep's --concurrency) the cores are not the limit; running alone still is.
    expect(runsAtOnce(scenario, cores + 1, "--concurrency", "any")).toBe(cores + 1);
    expect(() => runsAtOnce(alone, 2, "--concurrency", "any")).toThrow("background-mid-turn runs alone");
  });

  it("only background-mid-turn of the built-ins runs alone", async () => {
    const { knownScenarios } = await import("../../pipeline/scenario-registry.ts");
    expect(knownScenarios().filter((s) => s.runsAlone).map((s) => s.name)).toEqual(["background-mid-turn"]);
  });
});
