// The orchestration driven by outcome tables: endpoints, skips, repeats, findings, progress and interruption.
import { describe, expect, it } from "vitest";
import { BisectError, type BisectErrorDetail } from "../../bisect/errors.ts";
import { runBisect } from "../../bisect/run-bisect.ts";
import { bisectTable, candidates, monotone, NEW, OLD, tableRunner, type Table } from "./tables.ts";

const bisect = bisectTable;

async function failure(promise: Promise<unknown>): Promise<BisectError & { detail: BisectErrorDetail }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BisectError);
  return error as BisectError;
}

describe("runBisect: monotone ranges", () => {
  it.each([0, 1, 2, 5, 16, 100])("%i candidates: finds every transition within the bound", async (n) => {
    const list = candidates(n);
    for (let t = 0; t <= n; t++) {
      const { result, calls } = bisect(monotone(list, t), list);
      const r = await result;
      expect(r.answer).toEqual({
        lastOld: t === 0 ? OLD : list[t - 1],
        firstNew: t === n ? NEW : list[t],
        skippedBetween: [],
      });
      expect(calls.slice(0, 2)).toEqual([OLD, NEW]);
      expect(r.budget.steps).toBe(calls.length);
      expect(r.budget.steps).toBeLessThanOrEqual(Math.ceil(Math.log2(n + 1)) + 2);
      expect(r.budget.bound).toBe(Math.ceil(Math.log2(n + 1)) + 2);
    }
  });

  it("zero candidates: adjacent endpoints are the answer after verifying them", async () => {
    const r = await bisect(monotone([], 0), []).result;
    expect(r.answer).toEqual({ lastOld: OLD, firstNew: NEW, skippedBetween: [] });
    expect(r.steps.map((s) => [s.version, s.role, s.judged])).toEqual([
      [OLD, "old endpoint", { class: "old", outcome: "GREEN" }],
      [NEW, "new endpoint", { class: "new", outcome: "RED" }],
    ]);
  });

  it("records each step's outcomes, run dirs and duration from the injected clock", async () => {
    let t = 0;
    const list = candidates(1);
    const r = await bisect(monotone(list, 1), list, { now: () => (t += 500) }).result;
    expect(r.steps[2]).toEqual({
      index: 3,
      version: "2.1.0",
      role: "candidate",
      runs: [{ outcome: "GREEN", runDir: "runs/2.1.0-1", ms: 1000 }],
      judged: { class: "old", outcome: "GREEN" },
      ms: 500,
      downloadWaitMs: 0,
    });
  });
});

