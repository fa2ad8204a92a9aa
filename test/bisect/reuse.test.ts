// Reused verdicts (--reuse), the run plan and the run budget (--max-runs), driven by outcome tables: no processes.
import { describe, expect, it } from "vitest";
import type { Verdict } from "../../core/verdict.ts";
import { BisectError } from "../../bisect/errors.ts";
import { formatPlan, formatProgress, formatStop, formatSummary } from "../../bisect/format.ts";
import { outcomeFor } from "../../bisect/outcome.ts";
import { planRuns } from "../../bisect/plan.ts";
import { priorFrom } from "../../bisect/reuse.ts";
import { runBisect, type RunBisectOptions } from "../../bisect/run-bisect.ts";
import type { BisectResult, ReusedRun } from "../../bisect/types.ts";
import { bisectSdkReleases } from "../../bisect/bisect-releases.ts";
import { UserError } from "../../core/errors.ts";
import { findScenario } from "../../scenarios/index.ts";
import { bisectTable, candidates, monotone, NEW, OLD, type Table } from "./tables.ts";

// Earlier runs of each release: one verdict per run directory, named as the runs dir of an earlier bisection would.
function earlier(verdicts: Record<string, Verdict | Verdict[] | { verdict: Verdict; findings: string[] }[]>): Map<string, ReusedRun[]> {
  return new Map(
    Object.entries(verdicts).map(([version, cells]) => [
      version,
      [cells].flat().map((cell, i) => {
        const { verdict, findings } = typeof cell === "string" ? { verdict: cell, findings: [] as string[] } : cell;
        const result = { verdict, reason: verdict, findings: findings.map((id) => ({ id, red: true, title: id, where: "", detail: [], data: {} })), notes: [] };
        return { runDir: `old-runs/${version}-${i + 1}`, result };
      }),
    ]),
  );
}

// Elapsed times at 0, so the printed lines compare whole.
const bisect = (table: Table, list: string[], extra: Partial<RunBisectOptions> = {}) => bisectTable(table, list, { now: () => 0, ...extra });

async function stopOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BisectError);
  const detail = (error as BisectError).detail;
  if (detail.kind !== "budget-spent") throw new Error(`expected budget-spent, got ${detail.kind}: ${(error as Error).message}`);
  return detail;
}

// Everything a finished bisection measured, as a later --reuse of its runs directory would find it.
function measuredBy(result: BisectResult, table: Table): Map<string, ReusedRun[]> {
  const verdicts: Record<string, Verdict[]> = {};
  for (const step of result.steps) {
    for (const [i, run] of step.runs.entries()) {
      if (run.reused) continue;
      const row = table[step.version]!;
      const cell = Array.isArray(row) ? row[i]! : row;
      if (typeof cell === "string" && cell !== "install-fails" && cell !== "harness-fails") (verdicts[step.version] ??= []).push(cell);
    }
  }
  return earlier(verdicts);
}

describe("priorFrom: reused runs by the one repeat rule", () => {
  const of = outcomeFor();
  const runs = (...verdicts: Verdict[]) => earlier({ v: verdicts }).get("v")!;

  it("agreeing runs settle the release when there are at least --repeat of them; fewer leave the rest to measure", () => {
    expect(priorFrom(runs("RED", "RED"), of, 2)).toMatchObject({ outcomes: ["RED", "RED"], missing: 0 });
    expect(priorFrom(runs("RED"), of, 3)).toMatchObject({ outcomes: ["RED"], missing: 2 });
    expect(priorFrom(runs("RED", "RED", "RED"), of, 1)).toMatchObject({ missing: 0 });
    expect(priorFrom([], of, 2)).toEqual({ records: [], outcomes: [], missing: 2 });
  });

  it("every matching run counts, beyond --repeat too: one disagreement makes the release flaky (combineRepeats)", () => {
    const prior = priorFrom(runs("RED", "RED", "GREEN"), of, 1);
    expect(prior.skip).toEqual({ kind: "flaky", outcomes: ["RED", "RED", "GREEN"] });
    expect(prior.missing).toBe(0);
    expect(prior.records.every((r) => r.reused && r.runDir?.startsWith("old-runs/"))).toBe(true);
  });

  it("with --finding, runs that agree on the verdict but not on the finding disagree", () => {
    const mixed = earlier({ v: [{ verdict: "RED", findings: ["B"] }, { verdict: "RED", findings: [] }] }).get("v")!;
    expect(priorFrom(mixed, outcomeFor("B"), 1).skip).toEqual({ kind: "flaky", outcomes: ["has:B", "lacks:B"] });
  });

  it("an UNSUPPORTED run is the same skip a fresh one gives", () => {
    expect(priorFrom(runs("UNSUPPORTED"), of, 1).skip).toEqual({ kind: "unsupported", message: "UNSUPPORTED" });
  });
});

