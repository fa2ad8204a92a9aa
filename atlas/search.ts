// The atlas's search, with the measuring injected: sample every K-th release, then bisect every interval whose two
// measured ends differ in state, until every boundary is an adjacent pair of releases; --verify spends runs on random
// releases inside the intervals assumed to agree. What was measured implies the intervals and the boundaries.
import { middleOf } from "../bisect/bisector.ts";
import { judgedRelease } from "../core/verdict.ts";
import { answers, stateOf, type AtlasBoundary, type AtlasCell, type AtlasInterval, type CellWhy } from "./atlas-file.ts";

export interface Probe {
  version: string;
  why: CellWhy;
}

// Every stride-th release from the oldest, and the newest: the first measurements.
/** @internal exported for its unit tests */
export function samplesOf(versions: readonly string[], stride: number): string[] {
  if (versions.length === 0) return [];
  const picked = versions.filter((_, i) => i % stride === 0);
  const last = versions[versions.length - 1]!;
  return picked.includes(last) ? picked : [...picked, last];
}

// The answered cells (not ERROR) in release order, with their positions.
function answered(versions: readonly string[], cells: ReadonlyMap<string, AtlasCell>): { i: number; cell: AtlasCell }[] {
  return versions.flatMap((v, i) => {
    const cell = cells.get(v);
    return cell && answers(cell) ? [{ i, cell }] : [];
  });
}

// The oldest release that leaves a gap of `stride` or more untried releases behind it (or is an end of the range
// untried). On a fresh range that is samplesOf's order; on a range that grew (a new release published since the
// last atlas) only the new stretch is sampled, so the atlas extends incrementally.
export function nextSample(versions: readonly string[], tried: ReadonlySet<string>, stride: number): string | undefined {
  let lastTried = -Infinity;
  for (let i = 0; i < versions.length; i += 1) {
    if (tried.has(versions[i]!)) lastTried = i;
    else if (i === 0 || i === versions.length - 1 || i - lastTried >= stride) return versions[i];
  }
  return undefined;
}

// What to measure next: a sample, else the middle of the untried releases between the first two neighbouring
// answers that differ; undefined when every boundary is an adjacent pair (or only untried-out gaps remain).
export function nextProbe(versions: readonly string[], cells: ReadonlyMap<string, AtlasCell>, tried: ReadonlySet<string>, stride: number): Probe | undefined {
  const sample = nextSample(versions, tried, stride);
  if (sample !== undefined) return { version: sample, why: "sample" };
  const known = answered(versions, cells);
  for (let k = 1; k < known.length; k += 1) {
    const a = known[k - 1]!;
    const b = known[k]!;
    if (stateOf(a.cell) === stateOf(b.cell)) continue;
    const middle = middleOf(versions.slice(a.i + 1, b.i).filter((v) => !tried.has(v)));
    if (middle !== undefined) return { version: middle, why: "bisect" };
  }
  return undefined;
}

// Each release gets the state of the answers around it: its own when measured, theirs when both neighbours agree,
// "unknown" otherwise; runs of one state are the intervals.
export function intervalsOf(versions: readonly string[], cells: ReadonlyMap<string, AtlasCell>): AtlasInterval[] {
  const known = answered(versions, cells);
  const intervals: AtlasInterval[] = [];
  let k = 0;
  versions.forEach((version, i) => {
    while (k < known.length && known[k]!.i < i) k += 1;
    const here = known[k]?.i === i ? known[k]!.cell : undefined;
    const before = here ? undefined : known[k - 1]?.cell;
    const after = here ? undefined : known[k]?.cell;
    const like = here ?? (before && after && stateOf(before) === stateOf(after) ? before : undefined);
    const state = like ? stateOf(like) : "unknown";
    const last = intervals[intervals.length - 1];
    const interval: AtlasInterval =
      last && last.state === state
        ? last
        : { first: version, last: version, state, verdict: like?.verdict ?? null, red: like?.red ?? [], flaky: like?.flaky ?? false, measured: [], assumed: [] };
    if (interval !== last) intervals.push(interval);
    interval.last = version;
    (here ? interval.measured : interval.assumed).push(version);
  });
  return intervals;
}

const proofOf = (cell: AtlasCell): string[] => cell.runs.flatMap((r) => (r.dir === null ? [] : [r.dir]));

// Neighbouring judged cells (GREEN, RED) whose states differ, with what lies between them: releases without an
// answer, and measured ones that judged nothing (never a side, as git bisect skips them), and the runs on either side.
export function boundariesOf(versions: readonly string[], cells: ReadonlyMap<string, AtlasCell>): AtlasBoundary[] {
  // INCONCLUSIVE and UNSUPPORTED cells answer what a release can do (their intervals are facts too) but judge nothing.
  const known = answered(versions, cells).filter(({ cell }) => judgedRelease(cell));
  const intervalOf = new Map(intervalsOf(versions, cells).flatMap((interval) => interval.assumed.map((v) => [v, interval] as const)));
  // A release not run inside an interval of an unjudged state: named with the measured releases it is assumed from.
  const assumedUnjudged = (version: string): AtlasBoundary["unjudged"] => {
    const interval = intervalOf.get(version);
    if (!interval || interval.verdict === null || judgedRelease({ verdict: interval.verdict, flaky: interval.flaky })) return [];
    const at = versions.indexOf(version);
    const below = interval.measured.filter((v) => versions.indexOf(v) < at).at(-1);
    const above = interval.measured.find((v) => versions.indexOf(v) > at);
    return [{ version, verdict: interval.verdict, reason: `not run: ${below} and ${above} around it are both ${interval.verdict}`, assumed: true }];
  };
  const boundaries: AtlasBoundary[] = [];
  for (let k = 1; k < known.length; k += 1) {
    const a = known[k - 1]!;
    const b = known[k]!;
    if (stateOf(a.cell) === stateOf(b.cell)) continue;
    const inside = versions.slice(a.i + 1, b.i);
    const unjudged = inside.flatMap((v) => {
      const cell = cells.get(v);
      return cell && answers(cell) ? [{ version: v, verdict: cell.verdict, reason: cell.reason }] : assumedUnjudged(v);
    });
    boundaries.push({
      before: a.cell.version,
      after: b.cell.version,
      from: stateOf(a.cell),
      to: stateOf(b.cell),
      between: inside.filter((v) => !unjudged.some((u) => u.version === v)),
      unjudged,
      proof: { before: proofOf(a.cell), after: proofOf(b.cell) },
    });
  }
  return boundaries;
}

