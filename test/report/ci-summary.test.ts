// What a CI job shows of a nightly: each cell's place and label (what fails first, new REDs first of all), the step
// outputs, which runs are packed, and links only where they are web addresses; and the job names init ci gives.
import { describe, expect, it } from "vitest";
import { workflowScenarios } from "../../cli/ci-workflow.ts";
import type { Cell } from "../../nightly/summary.ts";
import { cellsForCi, ciOutputs, packPathOf, renderCiSummary, runsToPack } from "../../report/ci-summary.ts";
import { cellAfter, result, summaryOf } from "../nightly/cell-fixtures.ts";

// Each run gets a directory named after its release, as a nightly's runs/ has them.
const withDirs = (cell: Cell): Cell => ({ ...cell, runs: cell.runs.map((run, i) => ({ ...run, dir: `runs/${cell.version}-${i}` })) });

// Last night, and tonight: one cell of each standing (the ledger expects RED, finding a, on >=2.1.300).
const lastNight = [cellAfter([], "2.1.290", result("RED", "a")), cellAfter([], "2.1.285", result("RED", "a"))];
const held = cellAfter([], "2.1.285", result("RED", "a"));
const previous = summaryOf([...lastNight, cellAfter([], "2.1.310", result("RED", "a")), cellAfter([], "2.1.320", result("RED", "a"))], "2026-10-31T00:00:00.000Z");
const tonight = [
  cellAfter([], "2.1.282", result("GREEN")), // as expected
  cellAfter([], "2.1.320", result("RED", "a")), // known RED (the config)
  cellAfter([held], "2.1.285", result("RED", "a")), // RED held by the previous nightly
  cellAfter([], "2.1.295", result("ERROR")), // harness error
  cellAfter([], "2.1.310", result("RED", "a", "b")), // findings changed
  cellAfter([], "2.1.300", result("GREEN")), // GREEN where the config says RED
  cellAfter(lastNight, "2.1.290", result("GREEN")), // GREEN that was RED last night
  cellAfter([], "2.1.281", result("RED", "a")), // new RED
].map(withDirs);
const summary = summaryOf(tonight, "2026-11-01T00:00:00.000Z", previous);

describe("the job summary's order and labels", () => {
  it("lists new REDs first, then what else fails, harness errors, held and known REDs, and the rest", () => {
    expect(cellsForCi(summary).map(({ cell, standing }) => [cell.version, standing.rank, standing.label])).toEqual([
      ["2.1.281", 0, "❌ new RED"],
      ["2.1.310", 1, "❌ finding changed"],
      ["2.1.300", 1, "❌ GREEN that was RED: fails every night until the nightly config's expectation for >=2.1.300 leaves this release out"],
      ["2.1.290", 1, "❌ GREEN that was RED: fails tonight only, expected GREEN from the next night on"],
      ["2.1.295", 2, "⚠️ harness error"],
      ["2.1.320", 3, "known RED"],
      ["2.1.285", 3, "RED, held by the previous nightly"],
      ["2.1.282", 4, "as expected"],
    ]);
  });

  it("says a scenario's known entry is what to change when it holds the RED", () => {
    const known = { ...tonight[5]!, expectation: { ...tonight[5]!.expectation, source: "scenario" as const, versions: ">=2.1.143 <2.1.281" } };
    expect(cellsForCi(summaryOf([known]))[0]!.standing.label).toBe("❌ GREEN that was RED: fails every night until the scenario's `known` entry for >=2.1.143 <2.1.281 leaves this release out");
  });

  it("counts new REDs among the outputs, apart from the RED cells held or known", () => {
    const outputs = ciOutputs(summary, "/out", ["packs/2.1.281-0.tar.gz"]);
    expect(outputs).toMatchObject({ cells: "8", red: "4", "new-red": "1", errors: "1", "nightly-exit-code": "3", packs: "1", junit: "/out/junit.xml" });
  });

  it("packs every run of a RED cell and of one that fails the job, not of a cell as expected", () => {
    expect(runsToPack(summary).sort()).toEqual(["2.1.281", "2.1.285", "2.1.290", "2.1.295", "2.1.300", "2.1.310", "2.1.320"].map((v) => `runs/${v}-0`));
    expect(packPathOf("runs/2.1.281-0")).toBe("packs/2.1.281-0.tar.gz");
  });
});

describe("links in the job summary", () => {
  const linked = { ...tonight[7]!, link: "https://github.com/anthropics/claude-code/issues/1" };
  const hostile = { ...tonight[0]!, link: "javascript:alert(1)" };
  const text = (url: string) => renderCiSummary(summaryOf([linked, hostile]), { name: "ccrepro-x", url }, ["packs/2.1.281-0.tar.gz"]);

  it("links a scenario's upstream report and the artefact only when they are web addresses", () => {
    const safe = text("https://github.com/u/r/actions/runs/1/artifacts/2");
    expect(safe).toContain("[resume-orphaned-background-task](https://github.com/anthropics/claude-code/issues/1)");
    expect(safe).toContain("[`runs/2.1.281-0`](https://github.com/u/r/actions/runs/1/artifacts/2) · pack `packs/2.1.281-0.tar.gz`");
    expect(safe).not.toContain("javascript:");
    const unsafe = text("javascript:alert(2)");
    expect(unsafe).not.toContain("javascript:");
    expect(unsafe).toContain("| `runs/2.1.282-0` |");
  });
});

describe("workflowScenarios", () => {
  it("names each job after its file, unique, in characters a job and an artefact may hold", () => {
    expect(workflowScenarios(["bug.ts", "sub/bug.ts", "other/bug.mts", "stop-hook-loop", "a b/c d.ts", "x/.ts"]).map((s) => s.name)).toEqual([
      "bug",
      "bug-2",
      "bug-3",
      "stop-hook-loop",
      "c-d",
      "scenario",
    ]);
  });
});
