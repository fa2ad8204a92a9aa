// A nightly that does not cry wolf: a matrix holding a known race (subagent-resume-notification-header on 2.1.281,
// scripted RED 8 in 10, GREEN otherwise, seeded) runs nightly after nightly; no nightly reports a change, and the
// report shows the rate. Without the confirmation runs, the same seeds raise alarms.
import { describe, expect, it } from "vitest";
import { finding } from "../../core/verdict.ts";
import type { NightlyConfig } from "../../nightly/config.ts";
import type { CellRunner } from "../../nightly/run-cell.ts";
import { runNightly } from "../../nightly/run-nightly.ts";
import type { Summary } from "../../nightly/summary.ts";
import { cellVerdictText } from "../../report/wording.ts";
import { seeded } from "../bisect/flaky-sim.ts";
import { fixtureIndex, fixtureRunner, fixtureSummary, tempDir } from "./fixture.ts";

const RACE = "subagent-resume-notification-header@2.1.281";
const recorded = fixtureSummary();

function config(confirmRuns: number): NightlyConfig {
  return {
    ...recorded.config!,
    concurrency: 1,
    confirmRuns,
    expectations: [
      ...recorded.config!.expectations,
      // The fixture's one unexpected cell, made expected so the only thing that could raise an alarm is the race.
      { scenario: "resume-orphaned-background-task", versions: "2.1.281", verdict: "RED", reason: "measured", finding: "prompt-settled-by-extra-result" },
      { scenario: "subagent-resume-notification-header", versions: "2.1.281", verdict: "RED", reason: "races: the notification is dropped in some runs", flaky: true },
    ],
  };
}

// The fixture's recorded answers, except the race: RED (as recorded) with probability 0.8, else GREEN.
function racingRunner(seed: number): CellRunner {
  const base = fixtureRunner().runCell;
  const rand = seeded(seed);
  return async (task) => {
    const run = await base(task);
    if (task.cell.key !== RACE || rand() < 0.8) return run;
    return { ...run, result: { verdict: "GREEN", reason: "reached its point and everything held", findings: [finding({ id: "notification-kept", red: false, title: "kept", where: "" })], notes: [] } };
  };
}

async function nightlies(count: number, confirmRuns: number, seed: number): Promise<Summary[]> {
  const out: Summary[] = [];
  for (let i = 0; i < count; i++) {
    const previous = out.length ? { summary: out.at(-1)!, path: "previous/summary.json" } : null;
    out.push(await runNightly({ config: config(confirmRuns), outDir: tempDir(`wolf-${i}`), previous, index: fixtureIndex(), runCell: racingRunner(seed * 31 + i) }));
  }
  return out;
}

describe("a nightly over a known race", () => {
  it("reports no change, eight nightlies in a row, and shows the race as a rate", async () => {
    const runs = await nightlies(8, 10, 1);
    for (const summary of runs) {
      expect(summary.changes.filter((c) => c.kind !== "new-release")).toEqual([]);
      expect(summary.exitCode).toBe(0);
      const race = summary.cells.find((c) => c.key === RACE)!;
      expect(race.status).toBe("expected");
      // A stable RED (all runs RED) is shown as RED; a flaky one with its rate.
      expect(cellVerdictText(race)).toMatch(race.flaky ? /^(RED|GREEN) \d+\/\d+ \(flaky\)$/ : /^RED/);
    }
    // The confirmation ran: at least one nightly saw a GREEN first and ran the cell again until it was settled.
    expect(runs.some((s) => (s.cells.find((c) => c.key === RACE)!.confirmRuns ?? 0) > 0)).toBe(true);
    // The other cells were never re-run: they agreed with the ledger and the previous nightly.
    for (const s of runs) for (const c of s.cells) if (c.key !== RACE) expect(c.runs).toHaveLength(1);
  });

  it("without confirmation runs the same race raises alarms", async () => {
    const runs = await nightlies(8, 0, 1);
    expect(runs.some((s) => s.exitCode !== 0)).toBe(true);
  });

  it("a real change is still reported: the race turns into GREEN 10/10", async () => {
    const [first] = await nightlies(1, 10, 1);
    const base = fixtureRunner().runCell;
    const fixed: CellRunner = async (task) => {
      const run = await base(task);
      return task.cell.key === RACE ? { ...run, result: { verdict: "GREEN", reason: "held", findings: [], notes: [] } } : run;
    };
    const after = await runNightly({ config: config(10), outDir: tempDir("wolf-fixed"), previous: { summary: first!, path: "p" }, index: fixtureIndex(), runCell: fixed });
    const race = after.cells.find((c) => c.key === RACE)!;
    expect(race).toMatchObject({ verdict: "GREEN", flaky: false, confirmRuns: 9, status: "unexpected" });
    expect(after.exitCode).toBe(1);
  });
});