describe("runBisect: skips", () => {
  const list = candidates(15); // middle 2.1.7

  it("a failed middle (install, harness, ERROR, INCONCLUSIVE, UNSUPPORTED) is skipped and its neighbour tried", async () => {
    for (const cell of ["install-fails", "harness-fails", "ERROR", "INCONCLUSIVE", "UNSUPPORTED"] as const) {
      const { result, calls } = bisect(monotone(list, 11, { "2.1.7": cell }), list);
      const r = await result;
      expect(calls[2]).toBe("2.1.7");
      expect(calls[3]).toBe("2.1.6");
      expect(r.answer).toEqual({ lastOld: "2.1.10", firstNew: "2.1.11", skippedBetween: [] });
      expect(r.skipped.map((s) => [s.version, s.reason.kind])).toEqual([
        ["2.1.7", { "install-fails": "install", "harness-fails": "harness", ERROR: "harness", INCONCLUSIVE: "unjudged", UNSUPPORTED: "unsupported" }[cell]],
      ]);
      expect(r.budget.bound).toBe(4 + 1 + 2);
      expect(r.budget.steps).toBeLessThanOrEqual(r.budget.bound);
    }
  });

  // Skipped: both edges (2.1.0, 2.1.14) and a run around the middle (2.1.6–2.1.8).
  const overrides: Table = { "2.1.0": "install-fails", "2.1.14": "install-fails" };
  for (const v of ["2.1.6", "2.1.7", "2.1.8"]) overrides[v] = "harness-fails";
  it.each([
    [1, { lastOld: OLD, firstNew: "2.1.1", skippedBetween: ["2.1.0"] }],
    [4, { lastOld: "2.1.3", firstNew: "2.1.4", skippedBetween: [] }],
    [7, { lastOld: "2.1.5", firstNew: "2.1.9", skippedBetween: ["2.1.6", "2.1.7", "2.1.8"] }],
    [10, { lastOld: "2.1.9", firstNew: "2.1.10", skippedBetween: [] }],
    [14, { lastOld: "2.1.13", firstNew: NEW, skippedBetween: ["2.1.14"] }],
  ])("skips at both edges and consecutive skips: change at %i", async (t, answer) => {
    const r = await bisect(monotone(list, t, overrides), list).result;
    expect(r.answer).toEqual(answer);
    expect(r.budget.steps).toBeLessThanOrEqual(r.budget.bound);
  });

  it("a skip next to the transition gives an ambiguous answer naming the skipped release", async () => {
    const r = await bisect(monotone(list, 5, { "2.1.5": "install-fails" }), list).result;
    expect(r.answer).toEqual({ lastOld: "2.1.4", firstNew: "2.1.6", skippedBetween: ["2.1.5"] });
    expect(r.changelog.entries.map((e) => e.version)).toEqual(["2.1.5", "2.1.6"]);
  });

  it("the bound counts every skip", async () => {
    const overrides: Table = {};
    for (const v of list.slice(3, 12)) overrides[v] = "harness-fails";
    const r = await bisect(monotone(list, 12, overrides), list).result;
    expect(r.answer).toEqual({ lastOld: "2.1.2", firstNew: "2.1.12", skippedBetween: list.slice(3, 12) });
    expect(r.budget).toMatchObject({ candidates: 15, bound: 4 + 9 + 2 });
    expect(r.budget.steps).toBeLessThanOrEqual(r.budget.bound);
  });
});

describe("runBisect: repeats", () => {
  it("repeat 3: disagreeing repeats make a candidate flaky (skipped after the first disagreement)", async () => {
    const list = candidates(3);
    const { result, calls } = bisect(monotone(list, 1, { [OLD]: ["GREEN", "GREEN", "GREEN"], "2.1.1": ["RED", "GREEN", "RED"] }), list, {
      repeat: 3,
      now: () => 0,
    });
    const r = await result;
    expect(calls.filter((v) => v === "2.1.1")).toHaveLength(2);
    expect(r.skipped).toEqual([{ version: "2.1.1", reason: { kind: "flaky", outcomes: ["RED", "GREEN"] } }]);
    expect(r.answer).toEqual({ lastOld: "2.1.0", firstNew: "2.1.2", skippedBetween: ["2.1.1"] });
    // Endpoints and the two settled candidates ran 3 times each, the flaky one twice.
    expect(r.budget).toMatchObject({ steps: 5, runs: 4 * 3 + 2 });
    expect(r.steps.find((s) => s.version === "2.1.0")?.runs.map((run) => run.outcome)).toEqual(["GREEN", "GREEN", "GREEN"]);
  });

  it("a flaky endpoint is an error, never a guess", async () => {
    const e = await failure(bisect(monotone([], 0, { [NEW]: ["RED", "RED", "GREEN"] }), [], { repeat: 3 }).result);
    expect(e.detail).toEqual({
      kind: "endpoint-broken",
      endpoint: "new",
      version: NEW,
      reason: { kind: "flaky", outcomes: ["RED", "RED", "GREEN"] },
    });
    expect(e.message).toMatch(/--repeat/);
  });
});

