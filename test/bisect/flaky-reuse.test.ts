// `bisect --confidence` with --reuse: runs measured earlier are free runs of the calibrating bisector. On the seeded
// stand-in releases of flaky-sim.ts: a bisection over an earlier one's runs starts fewer (none, when they are its
// own) and lands on the same pair; a bisection stopped by --max-runs and resumed over its runs ends where an
// uninterrupted one ends; runs of another binary or other parameters found on disk are not taken.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reusedSignals } from "../../bisect/bisect-rates.ts";
import { flakyBisect, FlakyBisectError, type Sample } from "../../bisect/flaky-bisector.ts";
import { readRunRecord, writeRunRecord } from "../../harness/run-record.ts";
import { todaysPlan } from "../todays-plan.ts";
import type { CheckResult } from "../../core/verdict.ts";
import { driverFor } from "../../pipeline/drivers.ts";
import { findScenario } from "../../scenarios/index.ts";
import { sampler, seeded, truth, type Truth } from "./flaky-sim.ts";

// A sampler that also keeps every outcome it gave, by release, in order: what a later --reuse of its runs would find.
function recording(sample: Sample): { sample: Sample; seen: Map<string, (boolean | null)[]> } {
  const seen = new Map<string, (boolean | null)[]>();
  return {
    seen,
    sample: async (version) => {
      const outcome = await sample(version);
      seen.set(version, [...(seen.get(version) ?? []), outcome]);
      return outcome;
    },
  };
}

const never: Sample = async (version) => {
  throw new Error(`started a run of ${version}; every run should have been reused`);
};

const pair = (r: { lastOld: string; firstNew: string }) => [r.lastOld, r.firstNew];

describe("flakyBisect with reused runs", () => {
  it("over its own runs a second bisection starts none and lands on the same pair, at the same confidence", async () => {
    for (const [t, seed] of [[truth(30, 9, 0, 0.8), 1], [truth(30, 17, 0, 0.3), 2], [truth(20, 6, 0.8, 1), 3], [truth(12, 5, 0.9, 0), 4]] as const) {
      const first = recording(sampler(t, seeded(seed)));
      const a = await flakyBisect({ versions: t.versions, confidence: 0.95, sample: first.sample });
      const b = await flakyBisect({ versions: t.versions, confidence: 0.95, sample: never, reused: first.seen });
      expect(pair(b)).toEqual(pair(a));
      expect(b).toMatchObject({ runs: 0, reused: a.runs, kind: a.kind, confidence: a.confidence, confirmed: a.confirmed });
      // Each step says how many of its runs were reused: all of them.
      expect(b.steps.every((s) => s.tally.reused === s.tally.runs)).toBe(true);
    }
  });

  it("over an earlier, independent bisection's runs it starts fewer and is right as often", async () => {
    const t: Truth = truth(30, 9, 0, 0.8);
    const want = [t.versions[8], t.versions[9]];
    const TRIALS = 100;
    let started = 0, startedAlone = 0, right = 0, rightAlone = 0, reused = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const earlier = recording(sampler(t, seeded(50_000 + trial)));
      await flakyBisect({ versions: t.versions, confidence: 0.95, sample: earlier.sample });
      const alone = await flakyBisect({ versions: t.versions, confidence: 0.95, sample: sampler(t, seeded(90_000 + trial)) });
      const withReuse = await flakyBisect({ versions: t.versions, confidence: 0.95, sample: sampler(t, seeded(90_000 + trial)), reused: earlier.seen });
      startedAlone += alone.runs;
      started += withReuse.runs;
      reused += withReuse.reused;
      if (pair(alone).join() === want.join()) rightAlone++;
      if (pair(withReuse).join() === want.join()) right++;
    }
    // Measured: 3 307 runs started alone; with the earlier runs reused none at all (3 238 reused: the earlier
    // bisection probed the same releases, and its runs settle each step); right 99 of 100 both ways.
    expect(started).toBeLessThan(0.2 * startedAlone);
    expect(reused).toBeGreaterThan(0);
    expect(right).toBeGreaterThanOrEqual(rightAlone - 2);
    expect(right / TRIALS).toBeGreaterThanOrEqual(0.95);
  });

  it("reused runs only at the ends seed the calibration: those runs are not started again", async () => {
    const t = truth(9, 4, 0, 1);
    const r = await flakyBisect({
      versions: t.versions,
      confidence: 0.9,
      sample: sampler(t, seeded(7)),
      reused: new Map([[t.versions[8]!, [true, true, true, true]], [t.versions[0]!, Array(10).fill(false)]]),
    });
    // The good end takes the 6 runs its target asks for from the reused ones; the other 4 join its rate, free.
    expect(r.steps.slice(0, 3).map((s) => [s.version, s.role, s.tally])).toEqual([
      [t.versions[8], "calibrate bad end", { hits: 4, of: 4, runs: 4, reused: 4 }],
      [t.versions[0], "calibrate good end", { hits: 0, of: 6, runs: 6, reused: 6 }],
      [t.versions[0], "calibrate good end", { hits: 0, of: 10, runs: 10, reused: 10 }],
    ]);
    expect(r).toMatchObject({ firstNew: t.versions[4], reused: 14 });
    const alone = await flakyBisect({ versions: t.versions, confidence: 0.9, sample: sampler(t, seeded(7)) });
    // Alone, the calibration started 10 runs (4 and 6); here none.
    expect(alone.steps.slice(0, 2).map((s) => s.tally.of)).toEqual([4, 6]);
    expect(r.runs).toBe(alone.runs - 10);
  });

  it("reused runs an end has left after its calibration join its rate, free", async () => {
    const t = truth(9, 4, 0, 1);
    const r = await flakyBisect({ versions: t.versions, confidence: 0.9, sample: sampler(t, seeded(8)), reused: new Map([[t.versions[0]!, Array(30).fill(false)]]) });
    expect(r.oldRate).toEqual({ hits: 0, of: 30, runs: 30, reused: 30 });
    expect(r.steps.filter((s) => s.version === t.versions[0]).map((s) => s.tally.reused)).toEqual([6, 30]);
  });

  it("stopped by --max-runs and resumed over its runs, it ends where an uninterrupted bisection ends", async () => {
    const t = truth(30, 20, 0, 0.3);
    const whole = await flakyBisect({ versions: t.versions, confidence: 0.95, sample: sampler(t, seeded(11)) });
    const rand = seeded(11);
    const stopped = recording(sampler(t, rand));
    const error = await flakyBisect({ versions: t.versions, confidence: 0.95, sample: stopped.sample, maxRuns: 40 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlakyBisectError);
    expect((error as FlakyBisectError).failure).toMatchObject({ kind: "budget-spent", runs: 40, reused: 0 });
    // The same random stream carries on: the runs a resumed bisection starts are the ones the whole one started next.
    const resumed = await flakyBisect({ versions: t.versions, confidence: 0.95, sample: sampler(t, rand), reused: stopped.seen });
    expect(pair(resumed)).toEqual(pair(whole));
    expect(resumed).toMatchObject({ reused: 40, runs: whole.runs - 40, confidence: whole.confidence });
  });

  it("--max-runs counts started runs only", async () => {
    const t = truth(9, 4, 0, 1);
    const first = recording(sampler(t, seeded(9)));
    const a = await flakyBisect({ versions: t.versions, confidence: 0.9, sample: first.sample });
    const b = await flakyBisect({ versions: t.versions, confidence: 0.9, sample: never, reused: first.seen, maxRuns: 0 });
    expect(pair(b)).toEqual(pair(a));
  });
});

