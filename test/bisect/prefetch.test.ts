// Prefetching during a bisection, on a fake clock: what is fetched when, the time hidden and waited, the bound.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDownloads } from "../../bisect/prefetch.ts";
import { outcomeFor } from "../../bisect/outcome.ts";
import { runBisect } from "../../bisect/run-bisect.ts";
import type { ProgressEvent } from "../../bisect/types.ts";
import { candidates, monotone, NEW, OLD, tableRunner, type Table } from "./tables.ts";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// A download that takes `ms` on the fake clock and stops when aborted; it tracks how many run at once.
// Releases in `cached` answer at once with nothing downloaded, as the release cache does on a hit.
function fakePrefetch(ms: number, cached: readonly string[] = []) {
  const calls: string[] = [];
  const aborted: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const prefetch = (version: string, signal: AbortSignal) =>
    new Promise<{ bytes: number; ms: number; fromCache?: boolean }>((resolve, reject) => {
      calls.push(version);
      if (cached.includes(version)) return resolve({ bytes: 0, ms: 3, fromCache: true });
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      const timer = setTimeout(() => {
        inFlight--;
        resolve({ bytes: 100_000_000, ms });
      }, ms);
      signal.addEventListener("abort", () => {
        clearTimeout(timer);
        inFlight--;
        aborted.push(version);
        reject(new Error("aborted"));
      });
    });
  return { prefetch, calls, aborted, inFlight: () => inFlight, maxInFlight: () => maxInFlight };
}

// A bisection whose every run takes `runMs` on the fake clock; `seen` maps each run to the prefetches started by its end.
async function timed(table: Table, list: string[], runMs: number, downloadMs: number) {
  const runner = tableRunner(table);
  const fetcher = fakePrefetch(downloadMs);
  const seen: Record<string, string[]> = {};
  const events: ProgressEvent[] = [];
  const promise = runBisect({
    scenario: "demo",
    old: OLD,
    new: NEW,
    candidates: list,
    outcomeOf: outcomeFor(),
    runOnce: async (version) => {
      await sleep(runMs);
      seen[version] = [...fetcher.calls];
      return runner.runOnce(version);
    },
    prefetch: fetcher.prefetch,
    onProgress: (event) => events.push(event),
    now: () => Date.now(),
  });
  await vi.runAllTimersAsync();
  return { result: await promise, fetcher, seen, events };
}

