// The sweep's plumbing with a stand-in runner (no claude here: the verdicts below are the stand-in's, chosen to draw
// two boundaries): resume, boundaries, downloads bounded ahead of the runs, Ctrl-C, shards and their merge.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findScenario } from "../../scenarios/index.ts";
import type { ReleaseRunner } from "../../pipeline/run-scenario.ts";
import type { InstalledRelease } from "../../releases/release-cache.ts";
import { runSweep } from "../../sweep/run-sweep.ts";
import { notificationTable, tempDirs } from "../stand-in-runner.ts";
import { mergeSweeps } from "../../sweep/merge.ts";
import { boundariesOf, readSweepFile } from "../../sweep/sweep-file.ts";
import { sliceForShard } from "../../nightly/shard.ts";

const scenario = findScenario("subagent-resume-notification-header")!;
const VERSIONS = ["2.1.250", "2.1.251", "2.1.270", "2.1.283", "2.1.284", "2.1.290"];

const tmp = tempDirs("sweep-test-");
const resultFor = notificationTable;

// Records what ran and when downloads started relative to the runs.
function standIn(outDir: string, options: { abortAfter?: { count: number; controller: AbortController } } = {}) {
  const ran: string[] = [];
  const log: string[] = [];
  const subjects: unknown[] = [];
  let finished = 0;
  const runner: ReleaseRunner = {
    async prefetch(version) {
      log.push(`fetch ${version}`);
      await new Promise((r) => setTimeout(r, 5));
      return { version, fetchMs: 5, downloadedBytes: 100, fromCache: false } as InstalledRelease;
    },
    async run(subject, version) {
      subjects.push(subject);
      log.push(`run ${version}`);
      ran.push(version);
      const runDir = path.join(outDir, "runs", `run-${version}`);
      fs.mkdirSync(runDir, { recursive: true });
      await new Promise((r) => setTimeout(r, 20));
      finished += 1;
      if (options.abortAfter && finished === options.abortAfter.count) options.abortAfter.controller.abort();
      return { installed: true, runDir, record: { result: resultFor(version) } } as never;
    },
  };
  return { runner, ran, log, subjects };
}

const base = (outDir: string, runner: ReleaseRunner) => ({ scenario, params: {}, versionsWord: "test", versions: VERSIONS, repeat: 1, concurrency: 1, outDir, runner });

