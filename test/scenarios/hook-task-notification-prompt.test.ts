// hook-task-notification-prompt's check on runs recorded from real releases (test/fixtures/hooks/README.md), each
// judged in the cell it was recorded in and in the other one: a run whose notification landed elsewhere than asked
// says nothing about the asked-for cell.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";

const scenario = findScenario("hook-task-notification-prompt")!;
const fixture = (name: string) => path.join(import.meta.dirname, "..", "fixtures", "hooks", name);
const check = (name: string, when: string) => scenario.check(loadRecordings(fixture(name)), scenario.params.parse({ when }));
const ids = (findings: { id: string; red: boolean }[]) => findings.map((f) => [f.id, f.red]);

describe("hook-task-notification-prompt's check", () => {
  it("2.1.281 mid-turn, asked mid-turn: RED synthetic-prompt-indistinguishable, prompt-id-reused informational", () => {
    const result = check("2.1.281-mid-turn", "mid-turn");
    expect(result.verdict).toBe("RED");
    expect(ids(result.findings)).toEqual([
      ["synthetic-prompt-indistinguishable", true],
      ["prompt-id-reused", false],
    ]);
  });

  it("2.1.234 after-turn, asked after-turn: RED synthetic-prompt-indistinguishable", () => {
    const result = check("2.1.234-after-turn", "after-turn");
    expect(result.verdict).toBe("RED");
    expect(ids(result.findings)).toEqual([["synthetic-prompt-indistinguishable", true]]);
  });

  it("2.1.234 mid-turn, asked mid-turn: GREEN, no hook saw the absorbed notification", () => {
    const result = check("2.1.234-mid-turn", "mid-turn");
    expect(result.verdict).toBe("GREEN");
    expect(result.findings).toEqual([]);
  });

  it("INCONCLUSIVE, its findings informational, when the notification landed in the other cell than asked", () => {
    const afterAsMid = check("2.1.234-after-turn", "mid-turn");
    expect(afterAsMid.verdict).toBe("INCONCLUSIVE");
    expect(afterAsMid.reason).toBe("the notification was delivered after-turn, not mid-turn as asked");
    expect(ids(afterAsMid.findings)).toEqual([["synthetic-prompt-indistinguishable", false]]);

    const midAsAfter = check("2.1.281-mid-turn", "after-turn");
    expect(midAsAfter.verdict).toBe("INCONCLUSIVE");
    expect(midAsAfter.reason).toBe("the notification was delivered mid-turn, not after-turn as asked");
    expect(ids(midAsAfter.findings)).toEqual([
      ["synthetic-prompt-indistinguishable", false],
      ["prompt-id-reused", false],
    ]);
  });

  // The one mutant of the check left by the whole mutation run (2026-12-06) is equivalent: out of the asked-for cell
  // `redIds` is `[]`, and the mutant's `["Stryker was here"]` is a list no real finding id can match, so every
  // finding stays informational either way.
});

