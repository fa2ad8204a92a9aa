// The rate rule on recorded outcome tables (docs/trust.md's repeat measurements), with its error rates computed.
import { describe, expect, it } from "vitest";
import type { CheckResult, Verdict } from "../../core/verdict.ts";
import { finding } from "../../core/verdict.ts";
import { formatRates, rateLabel, repeatRates, stabilityOf, stableByChance, wilson } from "../../pipeline/rates.ts";
import { FLAKY_EXIT } from "../../core/exit-codes.ts";
import { combineRepeats } from "../../pipeline/verdict-rules.ts";

function result(verdict: Verdict, ...ids: string[]): CheckResult {
  return { verdict, reason: verdict, findings: ids.map((id) => finding({ id, red: verdict === "RED", title: id, where: "" })), notes: [] };
}
const times = (n: number, r: CheckResult): CheckResult[] => Array.from({ length: n }, () => r);

// Recorded tables (docs/trust.md, `--repeat 10` unless said).
const TABLES = {
  // background-mid-turn 2.1.231: RED 10, 8 turn-dropped, 2 turn-duplicated, all tool-killed.
  "2.1.231": [...times(8, result("RED", "turn-dropped", "tool-killed")), ...times(2, result("RED", "turn-duplicated", "tool-killed"))],
  // background-mid-turn 2.1.237 (6 runs): RED 5 tool-killed, GREEN 1 turn-rerun.
  "2.1.237": [...times(5, result("RED", "tool-killed")), result("GREEN", "turn-rerun")],
  // subagent-resume-notification-header 2.1.281 sendDelay=0: 9 notification-changed, 1 notification-dropped.
  "2.1.281 sendDelay=0": [...times(9, result("RED", "notification-changed")), result("RED", "notification-dropped")],
  // print-resume-cache-reuse 2.1.150: GREEN 10.
  "2.1.150": times(10, result("GREEN")),
};

describe("Wilson's interval", () => {
  it("matches the textbook values and is not empty at 0/N or N/N", () => {
    // 8 of 10 at 95 %: 0.490–0.943 (Wilson 1927; e.g. Newcombe 1998, table I's method 3).
    const i = wilson(8, 10);
    expect(i.low).toBeCloseTo(0.49, 2);
    expect(i.high).toBeCloseTo(0.943, 3);
    expect(wilson(0, 10)).toEqual({ low: 0, high: expect.closeTo(0.2775, 3) });
    expect(wilson(10, 10)).toEqual({ low: expect.closeTo(0.7225, 3), high: 1 });
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
  });

  it("covers the true rate about 95 % of the time at the run counts we use (measured, seeded)", () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (const [p, n] of [[0.1, 10], [0.5, 10], [0.8, 20]] as const) {
      let covered = 0;
      const trials = 4000;
      for (let t = 0; t < trials; t++) {
        let k = 0;
        for (let i = 0; i < n; i++) if (rand() < p) k++;
        const { low, high } = wilson(k, n);
        if (low <= p && p <= high) covered++;
      }
      // Wilson's coverage oscillates around the nominal level at small n; it stays within a few points of it.
      expect(covered / trials).toBeGreaterThan(0.9);
    }
  });
});

describe("the stable/flaky rule (Findit's 0.02/0.98)", () => {
  it("states its error rate: a flaky cell looks unanimous with probability (1 − q)^N", () => {
    // Findit's own number: at a true pass rate of 0.98, 100 passing runs happen 13 % of the time.
    expect(stableByChance(0.02, 100)).toBeCloseTo(0.133, 3);
    // sendDelay=0 on 2.1.281 drops ~1 in 10: --repeat 10 misses it 35 % of the time, --repeat 20 12 %, 30 4 %.
    expect(stableByChance(0.1, 10)).toBeCloseTo(0.349, 3);
    expect(stableByChance(0.1, 20)).toBeCloseTo(0.122, 3);
    expect(stableByChance(0.1, 30)).toBeCloseTo(0.042, 3);
    // 2.1.238 GREEN ~1 in 5 beside other runs: 10 runs miss it 11 % of the time.
    expect(stableByChance(0.2, 10)).toBeCloseTo(0.107, 3);
    // The other error is zero: a unanimous cell is never called flaky.
    expect(stabilityOf(Array(10).fill("GREEN"))).toBe("stable");
  });

  it("below 50 runs only unanimity is stable; at 50, 49 of 50 is", () => {
    expect(stabilityOf([...Array(48).fill("RED"), "GREEN"])).toBe("flaky");
    expect(stabilityOf([...Array(49).fill("RED"), "GREEN"])).toBe("stable");
    expect(stabilityOf([...Array(48).fill("RED"), "GREEN", "GREEN"])).toBe("flaky");
  });

  it("settles early: flaky at the first disagreement, stable only at the last run", () => {
    expect(stabilityOf(["RED", "RED"], 10)).toBe("open");
    expect(stabilityOf(["RED", "RED", "GREEN"], 10)).toBe("flaky");
    expect(stabilityOf(Array(9).fill("RED"), 10)).toBe("open");
    expect(stabilityOf(Array(10).fill("RED"), 10)).toBe("stable");
    expect(stabilityOf([], 10)).toBe("open");
  });
});

describe("rates of recorded tables", () => {
  it("2.1.231: the verdict is stable RED 10/10; the findings have rates of their own", () => {
    const r = repeatRates(TABLES["2.1.231"]);
    expect(r.stability).toBe("stable");
    expect(rateLabel(r)).toBe("RED");
    expect(r.findings.map((f) => [f.what, f.count])).toEqual([["tool-killed", 10], ["turn-dropped", 8], ["turn-duplicated", 2]]);
    expect(r.findings[2]!.interval.low).toBeCloseTo(0.057, 3);
    expect(r.findings[2]!.interval.high).toBeCloseTo(0.51, 2);
  });

  it("2.1.237: flaky, shown as RED 5/6, exit 6; stable cells keep their codes", () => {
    const combined = combineRepeats(TABLES["2.1.237"]);
    expect(combined).toMatchObject({ verdict: "INCONCLUSIVE", flaky: true, label: "RED 5/6" });
    expect(formatRates(combined.rates)).toEqual([
      "6 runs, flaky (outcomes disagree: reported as RED 5/6)",
      "  verdict RED 5/6 (95% CI 44%–97%)",
      "  verdict GREEN 1/6 (95% CI 3%–56%)",
      "  finding tool-killed 5/6 (95% CI 44%–97%)",
      "  finding turn-rerun 1/6 (95% CI 3%–56%)",
    ]);
    expect(FLAKY_EXIT).toBe(6);
    expect(combineRepeats(TABLES["2.1.150"])).toMatchObject({ verdict: "GREEN", flaky: false, label: "GREEN" });
  });

  it("2.1.281 sendDelay=0: the verdict is stable, the finding is the race (notification-dropped 1/10)", () => {
    const r = repeatRates(TABLES["2.1.281 sendDelay=0"]);
    expect(r.stability).toBe("stable");
    expect(r.findings.find((f) => f.what === "notification-dropped")).toMatchObject({ count: 1, of: 10 });
    // Per finding the rule says flaky: the labels disagree.
    expect(stabilityOf(TABLES["2.1.281 sendDelay=0"].map((t) => t.findings.map((f) => f.id).join("+")))).toBe("flaky");
  });

  it("any ERROR is the cell's verdict, whatever the rates", () => {
    expect(combineRepeats([result("RED"), result("ERROR")])).toMatchObject({ verdict: "ERROR", flaky: false, label: "ERROR" });
  });
});
