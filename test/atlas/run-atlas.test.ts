// The atlas's plumbing with a stand-in runner (the verdicts are the stand-in's, chosen to draw two boundaries; no
// claude runs here): atlas.json validated when read back, an interruption keeps what finished and the resume runs
// only the rest, and a matching recorded run (same scenario, parameters, driver and binary) is reused, not run again.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.ts";
import { readRunRecord, writeRunRecord } from "../../harness/run-record.ts";
import { todaysPlan } from "../todays-plan.ts";
import { findScenario } from "../../scenarios/index.ts";
import type { ReleaseRunner } from "../../pipeline/run-scenario.ts";
import type { CheckResult } from "../../core/verdict.ts";
import { runAtlas, withCells } from "../../atlas/run-atlas.ts";
import { GREEN_RESULT, notificationTable, redWith, standInRunner, tempDirs } from "../stand-in-runner.ts";
import { ATLAS_FILE, readAtlasFile, writeAtlasFile } from "../../atlas/atlas-file.ts";

const scenario = findScenario("subagent-resume-notification-header")!;
const FIXTURE = path.join(import.meta.dirname, "..", "fixtures", "runs", "notification-changed-2.1.281", "run.json");
const fixture = readRunRecord(FIXTURE);
const VERSIONS = ["2.1.250", "2.1.251", "2.1.259", "2.1.270", "2.1.281", "2.1.283", "2.1.284", "2.1.290"];


// The fixture's binary is 2.1.281's, so that release's recorded run can be reused; every other has a sha of its own.
const standIn = (outDir: string, abortAfter?: { count: number; controller: AbortController }) =>
  standInRunner(outDir, notificationTable, {
    sha256For: (version) => (version === "2.1.281" ? fixture.claude.sha256 : `sha-${version}`),
    afterRun: (count) => {
      if (abortAfter && count === abortAfter.count) abortAfter.controller.abort();
    },
  });
const tmp = tempDirs("atlas-test-");

const base = (outDir: string, runner: ReleaseRunner) => ({
  subjects: [{ scenario, params: scenario.params.parse({}) }],
  drive: {},
  versions: VERSIONS,
  stride: 4,
  verify: 0,
  repeat: 1,
  outDir,
  reuse: [] as string[],
  runner,
});