describe("reusedSignals: the run directories plain --reuse would take, read as signals", () => {
  const FIXTURE = path.join(import.meta.dirname, "..", "fixtures", "nightly", "recorded", "runs", "20261130T162129Z-resume-orphaned-background-task-2.1.281-496d36", "run.json");
  const base = readRunRecord(FIXTURE);
  const scenario = findScenario("resume-orphaned-background-task")!;
  const driver = driverFor(scenario);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-flaky-reuse-"));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const shaOf = (version: string) => `sha-of-${version}`;
  let written = 0;
  // These records carry made-up verdicts over no logs: today's check would judge them ERROR, so they stand as recorded.
  const asRecorded = (_runDir: string, recorded: CheckResult) => recorded;

  // One run directory as a run of `version` would leave it: the finding "x" present when `hit`.
  function writeRun(dir: string, version: string, hit: boolean | null, change: { sha256?: string; params?: Record<string, unknown> } = {}): void {
    const runDir = path.join(root, dir, `run-${String(++written).padStart(4, "0")}`);
    fs.mkdirSync(runDir, { recursive: true });
    const finding = { id: "x", red: true, title: "x", where: "", detail: [], data: {} };
    const verdict = hit === null ? "INCONCLUSIVE" : hit ? "RED" : "GREEN";
    writeRunRecord(path.join(runDir, "run.json"), {
      ...base,
      driver,
      params: change.params ?? base.params,
      planSha256: todaysPlan(base.scenario, change.params ?? base.params, driver),
      claude: { ...base.claude, requested: version, reportedVersion: version, sha256: change.sha256 ?? shaOf(version) },
      startedAt: new Date(Date.UTC(2026, 11, 1) + written * 1000).toISOString(),
      result: { verdict, reason: verdict, findings: hit ? [finding] : [], notes: [] },
    });
  }

  it("takes runs of the same scenario, parameters, driver and binary only; a bisection over them starts none", async () => {
    const t = truth(9, 4, 0, 0.8);
    const first = recording(sampler(t, seeded(21)));
    const a = await flakyBisect({ versions: t.versions, confidence: 0.95, sample: first.sample });
    for (const [version, outcomes] of first.seen) for (const hit of outcomes) writeRun("first", version, hit);
    // Runs that would turn the answer around if they were taken: the signal at every release, but from a rebuilt
    // binary under the same version number, or with other parameters.
    for (const version of t.versions) {
      writeRun("decoys", version, true, { sha256: "a-rebuilt-binary" });
      writeRun("decoys", version, true, { params: { ...base.params, stop: "sigterm" } });
    }
    const found = await reusedSignals({ dirs: [root], scenario, params: base.params, drive: {}, versions: t.versions, binarySha: async (v) => shaOf(v), judge: asRecorded }, "x");
    expect(found.matched).toBe(a.runs);
    expect(found.signals).toEqual(first.seen);
    expect(found.note).toContain(`${a.runs} match this bisection (scenario, parameters, driver, plan, binary)`);
    const b = await flakyBisect({ versions: t.versions, confidence: 0.95, sample: never, reused: found.signals });
    expect(pair(b)).toEqual(pair(a));
    expect(b).toMatchObject({ runs: 0, reused: a.runs });
  });

  it("on RED instead of a finding, an INCONCLUSIVE run says nothing", async () => {
    const dir = fs.mkdtempSync(path.join(root, "verdicts-"));
    const rel = path.relative(root, dir);
    writeRun(rel, "2.1.300", true);
    writeRun(rel, "2.1.300", false);
    writeRun(rel, "2.1.300", null);
    const found = await reusedSignals({ dirs: [dir], scenario, params: base.params, drive: {}, versions: ["2.1.300"], binarySha: async (v) => shaOf(v), judge: asRecorded }, undefined);
    expect(found.signals.get("2.1.300")).toEqual([true, false, null]);
  });
});
