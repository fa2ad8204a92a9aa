// How bench splits a `ccrepro run` process it timed from outside into its parts.
import { describe, expect, it } from "vitest";
import { partsOf, verdictLines, type RunParts } from "../../cli/commands/bench.ts";
import { readPhases } from "../../core/phases.ts";

describe("bench's parts of a run", () => {
  it("reads the first time of each mark and skips what is not a mark", () => {
    expect(readPhases("node-start 1000\ncommand-loaded 1100.5\nbroken\ncommand-loaded 1200\n")).toEqual(
      new Map([
        ["node-start", 1000],
        ["command-loaded", 1100.5],
      ]),
    );
  });

  it("measures start-up and the claude spawn from the outside spawn, exit from the printed verdict to the reaping", () => {
    const run: RunParts = {
      whole: { wallMs: 10_000, cpuMs: 2000, startedAt: 0, endedAt: 10_000, code: 0, stdout: "" },
      marks: readPhases("command-loaded 300\nscenario-loaded 320\nrelease-resolved 330\nprinted 9950\n"),
      record: { startedAt: 340, wallMs: 9500, floorMs: 9000, checkMs: 100, result: null },
      firstSpawn: 400,
      firstRequest: 1400,
    };
    expect(partsOf(run)).toEqual({
      startup: 300,
      scenarioLoad: 20,
      resolution: 10,
      recorder: 9500,
      check: 100,
      exit: 50,
      toSpawn: 400,
      claudeStartup: 1000,
      beforeRecorder: 10,
      afterCheck: 10,
    });
  });

  it("gives the runs' verdicts as a rate, as run --repeat does", async () => {
    const run = (verdict: "GREEN" | "RED" | "ERROR", finding?: string) => ({ verdict, reason: verdict, notes: [], findings: finding ? [{ id: finding, red: true, title: finding, where: "", detail: [], data: {} }] : [] });
    const flaky = await verdictLines([run("RED", "notification-dropped"), run("GREEN"), run("RED", "notification-dropped")]);
    expect(flaky[0]).toBe("repeats: RED, GREEN, RED → flaky, RED 2/3");
    expect(flaky).toContain("  finding notification-dropped 2/3 (95% CI 21%–94%)");
    expect((await verdictLines([run("GREEN"), run("GREEN")]))[0]).toBe("repeats: GREEN, GREEN → GREEN");
    // One ERROR among them makes the whole ERROR, and the line says which run it was.
    expect((await verdictLines([run("GREEN"), run("ERROR")]))[0]).toBe("repeats: GREEN, ERROR → ERROR");
  });
});
