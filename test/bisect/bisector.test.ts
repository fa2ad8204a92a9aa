// The pure bisector driven by outcome tables: answers, step bounds, skips, lookahead.
import { describe, expect, it } from "vitest";
import { createBisection } from "../../bisect/bisector.ts";
import type { BisectAnswer, BisectOutcome, SkipReason } from "../../bisect/types.ts";

const OLD = { version: "1.0.0", outcome: "GREEN" as const };
const NEW = { version: "9.0.0", outcome: "RED" as const };
const versions = (n: number) => Array.from({ length: n }, (_, i) => `2.0.${i}`);
const harness: { skip: SkipReason } = { skip: { kind: "harness", message: "broken" } };

// Runs the bisector to the end against `table`, checking lookahead against what next() really does.
function drive(candidates: string[], table: (version: string) => BisectOutcome | { skip: SkipReason }) {
  const bisection = createBisection(candidates, { old: OLD, new: NEW });
  const tested: string[] = [];
  for (;;) {
    const next = bisection.next();
    if ("done" in next) return { answer: next.done, tested, bisection };
    const ahead = bisection.lookahead(next.version);
    const judged = bisection.record(next.version, table(next.version));
    tested.push(next.version);
    if ("class" in judged) {
      const after = bisection.next();
      const predicted = judged.class === "old" ? ahead.ifOld : ahead.ifNew;
      expect("version" in after ? after.version : undefined).toBe(predicted);
    }
  }
}

// Candidates before index `t` are old, from `t` on new; indices in `skips` cannot be run.
function monotone(candidates: string[], t: number, skips: Set<number> = new Set()) {
  return (version: string): BisectOutcome | { skip: SkipReason } => {
    const i = candidates.indexOf(version);
    if (skips.has(i)) return harness;
    return i < t ? "GREEN" : "RED";
  };
}

// The tightest answer possible: nearest runnable releases either side of the change.
function expected(candidates: string[], t: number, skips: Set<number>): BisectAnswer {
  let a = t - 1;
  while (a >= 0 && skips.has(a)) a--;
  let b = t;
  while (b < candidates.length && skips.has(b)) b++;
  return {
    lastOld: a < 0 ? OLD.version : candidates[a]!,
    firstNew: b >= candidates.length ? NEW.version : candidates[b]!,
    skippedBetween: candidates.slice(a + 1, b),
  };
}

const bound = (n: number) => Math.ceil(Math.log2(n + 1));

