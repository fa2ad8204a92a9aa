// A bisection of a rate: where a signal (a finding, or RED) appears, disappears, or changes how often it shows, when a
// single run cannot say. Pure: the only way out is the injected `sample`, one run of one release; tests script it.
//
// What it takes from whom:
// - Calibration at the known-bad end, from V8's flake bisect (the `flako` recipe in Chromium's tools/build,
//   recipes/recipes/flako.py): run there in doubling batches until the signal was seen CALIBRATION_HITS (4) times,
//   at most 5 attempts, and stop collecting the moment the 4th is seen. The good end gets as many runs, and more
//   while they lower what the decisions are expected to cost (goodEndTarget: 10 fixed runs there were too many when
//   the bad end's rate is high and too few when it is low).
// - SAME / DIFFERENT / UNKNOWN per step, from Pinpoint (catapult, dashboard/pinpoint/models/compare): a release is
//   compared with the two ends' rates and more runs are added while the answer is UNKNOWN, up to a cap; at the cap it
//   stays UNKNOWN and the release is skipped, like `git bisect skip`. The comparison itself is Wald's sequential
//   probability ratio test between the two calibrated rates, so the number of runs follows the evidence: 1–2 runs
//   tell 0 % from 80 %, some 30 tell 0 % from 10 %.
// - Two confirmed points beside the culprit, from Chromium's Findit flake analyzer: the pair's two sides are measured
//   again with fresh runs before the pair is named. A side its fresh runs contradict gets a third fresh test (two of
//   three decide); a side that moves sends the bisection on between the new sides. Only a side left UNKNOWN leaves
//   the pair unconfirmed.
// - A confidence for the whole answer rather than per run, as flake-aware culprit finding does (Henderson et al.,
//   "Flake Aware Culprit Finding", ICST 2023, which keeps a posterior over every candidate): here a bound on the
//   chance the pair is wrong, spent by the tests (errorPlan) plus the calibration's p-value. It holds when the
//   calibrated rates are right; the tests measure it with rates that are estimated.
// Runs measured earlier (--reuse) are free samples, taken one by one before a run is started and each used once (so a
// confirmation gets runs its step did not use); those an end has left after its calibration join its rate.
import { wilson } from "../pipeline/rates.ts";
import { UserError, type ErrorCode } from "../core/errors.ts";

export const CALIBRATION_HITS = 4;
export const CALIBRATION_ATTEMPTS = 5;
// Runs in the first calibration attempt; each further attempt doubles the total (4, 8, 16, 32, 64).
export const CALIBRATION_FIRST = 4;
// Pinpoint forces a verdict by about 30 runs for a change of rate of 0.5; a smaller change needs more.
export const DEFAULT_STEP_CAP = 40;

// One run: true when the signal showed, false when it did not, null when the run says nothing (INCONCLUSIVE, ERROR).
export type Sample = (version: string) => Promise<boolean | null>;

export type Answer = "SAME" | "DIFFERENT" | "UNKNOWN";

export interface Tally {
  hits: number;
  // Runs that said something (true or false).
  of: number;
  // Every run counted, including those that said nothing (and those reused).
  runs: number;
  // Of `runs`, how many were measured earlier (--reuse) rather than started.
  reused: number;
}

export interface FlakyStep {
  version: string;
  role: "calibrate bad end" | "calibrate good end" | "candidate" | "confirm";
  tally: Tally;
  // Compared with the old end: SAME (like the old end), DIFFERENT (like the new one), UNKNOWN at the cap.
  answer: Answer | null;
  // The error bound of this decision (α), when one was taken.
  alpha: number | null;
}

export type ChangeKind = "appearance" | "disappearance" | "rate-change";

export interface FlakyBisectResult {
  kind: ChangeKind;
  // Rates measured at the two ends (hits / runs that said something).
  oldRate: Tally;
  newRate: Tally;
  lastOld: string;
  firstNew: string;
  // Releases between them left UNKNOWN (skipped).
  unknownBetween: string[];
  // Both sides of the pair measured again and found where the bisection put them.
  confirmed: boolean;
  confidence: number;
  // Runs started; reused ones are free and counted apart.
  runs: number;
  reused: number;
  steps: FlakyStep[];
}

interface FailureCounts {
  message: string;
  runs: number;
  reused: number;
  steps: FlakyStep[];
}

export type FlakyFailure = FailureCounts & { kind: "no-signal" | "same-rate" | "budget-spent" };

