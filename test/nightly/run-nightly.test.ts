// runNightly with recorded outcomes in place of claude: concurrency, repeats, failures, interruption and progress.
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Verdict } from "../../core/verdict.ts";
import { UserError } from "../../core/errors.ts";
import { parseNightlyConfig, type NightlyConfig } from "../../nightly/config.ts";
import { formatCellFinished } from "../../nightly/progress.ts";
import type { CellRunner } from "../../nightly/run-cell.ts";
import { planMatrix } from "../../nightly/matrix.ts";
import { runNightly, type CellFinished } from "../../nightly/run-nightly.ts";
import { fixtureIndex, fixtureRunner, fixtureSummary, FIXTURE_DIR, tempDir } from "./fixture.ts";

const recorded = fixtureSummary();
const fixtureConfig = (over: Partial<NightlyConfig> = {}): NightlyConfig => ({ ...recorded.config!, ...over });
const verdicts = (cells: { key: string; verdict: Verdict; status: string }[]) => cells.map((c) => [c.key, c.verdict, c.status]);

describe("runNightly", () => {
  it("reproduces the recorded nightly's verdicts, statuses and exit code from its runs", async () => {
    const summary = await runNightly({ config: fixtureConfig(), outDir: tempDir("nightly"), previous: null, index: fixtureIndex(), runCell: fixtureRunner().runCell });
    expect(verdicts(summary.cells)).toEqual(verdicts(recorded.cells));
    // Sources rather than texts: the scenarios' known notes may be reworded without changing what is expected.
    expect(summary.cells.map((c) => [c.expectation.source, c.expectation.verdict, c.expectation.finding])).toEqual(recorded.cells.map((c) => [c.expectation.source, c.expectation.verdict, c.expectation.finding]));
    expect(summary).toMatchObject({ kind: "nightly", exitCode: 1, shard: null, totals: recorded.totals, changes: [] });
  });

  it("keeps at most `concurrency` cells running, and gives the same verdicts serially and in parallel", async () => {
    const serial = fixtureRunner(30);
    const parallel = fixtureRunner(30);
    const a = await runNightly({ config: fixtureConfig({ concurrency: 1 }), outDir: tempDir("serial"), previous: null, index: fixtureIndex(), runCell: serial.runCell });
    const b = await runNightly({ config: fixtureConfig({ concurrency: 3 }), outDir: tempDir("parallel"), previous: null, index: fixtureIndex(), runCell: parallel.runCell });
    expect(serial.maxActive()).toBe(1);
    expect(parallel.maxActive()).toBe(3);
    expect(verdicts(b.cells)).toEqual(verdicts(a.cells));
  });

  it("runs each cell `repeats` times and records every run directory relative to the nightly", async () => {
    const outDir = tempDir("repeats");
    const runner = fixtureRunner();
    const summary = await runNightly({ config: fixtureConfig({ repeats: 2 }), outDir, previous: null, index: fixtureIndex(), runCell: runner.runCell });
    expect(runner.calls).toHaveLength(8);
    for (const cell of summary.cells) {
      expect(cell.runs).toHaveLength(2);
      expect(path.resolve(outDir, cell.runs[0]!.dir!)).toBe(path.resolve(FIXTURE_DIR, recorded.cells.find((c) => c.key === cell.key)!.runs[0]!.dir!));
    }
  });

  it("makes a cell whose repeats disagree flaky", async () => {
    let n = 0;
    const base = fixtureRunner();
    const alternating: CellRunner = async (task) => {
      const outcome = await base.runCell(task);
      n += 1;
      return n % 2 === 0 && task.cell.key.startsWith("subagent") ? { ...outcome, result: { ...outcome.result, verdict: "INCONCLUSIVE", findings: [] } } : outcome;
    };
    const summary = await runNightly({ config: fixtureConfig({ repeats: 2, concurrency: 1 }), outDir: tempDir("flaky"), previous: null, index: fixtureIndex(), runCell: alternating });
    const header = summary.cells.filter((c) => c.scenario === "subagent-resume-notification-header");
    expect(header.map((c) => [c.verdict, c.flaky])).toEqual([
      ["INCONCLUSIVE", true],
      ["INCONCLUSIVE", true],
    ]);
    expect(summary.totals.flaky).toBe(2);
  });

  it("turns a failing cell into that cell's ERROR and exits 3, while the others still run", async () => {
    const base = fixtureRunner();
    const failing: CellRunner = (task) => {
      if (task.cell.version === "2.1.281" && task.cell.scenario === "subagent-resume-notification-header") throw new UserError("Could not fetch the release: offline", "INSTALL_FAILED");
      if (task.cell.version === "2.1.332" && task.cell.scenario === "subagent-resume-notification-header") return Promise.reject(new TypeError("boom"));
      return base.runCell(task);
    };
    const summary = await runNightly({ config: fixtureConfig(), outDir: tempDir("errors"), previous: null, index: fixtureIndex(), runCell: failing });
    const header = summary.cells.filter((c) => c.scenario === "subagent-resume-notification-header");
    expect(header.map((c) => [c.verdict, c.status])).toEqual([
      ["ERROR", "error"],
      ["ERROR", "error"],
    ]);
    expect(header[0]!.reason).toBe("Could not fetch the release: offline");
    expect(header[1]!.reason).toMatch(/^the cell runner failed: TypeError: boom/);
    expect(header[0]!.runs[0]!.dir).toBeNull();
    expect(summary.cells.filter((c) => c.verdict === "RED")).toHaveLength(2);
    expect(summary.exitCode).toBe(3);
  });

  it("records cells not started after an interruption as not run", async () => {
    const abort = new AbortController();
    const base = fixtureRunner(20);
    const runCell: CellRunner = async (task) => {
      const outcome = await base.runCell(task);
      abort.abort();
      return outcome;
    };
    const summary = await runNightly({ config: fixtureConfig({ concurrency: 1 }), outDir: tempDir("abort"), previous: null, index: fixtureIndex(), runCell, signal: abort.signal });
    expect(base.calls).toHaveLength(1);
    expect(summary.cells.filter((c) => c.reason === "not run: the nightly was interrupted")).toHaveLength(3);
    expect(summary.exitCode).toBe(3);
  });

  it("reports the plan once and each finished cell with the running tally", async () => {
    const planned: unknown[] = [];
    const finished: CellFinished[] = [];
    await runNightly({
      config: fixtureConfig(),
      outDir: tempDir("progress"),
      previous: null,
      index: fixtureIndex(),
      runCell: fixtureRunner().runCell,
      onPlanned: (p) => planned.push(p),
      onCell: (f) => finished.push(f),
    });
    expect(planned).toEqual([{ cells: 4, runs: 4, versions: ["2.1.281", "2.1.332"], concurrency: 2 }]);
    expect(finished.map((f) => [f.done, f.total, f.totals.cells])).toEqual([
      [1, 4, 1],
      [2, 4, 2],
      [3, 4, 3],
      [4, 4, 4],
    ]);
    const last = finished.at(-1)!;
    expect(last.totals).toMatchObject({ GREEN: 1, RED: 3, unexpected: 1 });
    expect(formatCellFinished(last)).toMatch(/^\[4\/4\] (RED|GREEN)\s+(expected|unexpected)\s+\d+\.\ds {2}\S+@2\.1\.\d+ {2}— so far 1 GREEN, 3 RED, 0 INCONCLUSIVE, 0 ERROR; 1 unexpected$/);
  });

  it("compares with the previous nightly and runs the releases published since it", async () => {
    const previous = { summary: { ...recorded, startedAt: "2026-11-01T00:00:00.000Z" }, path: "/prev/summary.json" };
    const config = parseNightlyConfig({ scenarios: ["subagent-resume-notification-header"], versions: ["2.1.281", "since:previous"] }, "test.json");
    const summary = await runNightly({ config, outDir: tempDir("since"), previous, index: fixtureIndex(), runCell: fixtureRunner().runCell });
    expect(summary.versionWords).toEqual([
      { word: "2.1.281", versions: ["2.1.281"] },
      { word: "since:previous", versions: ["2.1.332"] },
    ]);
    expect(summary.previous).toEqual({ path: "/prev/summary.json", startedAt: "2026-11-01T00:00:00.000Z" });
    expect(summary.changes).toEqual([{ kind: "new-release", version: "2.1.332", publishedAt: "2026-11-24T22:06:38.000Z" }]);
    expect(summary.exitCode).toBe(0);
  });
  it("runs a scenario that runs alone after the other cells, with nothing beside its runs", async () => {
    // background-mid-turn is marked runsAlone; the fixture's two scenarios are not. Stand-in runs of 10 ms.
    const log: { key: string; event: "start" | "end"; active: number }[] = [];
    let active = 0;
    const runCell: CellRunner = async ({ cell }) => {
      active += 1;
      log.push({ key: cell.key, event: "start", active });
      await new Promise((r) => setTimeout(r, 10));
      active -= 1;
      log.push({ key: cell.key, event: "end", active });
      return { runDir: null, result: { verdict: "GREEN", reason: "stand-in", findings: [], notes: [] }, wallMs: 10 };
    };
    const config = fixtureConfig({ scenarios: [...recorded.config!.scenarios!, "background-mid-turn"], concurrency: 3, repeats: 2 });
    const summary = await runNightly({ config, outDir: tempDir("alone"), previous: null, index: fixtureIndex(), runCell });
    const aloneKey = (key: string) => key.startsWith("background-mid-turn@");
    expect(summary.cells.filter((c) => aloneKey(c.key))).toHaveLength(2);
    // The others went three at a time; every run of the lone scenario started with nothing else running, and the
    // first of them after every other cell's last run.
    expect(Math.max(...log.filter((e) => !aloneKey(e.key)).map((e) => e.active))).toBe(3);
    const aloneStarts = log.filter((e) => aloneKey(e.key) && e.event === "start");
    expect(aloneStarts).toHaveLength(4);
    expect(aloneStarts.every((e) => e.active === 1)).toBe(true);
    const firstAlone = log.findIndex((e) => aloneKey(e.key));
    expect(log.slice(firstAlone).every((e) => aloneKey(e.key))).toBe(true);
    // The summary keeps the planned order of cells.
    expect(summary.cells.map((c) => c.key)).toEqual(planMatrix(config, fixtureIndex(), null).cells.map((c) => c.key));
    expect(aloneKey(summary.cells[0]!.key)).toBe(true);
  });
});
