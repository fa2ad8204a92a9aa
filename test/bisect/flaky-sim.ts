// Scripted random outcomes for the flaky bisector: a seeded generator and releases with a true rate each.
import { fixedRepeatBisect, flakyBisect, FlakyBisectError, type Sample } from "../../bisect/flaky-bisector.ts";

// mulberry32: small, seeded, good enough to draw Bernoulli outcomes.
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Truth {
  versions: string[];
  // The first release with the new rate.
  culprit: number;
  before: number;
  after: number;
}

export function truth(n: number, culprit: number, before: number, after: number): Truth {
  return { versions: Array.from({ length: n }, (_, i) => `2.1.${200 + i}`), culprit, before, after };
}

export function sampler(t: Truth, rand: () => number): Sample {
  return async (version) => rand() < (t.versions.indexOf(version) >= t.culprit ? t.after : t.before);
}

export interface Measured {
  trials: number;
  right: number;
  failed: number;
  meanRuns: number;
  meanConfidence: number;
  // Bisections that named a pair at a confidence under the one asked for.
  underAsked: number;
  fixedRight: number;
  fixedMeanRuns: number;
}

// Runs both bisections `trials` times on fresh seeds: how often each names the true pair, and the runs each spent.
export async function measure(t: Truth, trials: number, confidence: number, seed = 1): Promise<Measured> {
  let right = 0, failed = 0, runs = 0, conf = 0, underAsked = 0, fixedRight = 0, fixedRuns = 0;
  const want = { lastOld: t.versions[t.culprit - 1], firstNew: t.versions[t.culprit] };
  for (let trial = 0; trial < trials; trial++) {
    const rand = seeded(seed * 100_003 + trial);
    try {
      const r = await flakyBisect({ versions: t.versions, sample: sampler(t, rand), confidence });
      runs += r.runs;
      conf += r.confidence;
      if (r.confidence < confidence) underAsked++;
      if (r.lastOld === want.lastOld && r.firstNew === want.firstNew) right++;
    } catch (error) {
      if (!(error instanceof FlakyBisectError)) throw error;
      failed++;
      runs += error.failure.runs;
    }
    const f = await fixedRepeatBisect(t.versions, sampler(t, seeded(seed * 7_919 + trial)), 10);
    fixedRuns += f.runs;
    if (f.lastOld === want.lastOld && f.firstNew === want.firstNew) fixedRight++;
  }
  return { trials, right, failed, meanRuns: runs / trials, meanConfidence: conf / trials, underAsked, fixedRight, fixedMeanRuns: fixedRuns / trials };
}