const FLAKY_CODES = { "no-signal": "BISECT_NO_SIGNAL", "same-rate": "BISECT_SAME_OUTCOME", "budget-spent": "BISECT_BUDGET_SPENT" } as const satisfies Record<FlakyFailure["kind"], ErrorCode>;

export class FlakyBisectError extends UserError {
  constructor(readonly failure: FlakyFailure) {
    super(failure.message, FLAKY_CODES[failure.kind]);
    this.name = "FlakyBisectError";
  }
}

export interface FlakyBisectOptions {
  // Oldest first: the old end, the candidates, the new end.
  versions: readonly string[];
  sample: Sample;
  // The answer's confidence asked for (--confidence), e.g. 0.95.
  confidence: number;
  // Runs at most per step before it stays UNKNOWN.
  stepCap?: number;
  // Runs started at most (reused ones are free); over it the bisection stops with "budget-spent".
  maxRuns?: number;
  // What runs measured earlier said, by release, oldest first (--reuse): taken before any run is started.
  reused?: ReadonlyMap<string, readonly (boolean | null)[]>;
  onStep?: (step: FlakyStep) => void;
}

// The rate used in the likelihoods: (k + ½) / (n + 1), so 0/N and N/N are not certainties (a rate never seen is not
// a rate proven zero: 0 of 20 keeps 2.4 %).
export function smoothedRate(t: Pick<Tally, "hits" | "of">): number {
  return (t.hits + 0.5) / (t.of + 1);
}

// How far toward the other end the rates are pulled before they are tested (a 50 % Wilson bound, z = 0.674): 4 hits in 13 runs
// say 0.31 but could be 0.13, and a SAME taken against 0.31 at a release whose rate is 0.13 is wrong. Testing the
// nearer plausible rates costs runs and keeps the stated error (measured in test/bisect/flaky-bisector.test.ts).
export const CONSERVATIVE_Z = 0.6744897501960817;

// The two rates the SPRT tests between: each end's smoothed rate moved toward the other to its 50 % Wilson bound, or to
// the midpoint when the bounds cross.
export function testedRates(old: Pick<Tally, "hits" | "of">, newer: Pick<Tally, "hits" | "of">): { p0: number; p1: number } {
  const a = smoothedRate(old);
  const b = smoothedRate(newer);
  const up = a < b;
  const wa = wilson(old.hits, old.of, CONSERVATIVE_Z);
  const wb = wilson(newer.hits, newer.of, CONSERVATIVE_Z);
  let p0 = up ? Math.max(a, wa.high) : Math.min(a, wa.low);
  let p1 = up ? Math.min(b, wb.low) : Math.max(b, wb.high);
  if (up ? p0 >= p1 : p0 <= p1) {
    const mid = (a + b) / 2;
    p0 = (a + mid) / 2;
    p1 = (b + mid) / 2;
  }
  const clamp = (p: number, n: number) => Math.min(1 - 0.5 / (n + 1), Math.max(0.5 / (n + 1), p));
  return { p0: clamp(p0, old.of), p1: clamp(p1, newer.of) };
}

// Twice the runs the SPRT needs from the weaker of its two kinds of evidence (all hits or all misses).
export function sprtCap(p0: number, p1: number, alpha: number): number {
  const bound = Math.log((1 - alpha) / alpha);
  const perHit = Math.abs(Math.log(p1 / p0));
  const perMiss = Math.abs(Math.log((1 - p1) / (1 - p0)));
  return Math.ceil((2 * bound) / Math.min(perHit, perMiss));
}

// Wald's SPRT between rate p0 (like the old end) and p1 (like the new end) at error α both ways: the log-likelihood
// ratio of the hits so far against ±log((1 − α)/α).
export function sprt(hits: number, misses: number, p0: number, p1: number, alpha: number): Answer {
  const llr = hits * Math.log(p1 / p0) + misses * Math.log((1 - p1) / (1 - p0));
  const bound = Math.log((1 - alpha) / alpha);
  if (llr >= bound) return "DIFFERENT";
  if (llr <= -bound) return "SAME";
  return "UNKNOWN";
}

// The pooled two-proportion z statistic of two measured rates (0 when nothing tells them apart).
function zOf(a: Pick<Tally, "hits" | "of">, b: Pick<Tally, "hits" | "of">): number {
  if (a.of === 0 || b.of === 0) return 0;
  const pooled = (a.hits + b.hits) / (a.of + b.of);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.of + 1 / b.of));
  return se === 0 ? 0 : Math.abs(a.hits / a.of - b.hits / b.of) / se;
}