describe("runSweep", () => {
  it("names the adjacent pair at each boundary and resumes only the releases without a result", async () => {
    const out = tmp();
    const controller = new AbortController();
    const first = standIn(out, { abortAfter: { count: 2, controller } });
    const interrupted = await runSweep({ ...base(out, first.runner), signal: controller.signal });
    expect(interrupted.interrupted).toBe(true);
    // The run that finished as Ctrl-C came is not trusted: it is left for the resume.
    expect(readSweepFile(out).results.map((r) => r.version)).toEqual(["2.1.250"]);
    expect(interrupted.left).toEqual(VERSIONS.slice(1));

    const second = standIn(out);
    const resumed = await runSweep(base(out, second.runner));
    expect(second.ran).toEqual(VERSIONS.slice(1));
    expect(resumed.file.results.map((r) => r.version)).toEqual(VERSIONS);
    expect(resumed.file.boundaries.map((b) => [b.before, b.after, b.from, b.to])).toEqual([
      ["2.1.251", "2.1.270", "RED notification-dropped", "RED notification-changed"],
      ["2.1.283", "2.1.284", "RED notification-changed", "GREEN"],
    ]);
    expect(readSweepFile(out).boundaries).toEqual(resumed.file.boundaries);
  });

  // Issue 43, item 13: the sweep compares parameters as the scenario reads them (it compared their JSON text).
  it("resumes a sweep whose parameters are the same values in another order, and refuses other values", async () => {
    const out = tmp();
    const written = { resumes: 1, resumeBy: "task", sendDelay: 1000 };
    const controller = new AbortController();
    await runSweep({ ...base(out, standIn(out, { abortAfter: { count: 2, controller } }).runner), params: written, signal: controller.signal });
    const again = standIn(out);
    const resumed = await runSweep({ ...base(out, again.runner), params: { sendDelay: 1000, resumeBy: "task", resumes: 1 } });
    expect(again.ran).toEqual(VERSIONS.slice(1));
    expect(resumed.file.params).toEqual(written);
    const other = await runSweep({ ...base(out, standIn(out).runner), params: { ...written, sendDelay: 2000 } }).catch((e: unknown) => e);
    expect(other).toMatchObject({ code: "BAD_SWEEP" });
  });

  it("refuses more than one release at a time for a scenario that runs alone, before writing anything", async () => {
    const out = path.join(tmp(), "sweep");
    const { runner, ran } = standIn(out);
    const error = await runSweep({ ...base(out, runner), scenario: findScenario("background-mid-turn")!, concurrency: 2 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "CONFLICTING_OPTIONS", hint: "drop --concurrency; its runs go one at a time" });
    expect(ran).toEqual([]);
    expect(fs.existsSync(out)).toBe(false);
  });

  it("drives every release the way it was asked (the SDK axis), and records it in sweep.json", async () => {
    const out = tmp();
    const { runner, subjects } = standIn(out);
    const { file } = await runSweep({ ...base(out, runner), drive: { driver: "sdk", sdk: "0.3.197" } });
    expect(subjects).toHaveLength(VERSIONS.length);
    for (const subject of subjects) expect(subject).toMatchObject({ driver: "sdk", sdk: "0.3.197" });
    expect(file.drive).toEqual({ driver: "sdk", sdk: "0.3.197" });
  });

  it("downloads ahead of the runs, never more than `ahead` releases past them", async () => {
    const out = tmp();
    const { runner, log } = standIn(out);
    await runSweep({ ...base(out, runner), ahead: 2 });
    // When run i starts, release i has been fetched, and at most the two after it besides.
    VERSIONS.forEach((version, i) => {
      const runAt = log.indexOf(`run ${version}`);
      const fetchedBefore = log.slice(0, runAt).filter((l) => l.startsWith("fetch")).length;
      expect(fetchedBefore).toBeGreaterThanOrEqual(i + 1);
      expect(fetchedBefore).toBeLessThanOrEqual(i + 3);
    });
  });

  it("shards split the list and their merge draws the same boundaries as one sweep", async () => {
    const [a, b, merged] = [tmp(), tmp(), tmp()];
    for (const [dir, index] of [[a, 1], [b, 2]] as const) {
      const shard = { index, count: 2 };
      const { runner, ran } = standIn(dir);
      await runSweep({ ...base(dir, runner), selected: sliceForShard(VERSIONS, shard), shard });
      expect(ran).toEqual(sliceForShard(VERSIONS, shard));
    }
    const file = mergeSweeps([a, b], merged);
    expect(file.results.map((r) => r.version)).toEqual(VERSIONS);
    expect(file.boundaries.map((x) => `${x.before}→${x.after}`)).toEqual(["2.1.251→2.1.270", "2.1.283→2.1.284"]);
    expect(fs.existsSync(path.join(merged, file.results[0]!.runs[0]!.dir!))).toBe(true);
  });

  it("a boundary across releases without a result names them", () => {
    const result = (version: string, verdict: "RED" | "GREEN") => ({ version, verdict, reason: "", red: [], flaky: false, runs: [], downloadMs: 0, downloadedBytes: 0, finishedAt: "" });
    expect(boundariesOf(["1.0.0", "1.0.1", "1.0.2"], [result("1.0.0", "RED"), result("1.0.2", "GREEN")])).toEqual([
      { before: "1.0.0", after: "1.0.2", from: "RED", to: "GREEN", unknownBetween: ["1.0.1"], unjudgedBetween: [] },
    ]);
  });

  it("never takes an unjudged release (INCONCLUSIVE, ERROR, UNSUPPORTED) for a side: the boundary is a range naming each and why (issue 42, item 2)", () => {
    const result = (version: string, verdict: "RED" | "GREEN" | "INCONCLUSIVE" | "ERROR" | "UNSUPPORTED", reason = "") => ({ version, verdict, reason, red: [], flaky: false, runs: [], downloadMs: 0, downloadedBytes: 0, finishedAt: "" });
    const versions = ["2.1.328", "2.1.329", "2.1.330", "2.1.331", "2.1.332"];
    const results = [result("2.1.328", "UNSUPPORTED", "no --resume"), result("2.1.329", "GREEN"), result("2.1.330", "INCONCLUSIVE", "never resumed"), result("2.1.331", "ERROR", "mock failed"), result("2.1.332", "RED")];
    expect(boundariesOf(versions, results)).toEqual([
      {
        before: "2.1.329",
        after: "2.1.332",
        from: "GREEN",
        to: "RED",
        unknownBetween: [],
        unjudgedBetween: [
          { version: "2.1.330", verdict: "INCONCLUSIVE", reason: "never resumed" },
          { version: "2.1.331", verdict: "ERROR", reason: "mock failed" },
        ],
      },
    ]);
    // An unjudged end of the list bounds nothing either: INCONCLUSIVE up to 2.1.330, then GREEN, then RED.
    const probe = [result("2.1.329", "INCONCLUSIVE"), result("2.1.330", "INCONCLUSIVE"), result("2.1.331", "GREEN"), result("2.1.332", "RED")];
    expect(boundariesOf(versions.slice(1), probe).map((b) => `${b.before}→${b.after}`)).toEqual(["2.1.331→2.1.332"]);
  });
});