describe("runBisect --reuse", () => {
  const list = candidates(7); // 2.1.0 … 2.1.6; change at 2.1.4: path 2.1.3 (old), 2.1.5 (new), 2.1.4 (new)
  const table = monotone(list, 4);

  it("a second bisection over the runs of the first runs nothing and finds the same first new release", async () => {
    const first = await bisect(table, list).result;
    expect(first.budget).toMatchObject({ runs: 5, reused: 0 });
    const again = bisect(table, list, { reused: measuredBy(first, table) });
    const second = await again.result;
    expect(again.calls).toEqual([]);
    expect(second.answer).toEqual(first.answer);
    expect(second.budget).toMatchObject({ runs: 0, reused: 5, steps: 5 });
    expect(second.steps.every((s) => s.runs.every((r) => r.reused && r.runDir === `old-runs/${s.version}-1`))).toBe(true);
    const steps = again.events.filter((e) => e.kind === "step");
    expect(steps.map((e) => [e.version, e.reusedFrom, e.measured])).toEqual(first.steps.map((s) => [s.version, [`old-runs/${s.version}-1`], 0]));
    expect(again.events[0]).toMatchObject({ kind: "plan", atMost: 0, withoutReuse: 5, reusedReleases: 5, reusedRuns: 5 });
  });

  it("endpoints are reused too; the candidates nobody measured are run", async () => {
    const { result, calls } = bisect(table, list, { reused: earlier({ [OLD]: "GREEN", [NEW]: "RED" }) });
    const r = await result;
    expect(calls).toEqual(["2.1.3", "2.1.5", "2.1.4"]);
    expect(r.steps.slice(0, 2).map((s) => s.runs)).toEqual([
      [{ outcome: "GREEN", runDir: `old-runs/${OLD}-1`, ms: 0, reused: true }],
      [{ outcome: "RED", runDir: `old-runs/${NEW}-1`, ms: 0, reused: true }],
    ]);
    expect(r.budget).toMatchObject({ runs: 3, reused: 2 });
  });

  it("reused runs count towards --repeat: the rest is measured, and a disagreement with them is flaky", async () => {
    const { result, calls } = bisect(monotone(list, 4, { "2.1.3": ["GREEN", "RED"] }), list, {
      repeat: 2,
      reused: earlier({ [OLD]: ["GREEN", "GREEN"], [NEW]: "RED", "2.1.3": "GREEN" }),
    });
    const r = await result;
    expect(calls.slice(0, 2)).toEqual([NEW, "2.1.3"]);
    const step3 = r.steps.find((s) => s.version === "2.1.3")!;
    expect(step3.runs.map((run) => [run.outcome, run.reused ?? false])).toEqual([
      ["GREEN", true],
      ["GREEN", false],
    ]);
    expect(r.answer).toEqual({ lastOld: "2.1.3", firstNew: "2.1.4", skippedBetween: [] });
  });

  it("reused runs that disagree make a candidate a flaky skip without running it, and an endpoint an error", async () => {
    const { result, calls } = bisect(table, list, { reused: earlier({ "2.1.3": ["GREEN", "RED"] }) });
    const r = await result;
    expect(calls).not.toContain("2.1.3");
    expect(r.skipped).toEqual([{ version: "2.1.3", reason: { kind: "flaky", outcomes: ["GREEN", "RED"] } }]);
    const broken = bisect(table, list, { reused: earlier({ [OLD]: ["GREEN", "RED"] }) });
    await expect(broken.result).rejects.toMatchObject({ detail: { kind: "endpoint-broken", endpoint: "old" } });
    expect(broken.calls).toEqual([]);
  });

  it("a release its reused verdicts settle is never downloaded", async () => {
    const fetched: string[] = [];
    const { result } = bisect(table, list, {
      reused: earlier({ [OLD]: "GREEN", [NEW]: "RED", "2.1.3": "GREEN" }),
      prefetch: async (version) => {
        fetched.push(version);
        return { bytes: 1, ms: 1 };
      },
    });
    await result;
    // 2.1.3 is settled old, so 2.1.5 comes next; 2.1.1 is fetched for the branch where it had been new.
    expect(fetched).not.toContain(OLD);
    expect(fetched).not.toContain(NEW);
    expect(fetched).not.toContain("2.1.3");
    expect(fetched).toContain("2.1.5");
  });
});