// Whether two measured rates differ: a one-sided two-proportion z-test (pooled) at 5 %, z ≥ 1.645.
export function separated(a: Pick<Tally, "hits" | "of">, b: Pick<Tally, "hits" | "of">): boolean {
  return zOf(a, b) >= 1.645;
}

// The one-sided p-value of that test: the chance ends of one rate look this different (Abramowitz–Stegun 7.1.26 for
// the normal tail, error < 1.5e-7). It is the calibration's share of the answer's error.
export function separationError(a: Pick<Tally, "hits" | "of">, b: Pick<Tally, "hits" | "of">): number {
  const x = zOf(a, b) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x);
  return erfc / 2;
}

// The runs one decision needs from each kind of evidence alone at the tested rates: [hits (like the signal's side),
// misses], at error α both ways.
export function runsToDecide(p0: number, p1: number, alpha: number): [number, number] {
  const bound = Math.log((1 - alpha) / alpha);
  return [Math.ceil(bound / Math.abs(Math.log(p1 / p0))), Math.ceil(bound / Math.abs(Math.log((1 - p1) / (1 - p0))))];
}

// How many runs the good end should have (a value-of-information rule; flako itself gives the good end as many runs
// as the bad end): each run there narrows how rare the signal is at that end, so the tested rates move apart and
// every decision may need fewer runs. The target is the n (from the runs it has up to flako's 64) that minimises n
// plus the runs the decisions are expected to need: `decisions` of them, each taking the hits or the misses it needs,
// half and half, with the good end's rate so far taken as what its further runs will show.
export function goodEndTarget(badTally: Pick<Tally, "hits" | "of">, good: Pick<Tally, "hits" | "of">, bad: "old" | "new", alpha: number, decisions: number, most: number): number {
  const rate = good.of === 0 ? 0 : good.hits / good.of;
  const cost = (n: number): number => {
    const projected = { hits: Math.round(rate * n), of: n };
    const { p0, p1 } = bad === "new" ? testedRates(projected, badTally) : testedRates(badTally, projected);
    const [hits, misses] = runsToDecide(p0, p1, alpha);
    return n + (decisions * (hits + misses)) / 2;
  };
  let target = good.of;
  for (let n = good.of + 1; n <= most; n++) if (cost(n) < cost(target)) target = n;
  return target;
}

// Steps a plain bisection of n candidates takes at most.
function stepsFor(n: number): number {
  return Math.ceil(Math.log2(n + 1));
}

// A signal seen in at least half the bad end's runs is frequent: its rate is known well enough from the calibration
// that a release's two tests err independently. Below it (0 → 0.3, 0 → 0.1), and for a change of rate, the estimated
// rates' own error makes the tests of one release fail together (measured in test/bisect/flaky-bisector.test.ts).
export const FREQUENT_RATE = 0.5;

// What a bisection tested, for its error bound: per release tested, how many tests it took (1 for a step, 2 with its
// confirmation, 3 with a tie-break).
export type TestsPerRelease = readonly number[];

export interface ErrorPlan {
  // The error each test (SPRT, both ways) is taken at.
  alpha: number;
  // The bound on the chance the pair is wrong, from the releases tested.
  spent: (tests: TestsPerRelease) => number;
}

// Wald's bound on an SPRT that stops at ±log((1 − α)/α): it errs with probability at most α / (1 − α), not α.
export function testError(alpha: number): number {
  return alpha / (1 - alpha);
}

// How the answer's error budget (1 − confidence) is spent, each test erring at most e = α / (1 − α):
// - per side, for a frequent signal's appearance or disappearance: the pair is wrong only when one of its sides
//   stands on the wrong side, and a side stands on its step and a confirmation with fresh runs that agree: both must
//   err, at most 3e² for a release (two of three tests, whichever releases become sides). A release whose two tests
//   disagreed rests on its third alone and counts e. Runs reused from earlier bisections keep this: a release's runs
//   up to an earlier bisection's stop, then fresh ones, are as independent as fresh runs throughout (the runs after a
//   stopping time of independent runs are independent of those before it). The calibration's p-value is taken from
//   the budget first (never more than nine tenths of it, so the tests keep a share), and with one release to spare
//   beyond the steps e = √(rest / (3 (steps + 1))): α 0.050 at 95 % over 28 candidates, where counting every test
//   gives 0.007, and a test needs about half the runs.
// - per decision otherwise (a union bound over every test taken): α = budget / (steps + 2), the calibration's
//   p-value on top.
export function errorPlan(kind: ChangeKind, badRate: number, budget: number, separation: number, candidates: number): ErrorPlan {
  const steps = stepsFor(candidates);
  if (kind !== "rate-change" && badRate >= FREQUENT_RATE) {
    const e = Math.sqrt(Math.max(budget - separation, budget / 10) / (3 * (steps + 1)));
    return { alpha: e / (1 + e), spent: (tests) => separation + tests.reduce((sum, n) => sum + (n >= 3 ? e : 3 * e * e), 0) };
  }
  const alpha = budget / (steps + 2);
  return { alpha, spent: (tests) => separation + tests.reduce((sum, n) => sum + n, 0) * testError(alpha) };
}