describe("runAtlas", () => {
  it("writes atlas.json with intervals, adjacent boundaries and the runs that prove them; read back through the schema", async () => {
    const out = tmp();
    const { runner, ran } = standIn(out);
    const outcome = await runAtlas(base(out, runner));
    expect(outcome.interrupted).toBe(false);
    const entry = readAtlasFile(out).entries[0]!;
    expect(entry.boundaries.map((b) => `${b.before}→${b.after}`)).toEqual(["2.1.251→2.1.259", "2.1.283→2.1.284"]);
    expect(entry.boundaries[0]!.proof).toEqual({ before: ["runs/run-2.1.251"], after: ["runs/run-2.1.259"] });
    expect(entry.intervals.map((i) => `${i.first}-${i.last} ${i.state} ${i.assumed.length}`)).toEqual([
      "2.1.250-2.1.251 RED notification-dropped 0",
      "2.1.259-2.1.283 RED notification-changed 1",
      "2.1.284-2.1.290 GREEN 0",
    ]);
    expect(entry.complete).toBe(true);
    expect(entry.runs).toBe(ran.length);
    expect(ran.length).toBeLessThan(VERSIONS.length);
  });

  it("interrupted, keeps what finished; the resume runs only the rest", async () => {
    const out = tmp();
    const controller = new AbortController();
    const first = standIn(out, { count: 3, controller });
    const interrupted = await runAtlas({ ...base(out, first.runner), signal: controller.signal });
    expect(interrupted.interrupted).toBe(true);
    // The run that finished as Ctrl-C came is not trusted: it is left for the resume.
    const kept = readAtlasFile(out).entries[0]!.cells.map((c) => c.version);
    expect(kept).toEqual(first.ran.slice(0, 2));
    expect(readAtlasFile(out).entries[0]!.complete).toBe(false);
    const second = standIn(out);
    const resumed = await runAtlas(base(out, second.runner));
    expect(resumed.interrupted).toBe(false);
    expect(second.ran.filter((v) => kept.includes(v))).toEqual([]);
    expect(readAtlasFile(out).entries[0]!.boundaries.map((b) => b.after)).toEqual(["2.1.259", "2.1.284"]);
  });

  // The recorded 2.1.281 run, as a run directory under reuse/earlier/, reusable by an atlas of today's parameters.
  // `recorded`: the verdict run.json keeps, as an older check gave it (default: the fixture's own).
  const recordedRunIn = (reuse: string, recorded: CheckResult = fixture.result!): string => {
    const dir = path.join(reuse, "earlier", "run-2.1.281");
    fs.cpSync(path.dirname(FIXTURE), dir, { recursive: true });
    // The fixture was recorded before the scenario gained resumeBy and sendDelay; the run it holds woke the subagent
    // by its task, which is what their defaults say now. A record that does not name them is not reused (run-match).
    const params = { ...fixture.params, resumeBy: "task", sendDelay: 1000 };
    writeRunRecord(path.join(dir, "run.json"), { ...fixture, params, planSha256: todaysPlan(fixture.scenario, params), driver: "headless", recordingComplete: true, result: recorded });
    return dir;
  };

  it("reuses a recorded run of the same scenario, parameters, driver and binary instead of running it", async () => {
    const out = tmp();
    const reuse = tmp();
    const dir = recordedRunIn(reuse);
    const { runner, ran } = standIn(out);
    const outcome = await runAtlas({ ...base(out, runner), reuse: [reuse] });
    expect(ran).not.toContain("2.1.281");
    expect(outcome.reused).toBe(1);
    const cell = readAtlasFile(out).entries[0]!.cells.find((c) => c.version === "2.1.281")!;
    // Named relative to the atlas, never by this machine's absolute path.
    expect(cell.runs).toEqual([expect.objectContaining({ dir: path.relative(out, dir), reused: true, verdict: "RED", red: ["notification-changed"] })]);
    expect(path.resolve(out, cell.runs[0]!.dir!)).toBe(dir);
  });

  it("takes a reused run's verdict from today's check of its directory, not the one run.json recorded", async () => {
    const out = tmp();
    const reuse = tmp();
    // An older check called the run GREEN; today's check reads its logs as RED notification-changed.
    recordedRunIn(reuse, GREEN_RESULT);
    const { runner, ran } = standIn(out);
    const outcome = await runAtlas({ ...base(out, runner), reuse: [reuse] });
    expect(ran).not.toContain("2.1.281");
    expect(outcome.reused).toBe(1);
    const cell = readAtlasFile(out).entries[0]!.cells.find((c) => c.version === "2.1.281")!;
    expect(cell).toMatchObject({ verdict: "RED", red: ["notification-changed"] });
    expect(cell.runs).toEqual([expect.objectContaining({ reused: true, verdict: "RED" })]);
  });

  it("does not reuse a recorded run that today's check cannot judge: it runs the release", async () => {
    const out = tmp();
    const reuse = tmp();
    const dir = recordedRunIn(reuse);
    // A damaged line in the request log: the checker cannot read the run, so today's verdict is ERROR.
    const log = path.join(dir, "mock", "index.jsonl");
    fs.writeFileSync(log, `not json\n${fs.readFileSync(log, "utf8")}`);
    const { runner, ran } = standIn(out);
    const outcome = await runAtlas({ ...base(out, runner), reuse: [reuse] });
    expect(ran).toContain("2.1.281");
    expect(outcome.reused).toBe(0);
  });

  it("does not reuse a recorded run of a release that lacks what the scenario needs today: it runs it", async () => {
    const out = tmp();
    const reuse = tmp();
    recordedRunIn(reuse);
    const { runner: standInOnly, ran } = standIn(out);
    const runner: ReleaseRunner = { ...standInOnly, missingNeeds: async (_subject, version) => (version === "2.1.281" ? ["task-notification"] : []) };
    const outcome = await runAtlas({ ...base(out, runner), reuse: [reuse] });
    expect(ran).toContain("2.1.281");
    expect(outcome.reused).toBe(0);
    expect(readAtlasFile(out).entries[0]!.cells.find((c) => c.version === "2.1.281")!.runs.every((r) => !r.reused)).toBe(true);
  });

  it("with recheck, judges the cells already there again from their run directories, and says which state changed", async () => {
    // A cell an older check judged GREEN, whose run (the recorded 2.1.281 fixture) today's check calls RED.
    const out = tmp();
    const dir = path.join(out, "runs", "run-2.1.281");
    fs.cpSync(path.dirname(FIXTURE), dir, { recursive: true });
    const run = { dir: "runs/run-2.1.281", verdict: "GREEN" as const, red: [], reused: false, wallMs: 1 };
    const cell = { version: "2.1.281", verdict: "GREEN" as const, red: [], flaky: false, label: "GREEN", reason: "an older check", why: "sample" as const, runs: [run] };
    const entry = withCells({ scenario: scenario.name, params: scenario.params.parse({}), driver: "headless", sdk: null, versions: ["2.1.281"], stride: 4, repeat: 1, cells: [], intervals: [], boundaries: [], verify: { ran: [], disagreed: [] }, runs: 1, reused: 0, complete: true }, new Map([["2.1.281", cell]]));
    writeAtlasFile(out, { kind: "atlas", entries: [entry], startedAt: "2026-12-07T00:00:00.000Z", updatedAt: "2026-12-07T00:00:00.000Z" });
    const { runner, ran } = standIn(out);
    const options = { ...base(out, runner), versions: ["2.1.281"] };

    await runAtlas(options);
    expect(readAtlasFile(out).entries[0]!.cells[0]).toMatchObject({ verdict: "GREEN" });
    const outcome = await runAtlas({ ...options, recheck: true });
    expect(ran).toEqual([]);
    const [again] = readAtlasFile(out).entries[0]!.cells;
    expect(again).toMatchObject({ version: "2.1.281", verdict: "RED", red: ["notification-changed"], why: "sample" });
    expect(again!.runs).toEqual([expect.objectContaining({ dir: "runs/run-2.1.281", verdict: "RED", red: ["notification-changed"] })]);
    expect(outcome.changes).toContainEqual(expect.objectContaining({ kind: "state-changed", release: "2.1.281", before: "GREEN", after: "RED notification-changed" }));
  });

  // nested-subagent-reply-routed's shape: up to 2.1.283 each run is RED with one of two findings or GREEN, by chance;
  // from 2.1.284 every run is GREEN. Each release's runs follow its own list, in turn.
  const FLAKY_RUNS: Record<string, string[]> = {
    "2.1.250": ["child-lost"],
    "2.1.251": ["GREEN", "reply-lost"],
    "2.1.259": ["GREEN", "GREEN", "child-lost"],
    "2.1.270": ["reply-lost", "GREEN"],
    "2.1.281": ["GREEN", "child-lost"],
    "2.1.283": ["reply-lost"],
    // No RED, one GREEN and one run that judged nothing (nested on 2.1.198, 2026-12-07).
    "2.1.290": ["GREEN", "INCONCLUSIVE"],
  };
  const flakyRunner = (out: string) => {
    const calls = new Map<string, number>();
    return standInRunner(out, (version) => {
      const n = calls.get(version) ?? 0;
      calls.set(version, n + 1);
      const list = FLAKY_RUNS[version] ?? ["GREEN"];
      const next = list[n % list.length]!;
      return next === "GREEN" ? GREEN_RESULT : next === "INCONCLUSIVE" ? { ...GREEN_RESULT, verdict: "INCONCLUSIVE" as const, reason: "not reached" } : redWith(next);
    });
  };

  it("with --until-red, runs a release until a run is RED (up to N while all are GREEN) and draws only where the bug stops", async () => {
    const exact = tmp();
    await runAtlas({ ...base(exact, flakyRunner(exact).runner), stride: 2, repeat: 2 });
    // Compared by rate and finding, the chance draws split the flaky stretch into boundaries that are not there.
    expect(readAtlasFile(exact).entries[0]!.boundaries.length).toBeGreaterThan(1);

    const out = tmp();
    const { runner, ran } = flakyRunner(out);
    await runAtlas({ ...base(out, runner), stride: 2, repeat: 1, untilRed: 4 });
    const entry = readAtlasFile(out).entries[0]!;
    expect(entry.untilRed).toBe(4);
    expect(entry.intervals.map((i) => `${i.first}-${i.last} ${i.state}`)).toEqual(["2.1.250-2.1.283 RED (any run)", "2.1.284-2.1.284 GREEN", "2.1.290-2.1.290 INCONCLUSIVE"]);
    expect(entry.boundaries.map((b) => `${b.before}→${b.after} ${b.from} → ${b.to}`)).toEqual(["2.1.283→2.1.284 RED (any run) → GREEN"]);
    // Neither a RED run nor N GREEN ones: it judged nothing, and bounds nothing.
    expect(entry.cells.find((c) => c.version === "2.1.290")).toMatchObject({ verdict: "INCONCLUSIVE", flaky: false, label: "INCONCLUSIVE (GREEN 1/2)" });
    const cell = (v: string) => entry.cells.find((c) => c.version === v)!;
    // 2.1.259 was GREEN twice before its RED run; its label keeps the rate and its red list the finding.
    expect(cell("2.1.259")).toMatchObject({ verdict: "RED", label: "RED 1/3", red: ["child-lost"], flaky: true });
    expect(cell("2.1.259").runs.map((r) => r.verdict)).toEqual(["GREEN", "GREEN", "RED"]);
    expect(cell("2.1.284").runs.map((r) => r.verdict)).toEqual(["GREEN", "GREEN", "GREEN", "GREEN"]);
    expect(ran.filter((v) => v === "2.1.250")).toEqual(["2.1.250"]);
  });

  it("measures again a cell with fewer runs than --until-red wants; one with a RED run stands", async () => {
    const out = tmp();
    const first = flakyRunner(out);
    await runAtlas({ ...base(out, first.runner), stride: 2, repeat: 1 });
    const greenOnce = readAtlasFile(out).entries[0]!.cells.filter((c) => c.verdict === "GREEN" && c.runs.length === 1).map((c) => c.version);
    expect(greenOnce).toContain("2.1.284");
    const second = flakyRunner(out);
    await runAtlas({ ...base(out, second.runner), stride: 2, repeat: 1, untilRed: 3 });
    const cells = readAtlasFile(out).entries[0]!.cells;
    expect(cells.find((c) => c.version === "2.1.284")!.runs).toHaveLength(3);
    expect(second.ran).not.toContain("2.1.250");
  });

  // subagent-background-task-notified judged RED never-notified on 1.0.72–2.0.76, releases with no task notifications
  // at all, until it declared that it needs them: a recheck measures such cells again, and the probe says UNSUPPORTED.
  it("with recheck, measures again a cell of a release that lacks what the scenario needs today", async () => {
    // A RED cell whose run (the recorded 2.1.281 fixture) re-checks RED: only today's needs can make it UNSUPPORTED.
    const out = tmp();
    fs.cpSync(path.dirname(FIXTURE), path.join(out, "runs", "run-2.1.281"), { recursive: true });
    const run = { dir: "runs/run-2.1.281", verdict: "RED" as const, red: ["notification-changed"], reused: false, wallMs: 1 };
    const cell = { version: "2.1.281", verdict: "RED" as const, red: ["notification-changed"], flaky: false, label: "RED", reason: "recorded", why: "sample" as const, runs: [run] };
    const entry = withCells({ scenario: scenario.name, params: scenario.params.parse({}), driver: "headless", sdk: null, versions: ["2.1.281"], stride: 4, repeat: 1, cells: [], intervals: [], boundaries: [], verify: { ran: [], disagreed: [] }, runs: 1, reused: 0, complete: true }, new Map([["2.1.281", cell]]));
    writeAtlasFile(out, { kind: "atlas", entries: [entry], startedAt: "2026-12-07T00:00:00.000Z", updatedAt: "2026-12-07T00:00:00.000Z" });
    const unsupported: CheckResult = { verdict: "UNSUPPORTED", reason: "needs `<task-notification>` messages to the model, which this release lacks", findings: [], notes: [] };
    const { runner: standInOnly, ran } = standInRunner(out, () => unsupported);
    const runner: ReleaseRunner = { ...standInOnly, missingNeeds: async () => ["task-notification"] };
    await runAtlas({ ...base(out, runner), versions: ["2.1.281"], recheck: true });
    expect(ran).toEqual(["2.1.281"]);
    expect(readAtlasFile(out).entries[0]!.cells.map((c) => `${c.version} ${c.verdict}`)).toEqual(["2.1.281 UNSUPPORTED"]);
  });

  it("refuses an atlas.json that does not match the schema, naming the field", () => {
    const out = tmp();
    fs.writeFileSync(path.join(out, ATLAS_FILE), JSON.stringify({ kind: "atlas", entries: [{ scenario: "x" }], startedAt: "", updatedAt: "" }));
    expect(() => readAtlasFile(out)).toThrow(UserError);
    expect(() => readAtlasFile(out)).toThrow(/entries\.0\.params/);
  });

  it("keeps one writer per folder: a second atlas into a folder a live one writes refuses and runs nothing (fault battery)", async () => {
    const out = tmp();
    let second: Promise<unknown> | null = null;
    const other = standIn(out);
    const { runner: slow } = standInRunner(out, notificationTable, {
      afterRun: (count) => {
        if (count === 1) second = runAtlas(base(out, other.runner));
      },
    });
    const first = runAtlas(base(out, slow));
    await first;
    await expect(second).rejects.toThrow(`${out} is being written by pid ${process.pid} (ccrepro atlas, since `);
    expect(other.ran).toEqual([]);
    expect(readAtlasFile(out).entries[0]!.complete).toBe(true);
  });
});

