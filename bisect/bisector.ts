// The bisection as a pure state machine: which release to try next, what was learned, when it is done.
import type { BisectAnswer, Endpoint, Judged, BisectOutcome, SkipReason, SkippedVersion } from "./types.ts";

export type Next = { version: string } | { done: BisectAnswer };

// Steps a plain bisection of n releases needs at most.
export function stepsFor(n: number): number {
  return Math.ceil(Math.log2(n + 1));
}

// The older of the two middles: testing it leaves at most ⌊n/2⌋ releases either way.
export function middleOf<T>(open: readonly T[]): T | undefined {
  return open.length === 0 ? undefined : open[Math.floor((open.length - 1) / 2)];
}

export interface Bisection {
  next(): Next;
  // What next() would return if `version` turned out old or new (undefined: the bisection would be done).
  lookahead(version: string): { ifOld: string | undefined; ifNew: string | undefined };
  // An outcome is classified against the endpoints; anything matching neither is skipped.
  record(version: string, result: BisectOutcome | { skip: SkipReason }): Judged;
  // What is known so far: the narrowest verified range and every skip.
  known(): { lastOld: string; firstNew: string; skipped: SkippedVersion[] };
  // Steps still needed if nothing more is skipped: ⌈log2(untested + 1)⌉.
  estimate(): number;
}

// `candidates` are the releases strictly between the endpoints, oldest first.
export function createBisection(candidates: readonly string[], endpoints: { old: Endpoint; new: Endpoint }): Bisection {
  if (endpoints.old.outcome === endpoints.new.outcome) {
    throw new Error(`endpoints share the outcome ${endpoints.old.outcome}: there is nothing to bisect`);
  }
  // Indices into candidates; -1 and candidates.length stand for the endpoints.
  let lo = -1;
  let hi = candidates.length;
  const skipped = new Map<number, SkipReason>();

  const untested = (from: number, to: number): number[] => {
    const open: number[] = [];
    for (let i = from + 1; i < to; i++) if (!skipped.has(i)) open.push(i);
    return open;
  };

  const versionAt = (i: number): string =>
    i < 0 ? endpoints.old.version : i >= candidates.length ? endpoints.new.version : candidates[i]!;

  // The middle of the untested candidates in (from, to). When the middle was skipped this
  // lands on its nearest untested neighbour, as git bisect does; counting only untested releases (git counts by
  // distance) is what keeps every step halving them, so steps stay within ⌈log2(R+1)⌉ + skips.
  const pick = (from: number, to: number): number | undefined => middleOf(untested(from, to));

  const indexOf = (version: string): number => {
    const i = candidates.indexOf(version);
    if (i <= lo || i >= hi || skipped.has(i)) {
      throw new Error(`${version} is not an untested candidate between ${versionAt(lo)} and ${versionAt(hi)}`);
    }
    return i;
  };

  return {
    next() {
      const i = pick(lo, hi);
      if (i !== undefined) return { version: versionAt(i) };
      return {
        done: {
          lastOld: versionAt(lo),
          firstNew: versionAt(hi),
          // Everything left between them was skipped (pick found nothing untested).
          skippedBetween: candidates.slice(lo + 1, hi),
        },
      };
    },

    lookahead(version) {
      const i = indexOf(version);
      const ifOld = pick(i, hi);
      const ifNew = pick(lo, i);
      return {
        ifOld: ifOld === undefined ? undefined : versionAt(ifOld),
        ifNew: ifNew === undefined ? undefined : versionAt(ifNew),
      };
    },

    record(version, result) {
      const i = indexOf(version);
      if (typeof result !== "string") {
        skipped.set(i, result.skip);
        return result;
      }
      if (result === endpoints.old.outcome) {
        lo = i;
        return { class: "old", outcome: result };
      }
      if (result === endpoints.new.outcome) {
        hi = i;
        return { class: "new", outcome: result };
      }
      const skip: SkipReason = { kind: "neither", outcome: result };
      skipped.set(i, skip);
      return { skip };
    },

    known() {
      return {
        lastOld: versionAt(lo),
        firstNew: versionAt(hi),
        skipped: [...skipped.entries()]
          .sort(([a], [b]) => a - b)
          .map(([i, reason]) => ({ version: versionAt(i), reason })),
      };
    },

    estimate() {
      return stepsFor(untested(lo, hi).length);
    },
  };
}
