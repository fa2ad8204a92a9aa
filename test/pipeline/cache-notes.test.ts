// The cache audit's notes on every checked run, replayed from recorded fixtures (see test/fixtures/runs/README.md for
// how each was recorded): informational only, so the verdict and findings are the scenario's own.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { readRunRecord } from "../../harness/run-record.ts";
import { runLayout } from "../../harness/run-layout.ts";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { findScenario } from "../../scenarios/index.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/runs/${name}`, import.meta.url));

function scenarioOnly(dir: string) {
  const record = readRunRecord(runLayout(dir).runJson);
  const scenario = findScenario(record.scenario)!;
  return scenario.check(loadRecordings(dir), scenario.params.parse(record.params));
}

describe("cache notes on a checked run", () => {
  it("says what the subagent's resume costs in cache on 2.1.281 (the notification header flip), and keeps the verdict", () => {
    const dir = fixture("notification-changed-2.1.281");
    const own = scenarioOnly(dir);
    const checked = checkRecordedRun(dir, scenarioByName);
    expect(checked.verdict).toBe(own.verdict);
    expect(checked.findings).toEqual(own.findings);
    expect(checked.notes.slice(0, own.notes.length)).toEqual(own.notes);
    const added = checked.notes.slice(own.notes.length);
    expect(added).toContain(
      "cache: continuation 1 (sub, task notification): req 6 → req 8 costs ~2981 tokens: reads 12246 of 15227 readable (first difference messages[4].content[0], no-breakpoint-before-change)",
    );
    expect(added.some((note) => /^cache \(sub\): 2 request\(s\)/.test(note))).toBe(true);
  });

  it("on 2.1.332, where the header stays put, the resume reads all it could", () => {
    const checked = checkRecordedRun(fixture("notification-green-2.1.332"), scenarioByName);
    expect(checked.verdict).toBe("GREEN");
    expect(checked.notes.some((note) => /^cache: continuation 1 \(sub, task notification\): req \d+ → req \d+ reads all \d+ readable tokens$/.test(note))).toBe(true);
  });

  it("a run with no request bodies gets a note that nothing was replayed, not an error", () => {
    const checked = checkRecordedRun(fixture("orphan-red-2.1.332"), scenarioByName);
    expect(checked.verdict).toBe("RED");
    expect(checked.notes.some((note) => note.startsWith("cache: ") && note.includes("not recorded"))).toBe(true);
  });
});