describe("runBisect: endpoints", () => {
  it("endpoints with the same outcome: an error showing both", async () => {
    const { result, calls } = bisect(monotone(candidates(5), 0, { [OLD]: "RED" }), candidates(5));
    const e = await failure(result);
    expect(e.detail).toEqual({ kind: "same-outcome", old: { version: OLD, outcome: "RED" }, new: { version: NEW, outcome: "RED" } });
    expect(e.message).toContain(`${OLD} → RED, ${NEW} → RED`);
    expect(calls).toEqual([OLD, NEW]);
  });

  it("an ERROR endpoint stops before anything else runs", async () => {
    const { result, calls } = bisect(monotone(candidates(5), 2, { [OLD]: "ERROR" }), candidates(5));
    const e = await failure(result);
    expect(e.detail).toMatchObject({ kind: "endpoint-broken", endpoint: "old", version: OLD, reason: { kind: "harness" } });
    expect(calls).toEqual([OLD]);
  });

  it("an endpoint that cannot be installed is an error naming it", async () => {
    const e = await failure(bisect(monotone([], 0, { [NEW]: "install-fails" }), []).result);
    expect(e.message).toContain(`new endpoint ${NEW}: cannot install: no package for ${NEW}`);
  });

  it("rejects a reversed range and a disordered candidate list", async () => {
    const reversed = await failure(bisect({}, [], { old: NEW, new: OLD }).result);
    expect(reversed.detail.kind).toBe("bad-input");
    await expect(bisect({}, ["2.1.1", "2.1.0"]).result).rejects.toThrow(/ascending/);
  });
});

describe("runBisect: --finding", () => {
  // Both endpoints are RED; only the later one carries finding B.
  const list = candidates(7);
  const table: Table = {};
  list.forEach((v, i) => (table[v] = { verdict: "RED", findings: i < 4 ? ["A"] : ["A", "B"] }));
  table[OLD] = { verdict: "RED", findings: ["A"] };
  table[NEW] = { verdict: "RED", findings: ["B"] };

  it("bisects on a finding's presence when the verdict does not change", async () => {
    const r = await bisect(table, list, { finding: "B" }).result;
    expect(r.old.outcome).toBe("lacks:B");
    expect(r.new.outcome).toBe("has:B");
    expect(r.answer).toEqual({ lastOld: "2.1.3", firstNew: "2.1.4", skippedBetween: [] });
    expect(r.finding).toBe("B");
  });

  it("without --finding the same table is two RED endpoints", async () => {
    const e = await failure(bisect(table, list).result);
    expect(e.detail.kind).toBe("same-outcome");
  });

  it("an INCONCLUSIVE run cannot show a finding is absent: skipped as unjudged", async () => {
    const r = await bisect({ ...table, "2.1.3": "INCONCLUSIVE" }, list, { finding: "B" }).result;
    expect(r.skipped).toEqual([{ version: "2.1.3", reason: { kind: "unjudged", message: "the run did not reach its point (see runs/2.1.3-1)" } }]);
    expect(r.answer).toEqual({ lastOld: "2.1.2", firstNew: "2.1.4", skippedBetween: ["2.1.3"] });
  });
});