describe("prefetch during runBisect", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fetches both possible next midpoints while a candidate runs, and hides their download time", async () => {
    // 7 candidates, change at 2.1.2: 2.1.3 (new) → 2.1.1 (old) → 2.1.2 (new). Runs 10 s, downloads 4 s: the two
    // downloads one after the other end behind a run.
    const list = candidates(7);
    const { result, fetcher, seen, events } = await timed(monotone(list, 2), list, 10_000, 4_000);
    expect(result.answer).toEqual({ lastOld: "2.1.1", firstNew: "2.1.2", skippedBetween: [] });
    // While the old endpoint runs: the new endpoint and the first midpoint.
    expect(seen[OLD]).toEqual([OLD, NEW, "2.1.3"]);
    // While 2.1.3 runs: 2.1.5 (if it is old) and 2.1.1 (if it is new).
    expect(seen["2.1.3"]).toEqual([OLD, NEW, "2.1.3", "2.1.5", "2.1.1"]);
    expect(seen["2.1.1"]?.slice(5)).toEqual(["2.1.2", "2.1.0"]);
    expect(fetcher.calls).toHaveLength(7);
    // Only the first download was waited for; four were used after finishing behind a run; two were never needed.
    expect(result.download).toEqual({
      fetched: [OLD, NEW, "2.1.3", "2.1.5", "2.1.1", "2.1.2", "2.1.0"],
      hiddenMs: 4 * 4_000,
      waitedMs: 4_000,
      unused: ["2.1.5", "2.1.0"],
      cached: [],
    });
    expect(result.steps.map((s) => s.downloadWaitMs)).toEqual([4_000, 0, 0, 0, 0]);
    expect(events.filter((e) => e.kind === "download")).toHaveLength(7);
    expect(events[0]).toMatchObject({ kind: "plan", atMost: 2 + 3 });
    expect(events[1]).toMatchObject({ kind: "start", version: OLD });
    expect(events[2]).toEqual({ kind: "download", version: OLD, bytes: 100_000_000, ms: 4_000, fromCache: false });
  });

  it("counts the part of a download that outlasted the run before it as waited", async () => {
    // Downloads 15 s, runs 10 s: the new endpoint starts downloading at 15 s and is needed at 25 s.
    const { result } = await timed(monotone([], 0), [], 10_000, 15_000);
    expect(result.download).toMatchObject({ hiddenMs: 10_000, waitedMs: 15_000 + 5_000 });
    expect(result.steps.map((s) => [s.downloadWaitMs, s.ms])).toEqual([
      [15_000, 10_000],
      [5_000, 10_000],
    ]);
  });

  it("downloads one release at a time, cancels the branch not taken, leaves nothing running", async () => {
    const list = candidates(31);
    const overrides: Table = { "2.1.15": "install-fails", "2.1.14": "harness-fails" };
    const { result, fetcher } = await timed(monotone(list, 20, overrides), list, 10_000, 30_000);
    expect(result.answer).toEqual({ lastOld: "2.1.19", firstNew: "2.1.20", skippedBetween: [] });
    expect(fetcher.maxInFlight()).toBe(1);
    expect(fetcher.aborted.length).toBeGreaterThan(0);
    expect(fetcher.inFlight()).toBe(0);
    for (const version of fetcher.aborted) expect(result.download.fetched).toContain(version);
  });

  it("an interrupted bisection cancels the downloads still in flight", async () => {
    const list = candidates(7);
    const fetcher = fakePrefetch(30_000);
    const runner = tableRunner(monotone(list, 2));
    const promise = runBisect({
      scenario: "demo",
      old: OLD,
      new: NEW,
      candidates: list,
      outcomeOf: outcomeFor(),
      runOnce: async (version) => {
        await sleep(10_000);
        if (version === "2.1.3") throw new Error("runner crashed");
        return runner.runOnce(version);
      },
      prefetch: fetcher.prefetch,
      now: () => Date.now(),
    });
    const settled = promise.then(
      () => "resolved",
      () => ({ inFlight: fetcher.inFlight(), aborted: [...fetcher.aborted] }),
    );
    await vi.runAllTimersAsync();
    // 2.1.3's first possible successor was downloading when it crashed; the second was waiting its turn.
    expect(await settled).toEqual({ inFlight: 0, aborted: ["2.1.5"] });
    expect(fetcher.calls).not.toContain("2.1.1");
  });

  it("Ctrl-C while a step waits for its download ends the wait at once", async () => {
    const stop = new AbortController();
    const fetcher = fakePrefetch(60_000);
    const runner = tableRunner(monotone([], 0));
    const promise = runBisect({
      scenario: "demo",
      old: OLD,
      new: NEW,
      candidates: [],
      outcomeOf: outcomeFor(),
      runOnce: runner.runOnce,
      prefetch: fetcher.prefetch,
      now: () => Date.now(),
      signal: stop.signal,
    });
    const settled = promise.then(
      () => "resolved",
      (error: Error) => ({ at: Date.now(), message: error.message }),
    );
    setTimeout(() => stop.abort(), 5_000);
    await vi.runAllTimersAsync();
    expect(await settled).toMatchObject({ at: 5_000, message: expect.stringMatching(/^bisect interrupted after 0 step/) });
    expect(fetcher.aborted).toEqual([OLD]);
    expect(runner.calls).toEqual([]);
  });
});

describe("createDownloads", () => {
  it("without a prefetch function nothing is fetched and nothing waits", async () => {
    const downloads = createDownloads(undefined, () => 0, () => {});
    downloads.ahead(["1.0.0"]);
    expect(await downloads.ready("1.0.0")).toBe(0);
    expect(downloads.stats()).toEqual({ fetched: [], hiddenMs: 0, waitedMs: 0, unused: [], cached: [] });
  });

  it("fetches at most two ahead, one after the other, and a failed download is left for the runner to report", async () => {
    const calls: string[] = [];
    const events: ProgressEvent[] = [];
    const downloads = createDownloads(
      async (version) => {
        calls.push(version);
        throw new Error("registry down");
      },
      () => 0,
      (event) => events.push(event),
    );
    downloads.ahead(["a", undefined, "b", "c"]);
    expect(calls).toEqual(["a"]);
    expect(await downloads.ready("a")).toBe(0);
    expect(calls).toEqual(["a", "b"]);
    expect(events).toEqual([]);
    expect(downloads.stats().unused).toEqual(["b"]);
  });
});