// Which change the ends' rates show: the signal absent at the old end, absent at the new one, or at both.
function kindOf(oldHits: number, newHits: number): ChangeKind {
  return oldHits === 0 ? "appearance" : newHits === 0 ? "disappearance" : "rate-change";
}

export async function flakyBisect(options: FlakyBisectOptions): Promise<FlakyBisectResult> {
  const { versions, sample, confidence } = options;
  if (versions.length < 2) throw new Error("a bisection needs two ends");
  if (!(confidence > 0 && confidence < 1)) throw new Error(`--confidence must be between 0 and 1, not ${confidence}`);
  const steps: FlakyStep[] = [];
  let runs = 0;
  let reusedTaken = 0;
  const fail = (kind: FlakyFailure["kind"], message: string): never => {
    throw new FlakyBisectError({ kind, message, runs, reused: reusedTaken, steps: [...steps] });
  };
  // Each reused outcome is evidence once: taken from the front, oldest first.
  const unused = new Map([...(options.reused ?? [])].map(([version, seen]) => [version, [...seen]]));
  const reusedLeft = (version: string): number => unused.get(version)?.length ?? 0;
  // One more run of `version` into `tally`: a reused one while any is left, else one started (within --max-runs).
  const addRun = async (version: string, tally: Tally): Promise<void> => {
    let seen: boolean | null;
    if (reusedLeft(version) > 0) {
      seen = unused.get(version)!.shift()!;
      reusedTaken++;
      tally.reused++;
    } else {
      if (options.maxRuns !== undefined && runs >= options.maxRuns) fail("budget-spent", `--max-runs ${options.maxRuns} spent`);
      runs++;
      seen = await sample(version);
    }
    tally.runs++;
    if (seen === null) return;
    tally.of++;
    if (seen) tally.hits++;
  };
  const record = (step: FlakyStep): void => {
    steps.push(step);
    options.onStep?.(step);
  };

  // Calibration (flako): doubling the runs up to 5 attempts (4, 8, 16, 32, 64).
  const most = CALIBRATION_FIRST * 2 ** (CALIBRATION_ATTEMPTS - 1);
  // Runs `version` into `tally` up to `target` counted runs, or with `toHits` to the CALIBRATION_HITS-th hit (flako
  // stops collecting at its 4th); a release whose runs keep saying nothing gives up at twice the target.
  const collect = async (version: string, tally: Tally, target: number, toHits = false): Promise<void> => {
    while (tally.of < target && !(toHits && tally.hits >= CALIBRATION_HITS) && tally.runs < target * 2) await addRun(version, tally);
  };
  const calibrate = async (version: string, role: FlakyStep["role"], target: number, from: Tally, toHits = false): Promise<Tally> => {
    const tally: Tally = { ...from };
    await collect(version, tally, target, toHits);
    record({ version, role, tally, answer: null, alpha: null });
    return tally;
  };

  const oldVersion = versions[0]!;
  const newVersion = versions[versions.length - 1]!;
  // Which end is the known-bad one is found as flako finds its repro: both ends in doubling attempts, the new end
  // first; the first to show the 4th hit is the bad end (the signal appeared, or, when it is the old end, went away).
  const none = (): Tally => ({ hits: 0, of: 0, runs: 0, reused: 0 });
  let newRate = none();
  let oldRate = none();
  let bad: "old" | "new" | null = null;
  for (let attempt = 0; attempt < CALIBRATION_ATTEMPTS && bad === null; attempt++) {
    const target = CALIBRATION_FIRST * 2 ** attempt;
    newRate = await calibrate(newVersion, "calibrate bad end", target, newRate, true);
    if (newRate.hits >= CALIBRATION_HITS) bad = "new";
    else {
      oldRate = await calibrate(oldVersion, "calibrate bad end", target, oldRate, true);
      if (oldRate.hits >= CALIBRATION_HITS) bad = "old";
    }
  }
  bad ??= newRate.hits >= oldRate.hits ? "new" : "old";
  if (newRate.hits === 0 && oldRate.hits === 0) fail("no-signal", `the signal showed at neither end (0 of ${newRate.of} on ${newVersion}, 0 of ${oldRate.of} on ${oldVersion})`);
  const candidates = versions.slice(1, -1);
  const badTally = bad === "new" ? newRate : oldRate;
  // The good end gets as many runs as the bad end took (flako), whatever they show, and then as many more as pay for
  // themselves (goodEndTarget): its runs set how rare the signal is there, which sets how many runs each decision
  // needs.
  const goodVersion = bad === "new" ? oldVersion : newVersion;
  const good: Tally = { ...(bad === "new" ? oldRate : newRate) };
  await collect(goodVersion, good, badTally.of);
  // Its target is set at the error the tests will be taken at, given what it has shown so far.
  const expected = errorPlan(bad === "new" ? kindOf(good.hits, badTally.hits) : kindOf(badTally.hits, good.hits), smoothedRate(badTally), 1 - confidence, 0, candidates.length);
  await collect(goodVersion, good, goodEndTarget(badTally, good, bad, expected.alpha, stepsFor(candidates.length) + 2, most));
  record({ version: goodVersion, role: "calibrate good end", tally: good, answer: null, alpha: null });
  if (bad === "new") oldRate = good;
  else newRate = good;
  // Reused runs an end has left cost nothing: they join its rate (after the targets above, so they never raise the
  // runs the other end must start).
  const withRest = async (version: string, tally: Tally): Promise<Tally> => {
    if (reusedLeft(version) === 0) return tally;
    const more = { ...tally };
    while (reusedLeft(version) > 0) await addRun(version, more);
    const badVersion = bad === "new" ? newVersion : oldVersion;
    record({ version, role: version === badVersion ? "calibrate bad end" : "calibrate good end", tally: more, answer: null, alpha: null });
    return more;
  };
  oldRate = await withRest(oldVersion, oldRate);
  newRate = await withRest(newVersion, newRate);
  // A change of rate (80 % → 100 %) can look alike at 4 hits: both ends get more runs, doubling, until a one-sided
  // two-proportion z-test at 5 % tells them apart or both reached flako's 64.
  while (!separated(oldRate, newRate) && (oldRate.of < most || newRate.of < most)) {
    const target = Math.min(most, 2 * Math.max(oldRate.of, newRate.of));
    oldRate = await calibrate(oldVersion, "calibrate good end", target, oldRate);
    newRate = await calibrate(newVersion, "calibrate good end", target, newRate);
  }
  if (!separated(oldRate, newRate)) {
    fail("same-rate", `the ends' rates cannot be told apart: ${oldRate.hits}/${oldRate.of} on ${oldVersion}, ${newRate.hits}/${newRate.of} on ${newVersion}`);
  }
  const { p0, p1 } = testedRates(oldRate, newRate);
  const kind = kindOf(oldRate.hits, newRate.hits);
  // The calibration's error counts too: the chance the two ends only look different.
  const plan = errorPlan(kind, smoothedRate(bad === "new" ? newRate : oldRate), 1 - confidence, separationError(oldRate, newRate), candidates.length);
  const { alpha } = plan;

  // The cap is where Pinpoint would force a verdict: here twice the runs the SPRT needs to say SAME (or DIFFERENT)
  // from the weaker kind of evidence alone, so a release that truly has one end's rate is rarely left UNKNOWN.
  const stepCap = options.stepCap ?? Math.max(DEFAULT_STEP_CAP, sprtCap(p0, p1, alpha));
  // Tests that decided, per release.
  const tests = new Map<string, number>();

  const compare = async (version: string, role: FlakyStep["role"]): Promise<Answer> => {
    const tally = none();
    let answer: Answer = "UNKNOWN";
    while (answer === "UNKNOWN" && tally.runs < stepCap) {
      await addRun(version, tally);
      answer = sprt(tally.hits, tally.of - tally.hits, p0, p1, alpha);
    }
    if (answer !== "UNKNOWN") tests.set(version, (tests.get(version) ?? 0) + 1);
    record({ version, role, tally, answer, alpha: answer === "UNKNOWN" ? null : alpha });
    return answer;
  };

  // Indices into versions: lo is like the old end, hi like the new end; `judged` keeps each release's standing answer.
  let lo = 0;
  let hi = versions.length - 1;
  const judged = new Map<number, Answer>();
  const unknown = new Set<number>();
  const open = () => {
    const list: number[] = [];
    for (let i = lo + 1; i < hi; i++) if (!unknown.has(i)) list.push(i);
    return list;
  };
  const bisect = async (): Promise<void> => {
    for (let list = open(); list.length > 0; list = open()) {
      const i = list[Math.floor((list.length - 1) / 2)]!;
      const answer = await compare(versions[i]!, "candidate");
      judged.set(i, answer);
      if (answer === "SAME") lo = i;
      else if (answer === "DIFFERENT") hi = i;
      else unknown.add(i);
    }
  };
  await bisect();

  // Findit's two stable points: both sides again, with fresh runs (an end already has its calibration). A side whose
  // fresh test disagrees with its step gets a third fresh test, and two of its three independent tests decide (as
  // Findit reruns a data point it doubts): a side that holds is kept; one that moves changes sides, the bisection
  // goes on between the sides that follow from the standing answers, and the new sides are confirmed in turn (the
  // error plan counts every release tested, or every test); a side left UNKNOWN at the cap leaves the pair unconfirmed.
  let confirmed = false;
  const held = new Set<number>([0, versions.length - 1]);
  const bothHeld = () => held.has(lo) && held.has(hi);
  for (let round = 0; round < versions.length && !confirmed; round++) {
    // One side a round: the old one first.
    const pending = ([[lo, "SAME"], [hi, "DIFFERENT"]] as const).find(([side]) => !held.has(side));
    if (pending === undefined) {
      confirmed = true;
      break;
    }
    const [side, want] = pending;
    const first = await compare(versions[side]!, "confirm");
    const answer = first === want || first === "UNKNOWN" ? first : await compare(versions[side]!, "confirm");
    if (answer === "UNKNOWN") break;
    // A side that held, or moved on two fresh tests that agree, is not asked again.
    held.add(side);
    if (answer === want) {
      confirmed = bothHeld();
      continue;
    }
    judged.set(side, answer);
    lo = Math.max(0, ...[...judged].filter(([, a]) => a === "SAME").map(([i]) => i));
    hi = Math.min(versions.length - 1, ...[...judged].filter(([i, a]) => a === "DIFFERENT" && i > lo).map(([i]) => i));
    await bisect();
  }

  const unknownBetween = [...unknown].filter((i) => i > lo && i < hi).sort((a, b) => a - b).map((i) => versions[i]!);
  return {
    kind,
    oldRate,
    newRate,
    lastOld: versions[lo]!,
    firstNew: versions[hi]!,
    unknownBetween,
    confirmed,
    confidence: confirmed ? Math.max(0, 1 - plan.spent([...tests.values()])) : 0,
    runs,
    reused: reusedTaken,
    steps,
  };
}