// Issue 42, item 2: an unjudged release is never a side, an end included. The probe the issue describes:
// INCONCLUSIVE up to 2.1.330, GREEN on 2.1.331, RED from 2.1.332; bisected on a finding from 2.1.329 it said
// "last old: 2.1.330", an INCONCLUSIVE release taken for the old side.
describe("unjudged releases", () => {
  const probe = { "2.1.329": "INCONCLUSIVE", "2.1.330": "INCONCLUSIVE", "2.1.331": "GREEN", "2.1.332": { verdict: "RED", findings: ["turn-started-on-resume"] } } as const;

  it("an unjudged end is refused with the reason, on a finding or on the verdict", async () => {
    for (const extra of [{ finding: "turn-started-on-resume" }, {}]) {
      const run = bisect(probe as never, ["2.1.330", "2.1.331"], { old: "2.1.329", new: "2.1.332", ...extra });
      const e = await run.result.then(() => null, (error: unknown) => error as { detail: { kind: string; endpoint: string; reason: { kind: string } }; message: string });
      expect(e?.detail).toMatchObject({ kind: "endpoint-broken", endpoint: "old", reason: { kind: "unjudged" } });
      expect(e?.message).toMatch(/cannot bisect from the old endpoint 2\.1\.329: INCONCLUSIVE, so neither side: .*an end must be judged/);
    }
  });

  it("between judged ends, an unjudged release next to the boundary makes it a range naming it and why", async () => {
    const table = { "2.1.328": "GREEN", "2.1.329": "GREEN", "2.1.330": "INCONCLUSIVE", "2.1.331": "INCONCLUSIVE", "2.1.332": "RED" } as const;
    const r = await bisect(table as never, ["2.1.329", "2.1.330", "2.1.331"], { old: "2.1.328", new: "2.1.332" }).result;
    expect(r.answer).toEqual({ lastOld: "2.1.329", firstNew: "2.1.332", skippedBetween: ["2.1.330", "2.1.331"] });
    expect(r.skipped.map((s) => [s.version, s.reason.kind])).toEqual([["2.1.330", "unjudged"], ["2.1.331", "unjudged"]]);
    const { formatSummary } = await import("../../bisect/format.ts");
    const text = formatSummary(r);
    expect(text).toContain("ambiguous: the change is in one of 2.1.330, 2.1.331, 2.1.332 (last old: 2.1.329)");
    expect(text).toMatch(/2\.1\.330: INCONCLUSIVE, so neither side: /);
    expect(text).not.toMatch(/last old: 2\.1\.33[01]\b/);
  });
});

describe("runBisect: progress events", () => {
  it("start/step per release in order, a skip right after its step, estimates that grow with skips", async () => {
    const list = candidates(3);
    const { result, events } = bisect(monotone(list, 1, { "2.1.1": "install-fails" }), list, { now: () => 0 });
    await result;
    const brief = events.map((e) =>
      e.kind === "start"
        ? `start ${e.index}/${e.estimatedTotal} ${e.version}`
        : e.kind === "step"
          ? `step ${e.index}/${e.estimatedTotal} ${e.version} ${e.outcome}`
          : e.kind === "plan"
            ? `plan at most ${e.atMost}`
            : `${e.kind} ${e.version}`,
    );
    expect(brief).toEqual([
      "plan at most 4",
      `start 1/4 ${OLD}`,
      `step 1/4 ${OLD} GREEN`,
      `start 2/4 ${NEW}`,
      `step 2/4 ${NEW} RED`,
      "start 3/4 2.1.1",
      "step 3/5 2.1.1 skip",
      "skip 2.1.1",
      "start 4/5 2.1.0",
      "step 4/5 2.1.0 GREEN",
      "start 5/5 2.1.2",
      "step 5/5 2.1.2 RED",
    ]);
    expect(events[7]).toEqual({ kind: "skip", version: "2.1.1", reason: { kind: "install", message: "no package for 2.1.1" } });
  });
});