describe("planRuns: the most runs a bisection can need", () => {
  const worstActual = (n: number, repeat: number, reused?: Map<string, ReusedRun[]>, only?: (t: number) => boolean) => {
    const list = candidates(n);
    let most = 0;
    return (async () => {
      for (let t = 0; t <= n; t++) {
        if (only && !only(t)) continue;
        const r = await bisect(monotone(list, t), list, { repeat, reused }).result;
        most = Math.max(most, r.budget.runs);
      }
      return most;
    })();
  };

  it.each([0, 1, 2, 3, 6, 7, 8, 20])("without --reuse: repeat × (2 + ⌈log2(n+1)⌉), reached by some transition (%i candidates)", async (n) => {
    for (const repeat of [1, 3]) {
      const plan = planRuns({ old: OLD, new: NEW, candidates: candidates(n), repeat, priorOf: () => undefined });
      expect(plan.atMost).toBe(repeat * (2 + Math.ceil(Math.log2(n + 1))));
      expect(plan.withoutReuse).toBe(plan.atMost);
      expect(await worstActual(n, repeat)).toBe(plan.atMost);
    }
  });

  it("with every subset of releases known (up to 5 candidates): never below what a bisection runs, and exact when the endpoints are known", async () => {
    for (let n = 1; n <= 5; n++) {
      const list = candidates(n);
      const range = [OLD, ...list, NEW];
      // Every verdict table (not only monotone ones: a real range can flip back), every subset of it known.
      const worst = new Map<string, { plan: number; actual: number }>();
      for (let bits = 0; bits < 1 << n; bits++) {
        const table: Table = { [OLD]: "GREEN", [NEW]: "RED" };
        list.forEach((v, i) => (table[v] = bits & (1 << i) ? "RED" : "GREEN"));
        for (let mask = 0; mask < 1 << range.length; mask++) {
          const known: Record<string, Verdict> = {};
          range.forEach((v, i) => {
            if (mask & (1 << i)) known[v] = table[v] as Verdict;
          });
          const reused = earlier(known);
          const plan = planRuns({ old: OLD, new: NEW, candidates: list, repeat: 1, priorOf: (v) => priorFrom(reused.get(v) ?? [], outcomeFor(), 1) }).atMost;
          const r = await bisect(table, list, { reused }).result;
          expect(r.budget.runs).toBeLessThanOrEqual(plan);
          if (known[OLD] && known[NEW]) {
            const key = JSON.stringify(known);
            const seen = worst.get(key);
            worst.set(key, { plan, actual: Math.max(seen?.actual ?? 0, r.budget.runs) });
          }
        }
      }
      // Over the tables that agree with what is known, the worst bisection needs exactly the plan.
      for (const { plan, actual } of worst.values()) expect(actual).toBe(plan);
    }
  });

  it("a plan with unknown endpoints allows for their runs and any class a known candidate may fall in", () => {
    const list = candidates(3);
    const reused = earlier({ "2.1.1": "GREEN" });
    const plan = planRuns({ old: OLD, new: NEW, candidates: list, repeat: 2, priorOf: (v) => priorFrom(reused.get(v) ?? [], outcomeFor(), 2) });
    // 2 endpoints × 2, then 2.1.1 needs 1 more run; after it one of 2.1.0 / 2.1.2 (2 runs each).
    expect(plan).toMatchObject({ atMost: 4 + 1 + 2, withoutReuse: 2 * (2 + 2), reusedReleases: 0, reusedRuns: 1 });
  });
});