describe("createBisection", () => {
  it.each([0, 1, 2, 3, 7, 8, 40, 100, 257])("finds every transition of %i candidates within ⌈log2(R+1)⌉ steps", (n) => {
    const candidates = versions(n);
    for (let t = 0; t <= n; t++) {
      const { answer, tested } = drive(candidates, monotone(candidates, t));
      expect(answer).toEqual(expected(candidates, t, new Set()));
      expect(tested.length).toBeLessThanOrEqual(bound(n));
    }
  });

  it("zero candidates: the endpoints are the answer without a step", () => {
    const { answer, tested } = drive([], () => "RED");
    expect(tested).toEqual([]);
    expect(answer).toEqual({ lastOld: "1.0.0", firstNew: "9.0.0", skippedBetween: [] });
  });

  it("one candidate: one step decides it", () => {
    expect(drive(["2.0.0"], () => "GREEN")).toMatchObject({
      answer: { lastOld: "2.0.0", firstNew: "9.0.0" },
      tested: ["2.0.0"],
    });
    expect(drive(["2.0.0"], () => "RED").answer).toMatchObject({ lastOld: "1.0.0", firstNew: "2.0.0" });
  });

  it("every skip pattern and transition up to 10 candidates: tightest pair, steps ≤ bound + skips", () => {
    for (let n = 1; n <= 10; n++) {
      const candidates = versions(n);
      for (let mask = 0; mask < 1 << n; mask++) {
        const skips = new Set(candidates.map((_, i) => i).filter((i) => mask & (1 << i)));
        for (let t = 0; t <= n; t++) {
          const { answer, tested, bisection } = drive(candidates, monotone(candidates, t, skips));
          expect(answer).toEqual(expected(candidates, t, skips));
          const skipsHit = bisection.known().skipped.length;
          expect(tested.length).toBeLessThanOrEqual(bound(n) + skipsHit);
        }
      }
    }
  });

  it("a skipped middle moves to its nearest neighbour, older first on a tie", () => {
    const candidates = versions(7); // middle is 2.0.3
    const { tested } = drive(candidates, monotone(candidates, 5, new Set([3])));
    expect(tested.slice(0, 2)).toEqual(["2.0.3", "2.0.2"]);
  });

  it("skips at both edges still find a transition in the middle", () => {
    const candidates = versions(9);
    const skips = new Set([0, 8]);
    const { answer } = drive(candidates, monotone(candidates, 4, skips));
    expect(answer).toEqual({ lastOld: "2.0.3", firstNew: "2.0.4", skippedBetween: [] });
  });

  it("consecutive skips around the middle are walked past", () => {
    const candidates = versions(11);
    const skips = new Set([4, 5, 6]);
    const { answer, tested } = drive(candidates, monotone(candidates, 8, skips));
    expect(answer).toEqual({ lastOld: "2.0.7", firstNew: "2.0.8", skippedBetween: [] });
    expect(tested.slice(0, 4)).toEqual(["2.0.5", "2.0.4", "2.0.6", "2.0.3"]);
  });

  it("a skip next to the transition leaves an ambiguous pair that names it", () => {
    const candidates = versions(9);
    const { answer } = drive(candidates, monotone(candidates, 5, new Set([5])));
    expect(answer).toEqual({ lastOld: "2.0.4", firstNew: "2.0.6", skippedBetween: ["2.0.5"] });
  });

  it("an outcome matching neither endpoint is skipped with that outcome as the reason", () => {
    const bisection = createBisection(["2.0.0"], { old: OLD, new: NEW });
    expect(bisection.record("2.0.0", "INCONCLUSIVE")).toEqual({ skip: { kind: "neither", outcome: "INCONCLUSIVE" } });
    expect(bisection.next()).toEqual({ done: { lastOld: "1.0.0", firstNew: "9.0.0", skippedBetween: ["2.0.0"] } });
    expect(bisection.known().skipped).toEqual([{ version: "2.0.0", reason: { kind: "neither", outcome: "INCONCLUSIVE" } }]);
  });

  it("classifies finding outcomes against the endpoints' classes", () => {
    const bisection = createBisection(versions(3), {
      old: { version: "1.0.0", outcome: "lacks:x" },
      new: { version: "9.0.0", outcome: "has:x" },
    });
    expect(bisection.record("2.0.1", "has:x")).toEqual({ class: "new", outcome: "has:x" });
    expect(bisection.record("2.0.0", "lacks:x")).toEqual({ class: "old", outcome: "lacks:x" });
    expect(bisection.next()).toEqual({ done: { lastOld: "2.0.0", firstNew: "2.0.1", skippedBetween: [] } });
  });

  it("known() narrows as classes are learned; estimate() shrinks with it", () => {
    const bisection = createBisection(versions(15), { old: OLD, new: NEW });
    expect(bisection.estimate()).toBe(4);
    bisection.record("2.0.7", "GREEN");
    expect(bisection.known()).toEqual({ lastOld: "2.0.7", firstNew: "9.0.0", skipped: [] });
    expect(bisection.estimate()).toBe(3);
    bisection.record("2.0.11", "RED");
    expect(bisection.known()).toMatchObject({ lastOld: "2.0.7", firstNew: "2.0.11" });
  });

  it("refuses a version outside the current range, and endpoints that agree", () => {
    const bisection = createBisection(versions(5), { old: OLD, new: NEW });
    bisection.record("2.0.2", "GREEN");
    expect(() => bisection.record("2.0.1", "GREEN")).toThrow(/not an untested candidate/);
    expect(() => bisection.record("3.0.0", "GREEN")).toThrow(/not an untested candidate/);
    expect(() => createBisection([], { old: OLD, new: { ...NEW, outcome: "GREEN" } })).toThrow(/nothing to bisect/);
  });
});