// Up to n releases drawn at random from those assumed (unmeasured inside an interval whose ends agree).
export function verifyPicks(versions: readonly string[], cells: ReadonlyMap<string, AtlasCell>, tried: ReadonlySet<string>, n: number, random: () => number): string[] {
  const pool = intervalsOf(versions, cells)
    .filter((interval) => interval.state !== "unknown")
    .flatMap((interval) => interval.assumed)
    .filter((v) => !tried.has(v));
  const picks: string[] = [];
  while (picks.length < n && pool.length > 0) picks.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  return picks.sort((a, b) => versions.indexOf(a) - versions.indexOf(b));
}

export interface SearchInput {
  versions: readonly string[];
  stride: number;
  // Runs to spend on random assumed releases once the boundaries are found (those already spent count).
  verify: number;
  // Cells an earlier invocation measured; ERROR ones are measured again.
  cells: readonly AtlasCell[];
  // Verify picks an earlier invocation found disagreeing.
  disagreed?: readonly string[];
  // Measures one release; null when it was interrupted (nothing is recorded for it).
  measure: (probe: Probe) => Promise<AtlasCell | null>;
  // Releases measured at once (default 1): each next probe is chosen with the ones under way counted as tried, so
  // J samples go at once, and a bisection splits its interval J ways instead of in two.
  jobs?: number;
  random?: () => number;
  signal?: AbortSignal;
  onCell?: (cell: AtlasCell, cells: ReadonlyMap<string, AtlasCell>) => void;
}

export interface SearchResult {
  cells: Map<string, AtlasCell>;
  // Verify cells whose state differed from the interval they were assumed to share.
  disagreed: string[];
  interrupted: boolean;
}

export async function searchEntry(input: SearchInput): Promise<SearchResult> {
  const cells = new Map(input.cells.filter(answers).map((c) => [c.version, c]));
  const tried = new Set(cells.keys());
  // A disagreement is between two answers: an earlier pick left with none (it ended in ERROR) no longer counts.
  const disagreed = (input.disagreed ?? []).filter((version) => cells.has(version));
  const random = input.random ?? Math.random;
  const aborted = () => input.signal?.aborted === true;
  const measure = async (probe: Probe): Promise<boolean> => {
    tried.add(probe.version);
    const cell = await input.measure(probe);
    if (cell === null || aborted()) return false;
    cells.set(cell.version, cell);
    input.onCell?.(cell, cells);
    return true;
  };
  const jobs = Math.max(1, input.jobs ?? 1);
  const bisectAll = async (): Promise<boolean> => {
    let ok = true;
    const underWay = new Set<Promise<void>>();
    for (;;) {
      if (aborted() || !ok) break;
      const probe = underWay.size < jobs ? nextProbe(input.versions, cells, tried, input.stride) : undefined;
      if (probe) {
        const run: Promise<void> = measure(probe).then((done) => {
          if (!done) ok = false;
          underWay.delete(run);
        });
        underWay.add(run);
        continue;
      }
      // Nothing more to start until a measurement under way comes back (it may open a new interval to bisect).
      if (underWay.size === 0) break;
      await Promise.race(underWay);
    }
    await Promise.all(underWay);
    return ok && !aborted();
  };
  let finished = await bisectAll();
  let verifyLeft = input.verify - [...cells.values()].filter((c) => c.why === "verify").length;
  while (finished && verifyLeft > 0) {
    const [pick] = verifyPicks(input.versions, cells, tried, 1, random);
    if (pick === undefined) break;
    const assumed = assumedStateFor(input.versions, cells, pick);
    if (aborted() || !(await measure({ version: pick, why: "verify" }))) {
      finished = false;
      break;
    }
    verifyLeft -= 1;
    const cell = cells.get(pick);
    if (cell && answers(cell) && assumed !== stateOf(cell)) disagreed.push(pick);
    // A disagreement splits its interval: bisect the two new pairs before the next pick.
    finished = await bisectAll();
  }
  return { cells, disagreed, interrupted: !finished };
}

// The state the intervals give an unmeasured release.
function assumedStateFor(versions: readonly string[], cells: ReadonlyMap<string, AtlasCell>, version: string): string {
  const without = new Map(cells);
  without.delete(version);
  return intervalsOf(versions, without).find((interval) => versions.indexOf(interval.first) <= versions.indexOf(version) && versions.indexOf(version) <= versions.indexOf(interval.last))?.state ?? "unknown";
}