describe("runBisect --max-runs", () => {
  const list = candidates(7);
  const table = monotone(list, 4);

  it("stops before the run that would exceed the budget, with the narrowed range and a resume command that reuses the runs", async () => {
    const { result, calls } = bisect(table, list, { maxRuns: 3, rerun: { runsDir: "runs/b", reuse: ["old-runs"] } });
    const stop = await stopOf(result);
    expect(calls).toEqual([OLD, NEW, "2.1.3"]);
    expect(stop).toMatchObject({ maxRuns: 3, lastOld: "2.1.3", firstNew: NEW });
    expect(stop.steps.map((s) => s.version)).toEqual([OLD, NEW, "2.1.3"]);
    expect(stop.resume).toBe(`ccrepro bisect demo --old 2.1.3 --new ${NEW} --runs-dir runs/b --reuse old-runs --reuse runs/b`);
    expect(formatStop(stop)).toContain(`range still to search: 2.1.3 (last old) … ${NEW} (first new so far)`);
    expect(formatStop(stop).split("\n").at(-1)).toBe(`  ${stop.resume}`);
  });

  it("the resumed bisection, reusing what the stopped one measured, runs only what is left and finds the same answer", async () => {
    const stopped = bisect(table, list, { maxRuns: 3 });
    const stop = await stopOf(stopped.result);
    const measured = measuredBy({ steps: stop.steps } as BisectResult, table);
    const rest = list.slice(list.indexOf(stop.lastOld) + 1);
    const resumed = bisect(table, rest, { old: stop.lastOld, reused: measured });
    const r = await resumed.result;
    expect(resumed.calls).toEqual(["2.1.5", "2.1.4"]);
    expect(r.answer).toEqual({ lastOld: "2.1.3", firstNew: "2.1.4", skippedBetween: [] });
  });

  it("reused verdicts cost nothing, a budget of exactly what is needed finishes, and 0 runs only what is known", async () => {
    const reused = earlier({ [OLD]: "GREEN", [NEW]: "RED" });
    const r = await bisect(table, list, { reused, maxRuns: 3 }).result;
    expect(r.budget).toMatchObject({ runs: 3, reused: 2 });
    const zero = await stopOf(bisect(table, list, { reused, maxRuns: 0 }).result);
    expect(zero).toMatchObject({ lastOld: OLD, firstNew: NEW });
    expect(zero.steps).toHaveLength(2);
  });

  it("a budget spent between a release's repeats stops there; that release is no step yet (its run is reused on resume)", async () => {
    const { result, calls } = bisect(table, list, { repeat: 2, maxRuns: 3 });
    const stop = await stopOf(result);
    expect(calls).toEqual([OLD, OLD, NEW]);
    expect(stop.steps.map((s) => s.version)).toEqual([OLD]);
    expect(stop).toMatchObject({ lastOld: OLD, firstNew: NEW });
    expect(stop.resume).toBe(`ccrepro bisect demo --old ${OLD} --new ${NEW} --repeat 2`);
    // Resumed with the three runs reused: the new endpoint needs one more, then the candidates two each.
    const resumed = bisect(table, list, { repeat: 2, reused: earlier({ [OLD]: ["GREEN", "GREEN"], [NEW]: "RED" }) });
    await resumed.result;
    expect(resumed.calls.slice(0, 3)).toEqual([NEW, "2.1.3", "2.1.3"]);
  });

  it("refuses a budget that is not a whole number", async () => {
    await expect(bisect(table, list, { maxRuns: -1 }).result).rejects.toMatchObject({ detail: { kind: "bad-input" } });
  });
});