// The baseline the calibrating bisection is measured against: a fixed number of runs per release (`--repeat 10`),
// each release put on the side whose measured end rate makes its count more likely.
/** @internal exported for its unit tests */
export async function fixedRepeatBisect(versions: readonly string[], sample: Sample, repeat: number): Promise<{ lastOld: string; firstNew: string; runs: number }> {
  let runs = 0;
  const measure = async (version: string): Promise<Tally> => {
    const t: Tally = { hits: 0, of: 0, runs: 0, reused: 0 };
    for (let i = 0; i < repeat; i++) {
      runs++;
      t.runs++;
      const seen = await sample(version);
      if (seen === null) continue;
      t.of++;
      if (seen) t.hits++;
    }
    return t;
  };
  const p0 = smoothedRate(await measure(versions[0]!));
  const p1 = smoothedRate(await measure(versions[versions.length - 1]!));
  // (Point estimates: ten runs per end are all this bisection has.)
  let lo = 0;
  let hi = versions.length - 1;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    const t = await measure(versions[mid]!);
    const llr = t.hits * Math.log(p1 / p0) + (t.of - t.hits) * Math.log((1 - p1) / (1 - p0));
    if (llr > 0) hi = mid;
    else lo = mid;
  }
  return { lastOld: versions[lo]!, firstNew: versions[hi]!, runs };
}