// Issue 45, item 3: --jobs J measures J releases of a scenario at once; one that runs alone has nothing beside it;
// the boundaries and intervals are those of one at a time.
describe("runAtlas --jobs", () => {
  const alone = findScenario("background-mid-turn")!;
  const subjects = [
    { scenario, params: scenario.params.parse({}) },
    { scenario: alone, params: alone.params.parse({}) },
  ];
  // A runner whose runs take a few milliseconds, counting how many are under way when each starts.
  function countingRunner(outDir: string) {
    let active = 0;
    const seen: { scenario: string; beside: number }[] = [];
    const runner: ReleaseRunner = {
      async prefetch(version) {
        return { version, sha256: `sha-${version}`, fetchMs: 0, downloadedBytes: 0, fromCache: true } as never;
      },
      async run(subject, version) {
        active += 1;
        seen.push({ scenario: subject.scenario.name, beside: active - 1 });
        await new Promise((resolve) => setTimeout(resolve, 5));
        const runDir = path.join(outDir, "runs", `run-${subject.scenario.name}-${version}`);
        fs.mkdirSync(runDir, { recursive: true });
        active -= 1;
        return { installed: true, runDir, record: { result: notificationTable(version) } } as never;
      },
    };
    return { runner, seen };
  }
  const statesOf = (out: string) =>
    readAtlasFile(out).entries.map((e) => [e.scenario, e.complete, e.intervals.map((i) => `${i.first}-${i.last} ${i.state}`), e.boundaries.map((b) => `${b.before}→${b.after}`)]);

  it("runs two releases at once, the scenario that runs alone one at a time, and finds the same boundaries as --jobs 1", async () => {
    const serialOut = tmp();
    const serial = countingRunner(serialOut);
    await runAtlas({ ...base(serialOut, serial.runner), subjects });
    expect(Math.max(...serial.seen.map((r) => r.beside))).toBe(0);
    const out = tmp();
    const { runner, seen } = countingRunner(out);
    const outcome = await runAtlas({ ...base(out, runner), subjects, jobs: 2 });
    expect(outcome.interrupted).toBe(false);
    expect(Math.max(...seen.filter((r) => r.scenario === scenario.name).map((r) => r.beside))).toBe(1);
    expect(seen.filter((r) => r.scenario === alone.name).every((r) => r.beside === 0)).toBe(true);
    expect(statesOf(out)).toEqual(statesOf(serialOut));
    expect(readAtlasFile(out).entries.every((e) => e.complete)).toBe(true);
  });
});