describe("what the output says about reuse and the cache", () => {
  it("the plan line says the bound and what --reuse saves", () => {
    const base = { candidates: 2, repeat: 1, withoutReuse: 4 };
    expect(formatPlan({ ...base, atMost: 4, reusedReleases: 0, reusedRuns: 0 })).toBe(
      "expecting at most 4 runs (2 endpoints + ⌈log2(2+1)⌉ = 2 of 2 candidates, 1 run each; a skipped release adds its neighbour's)",
    );
    expect(formatPlan({ ...base, atMost: 1, reusedReleases: 3, reusedRuns: 3 })).toMatch(
      /^expecting at most 1 run: --reuse settles 3 of 4 releases with 3 runs measured earlier \(4 runs without it: /,
    );
  });

  it("a step says which run directories its verdict came from; a cached release is not a 0 KB download", () => {
    const step = { kind: "step", index: 1, estimatedTotal: 4, version: "2.1.92", role: "old endpoint", outcome: "RED", ms: 0 } as const;
    expect(formatProgress({ ...step, reusedFrom: ["runs/a"], measured: 0 })).toBe("step 1/≈4: 2.1.92 (old endpoint) → RED (0.0 s, reused runs/a)");
    expect(formatProgress({ ...step, reusedFrom: ["runs/a"], measured: 1 })).toBe("step 1/≈4: 2.1.92 (old endpoint) → RED (0.0 s, reused runs/a + 1 run measured)");
    expect(formatProgress({ kind: "start", index: 1, estimatedTotal: 4, version: "2.1.92", role: "candidate", reused: true })).toBe("step 1/≈4: 2.1.92 from earlier runs …");
    expect(formatProgress({ kind: "download", version: "2.1.92", bytes: 0, ms: 80, fromCache: true })).toBe("  2.1.92 is cached (nothing to download)");
  });

  it("the summary counts cache hits apart from downloads", async () => {
    const list = candidates(1);
    const r = await bisect(monotone(list, 1), list).result;
    const text = formatSummary({ ...r, download: { fetched: [OLD, NEW, "2.1.0"], hiddenMs: 0, waitedMs: 0, unused: [], cached: [OLD, NEW] } });
    expect(text).toContain("downloads: 1 fetched, 2 already cached, 0.0 s hidden behind runs, 0.0 s waited");
  });

  it("the summary marks each step reused or measured and counts the reused runs", async () => {
    const list = candidates(1);
    const r = await bisect(monotone(list, 1), list, { reused: earlier({ [OLD]: "GREEN" }) }).result;
    const text = formatSummary(r);
    expect(text).toContain(`  1  ${OLD}    old endpoint  GREEN       old    reused    0.0 s  old-runs/${OLD}-1`);
    expect(text).toMatch(/  2  3\.0\.0 +new endpoint +RED +new +measured /);
    expect(text.split("\n").at(-1)).toMatch(/; 2 runs, 1 reused from earlier run directories$/);
  });
});

describe("--reuse on the SDK axis", () => {
  it("is refused before anything runs: reused runs are tied to a release by its claude binary, which that axis pins", async () => {
    const scenario = findScenario("resume-orphaned-background-task")!;
    const input = {
      scenario,
      scenarioWord: scenario.name,
      params: {},
      rawParams: {},
      drive: {},
      old: "0.3.150",
      new: "0.3.197",
      repeat: 1,
      runsDir: "runs",
      reuse: ["runs"],
      checkChangelog: false,
      options: [],
      onProgress: () => {},
      onNote: () => {},
      signal: new AbortController().signal,
      claude: "2.1.234",
    };
    const error = await bisectSdkReleases(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(/--reuse works on the claude axis only/);
  });
});