describe("runBisect: interruption", () => {
  const list = candidates(15);

  it("Ctrl-C mid-way: the error carries the narrowed range and the command that resumes it", async () => {
    const stop = new AbortController();
    const runner = tableRunner(monotone(list, 5, { "2.1.3": "harness-fails" }));
    const promise = runBisect({
      scenario: "demo",
      old: OLD,
      new: NEW,
      candidates: list,
      repeat: 2,
      finding: "x",
      outcomeOf: (run) => (run.verdict === "RED" ? "has:x" : "lacks:x"),
      runOnce: async (version, signal) => {
        // 2.1.7 (new), 2.1.3 (skip), then 2.1.2 (old): interrupted during 2.1.5's last repeat, which still returns.
        if (version === "2.1.5" && runner.calls.includes(version)) stop.abort();
        expect(signal).toBe(stop.signal);
        return runner.runOnce(version);
      },
      signal: stop.signal,
    });
    const e = await failure(promise);
    expect(e.detail).toMatchObject({ kind: "interrupted", reason: "interrupted", lastOld: "2.1.2", firstNew: "2.1.7" });
    if (e.detail.kind !== "interrupted") throw new Error("unreachable");
    expect(e.detail.resume).toBe("ccrepro bisect demo --old 2.1.2 --new 2.1.7 --repeat 2 --finding x");
    expect(e.detail.skipped.map((s) => s.version)).toEqual(["2.1.3"]);
    // The interrupted run is not a step: a run cut short says nothing about 2.1.5.
    expect(e.detail.steps.map((s) => s.version)).toEqual([OLD, NEW, "2.1.7", "2.1.3", "2.1.2"]);
    expect(e.message).toContain("Resume with:\n  ccrepro bisect demo --old 2.1.2 --new 2.1.7");
  });

  it("a runner that throws mid-way: interrupted with the cause and the resume command", async () => {
    const boom = new Error("disk full");
    const runner = tableRunner(monotone(list, 5));
    const promise = bisect({}, list, {
      runOnce: async (version) => {
        if (version === "2.1.3") throw boom;
        return runner.runOnce(version);
      },
    }).result;
    const e = await failure(promise);
    expect(e.cause).toBe(boom);
    expect(e.detail).toMatchObject({ kind: "interrupted", reason: "the runner failed on 2.1.3: disk full" });
    if (e.detail.kind !== "interrupted") throw new Error("unreachable");
    expect(e.detail.resume).toBe(`ccrepro bisect demo --old ${OLD} --new 2.1.7`);
  });

  it("the resume command repeats the parameters and the runs directory of the interrupted bisection", async () => {
    const stop = new AbortController();
    stop.abort();
    const promise = runBisect({
      scenario: "demo",
      old: OLD,
      new: NEW,
      candidates: list,
      outcomeOf: (run) => run.verdict,
      runOnce: async () => {
        throw new Error("not reached");
      },
      rerun: { params: { resumeBy: "send-message" }, runsDir: "elsewhere" },
      signal: stop.signal,
    });
    const e = await failure(promise);
    if (e.detail.kind !== "interrupted") throw new Error("unreachable");
    // The runs directory is reused, so the resumed bisection runs nothing the interrupted one measured.
    expect(e.detail.resume).toBe(`ccrepro bisect demo --old ${OLD} --new ${NEW} --param resumeBy=send-message --runs-dir elsewhere --reuse elsewhere`);
  });

  it("interrupted before the endpoints are verified: resume is the original range", async () => {
    const stop = new AbortController();
    stop.abort();
    const { result, calls } = bisect(monotone(list, 5), list, { signal: stop.signal });
    const e = await failure(result);
    expect(calls).toEqual([]);
    if (e.detail.kind !== "interrupted") throw new Error("unreachable");
    expect(e.detail.resume).toBe(`ccrepro bisect demo --old ${OLD} --new ${NEW}`);
  });
});

describe("runBisect: changelog", () => {
  const list = candidates(3);

  it("says the changelog is not reachable rather than dropping the links", async () => {
    const r = await bisect(monotone(list, 2), list, {
      fetchChangelog: () => Promise.reject(new Error("getaddrinfo ENOTFOUND raw.githubusercontent.com")),
    }).result;
    expect(r.changelog.status).toBe("unreachable");
    expect(r.changelog.note).toMatch(/^changelog not reachable from here \(getaddrinfo ENOTFOUND/);
    expect(r.changelog.entries).toEqual([
      { version: "2.1.2", url: "https://github.com/anthropics/claude-code/blob/main/CHANGELOG.md#212" },
    ]);
  });

  it("marks which releases have an entry when the file is reachable", async () => {
    const r = await bisect(monotone(list, 2, { "2.1.1": "install-fails" }), list, {
      fetchChangelog: async () => "# Changelog\n\n## 2.1.2\n\n- Fixed things\n\n## 2.1.0\n",
    }).result;
    expect(r.changelog.status).toBe("reachable");
    expect(r.changelog.entries.map((e) => [e.version, e.found])).toEqual([
      ["2.1.1", false],
      ["2.1.2", true],
    ]);
  });
});
