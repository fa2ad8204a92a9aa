// Which recorded runs ask the same question: run directories found recursively, matched field by field.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readRunRecord, writeRunRecord, type RunRecord } from "../../harness/run-record.ts";
import { findRunDirs, matchingRuns } from "../../pipeline/run-match.ts";
import { paramsOf, sameParams } from "../../kit/scenario-params.ts";
import type { Driver } from "../../kit/scenario.ts";
import { planFingerprint } from "../../harness/plan.ts";
import { runPlanOf } from "../../pipeline/run-plan.ts";
import { loadScenario, originOf } from "../../pipeline/scenario-source.ts";
import { findScenario } from "../../scenarios/index.ts";

const FIXTURE = path.join(import.meta.dirname, "..", "fixtures", "nightly", "recorded", "runs", "20261130T162129Z-resume-orphaned-background-task-2.1.281-496d36", "run.json");
const base = readRunRecord(FIXTURE);
const scenario = findScenario("resume-orphaned-background-task")!;
const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-run-match-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

// The fingerprint a run of the fixture's question makes today (the fixture was recorded before fingerprints).
const plan = (driver: Driver) => planFingerprint(runPlanOf(scenario, paramsOf(scenario, base.params, "the fixture"), driver));

// A run directory holding only run.json: the fixture's record, with today's plan, and `change` on top.
function runDir(rel: string, change: (r: RunRecord) => RunRecord = (r) => r): string {
  const dir = path.join(root, rel);
  fs.mkdirSync(dir, { recursive: true });
  writeRunRecord(path.join(dir, "run.json"), change({ ...base, driver: "headless", planSha256: plan("headless") }));
  return dir;
}

describe("sameParams", () => {
  it("compares what the scenario's schema makes of the values, not their spelling", () => {
    expect(sameParams(scenario, { grace: "1000" }, { grace: 1000 })).toBe(true);
    expect(sameParams(scenario, {}, { stop: "sigkill", grace: 4000 })).toBe(true);
    expect(sameParams(scenario, { background: "false" }, { background: false })).toBe(true);
    expect(sameParams(scenario, { grace: 1000 }, { grace: 1001 })).toBe(false);
    // A value the schema refuses is no question at all.
    expect(sameParams(scenario, { stop: "nope" }, { stop: "nope" })).toBe(false);
  });
});

describe("findRunDirs / matchingRuns", () => {
  const params = { ...base.params, grace: "1000" };
  const question = { scenario, params, driver: "headless" };
  const set = path.join(root, "set");
  const good = runDir("set/a/sweep/good");
  const later = runDir("set/b/later", (r) => ({ ...r, startedAt: "2099-01-01T00:00:00.000Z" }));
  runDir("set/other-scenario", (r) => ({ ...r, scenario: "background-mid-turn" }));
  runDir("set/other-params", (r) => ({ ...r, params: { ...r.params, stop: "sigterm" } }));
  runDir("set/other-driver", (r) => ({ ...r, driver: "sdk" }));
  runDir("set/error", (r) => ({ ...r, result: { ...r.result!, verdict: "ERROR" } }));
  runDir("set/unjudged", (r) => ({ ...r, result: null }));
  runDir("set/cut-short", (r) => ({ ...r, recordingComplete: false }));
  fs.mkdirSync(path.join(set, "broken"), { recursive: true });
  fs.writeFileSync(path.join(set, "broken", "run.json"), "{ not json");

  it("finds run directories at any depth, the root itself too, and does not look inside one", () => {
    const dirs = findRunDirs(set);
    expect(dirs).toContain(good);
    expect(dirs).toHaveLength(9);
    expect(findRunDirs(good)).toEqual([good]);
    expect(findRunDirs(path.join(root, "no-such-dir"))).toEqual([]);
  });

  it("keeps only judged, complete, non-ERROR runs of the same scenario, parameters and driver, oldest first", () => {
    const { scanned, matches } = matchingRuns([set], question);
    expect(scanned).toBe(9);
    expect(matches.map((m) => m.runDir)).toEqual([good, later]);
    expect(matches[0]).toMatchObject({ version: "2.1.281", sha256: base.claude.sha256, result: { verdict: "RED" } });
  });

  it("a run of another plan (a reply, a step's limit changed since) or one recorded before plans were, is another question", () => {
    runDir("plans/other-plan", (r) => ({ ...r, planSha256: "0".repeat(64) }));
    runDir("plans/before-plans", ({ planSha256: _none, ...r }) => r);
    const same = runDir("plans/same");
    expect(matchingRuns([path.join(root, "plans")], question).matches.map((m) => m.runDir)).toEqual([same]);
    // The fingerprint is what the run does: a longer limit is another plan, the same scenario again is the same.
    const today = runPlanOf(scenario, paramsOf(scenario, base.params, "the fixture"), "headless");
    expect(planFingerprint({ ...today, timeoutMs: today.timeoutMs + 1 })).not.toBe(plan("headless"));
    expect(planFingerprint(today)).toBe(plan("headless"));
  });

  it("a directory given twice (or inside another given one) counts once", () => {
    expect(matchingRuns([set, good], question).matches).toHaveLength(2);
  });

  it("a run recorded before the scenario gained a parameter is not taken for a run at that parameter's default", () => {
    const { promptDelay: _gained, ...before } = base.params as Record<string, unknown>;
    runDir("older/before-prompt-delay", (r) => ({ ...r, params: before }));
    // The same record with the parameter written out matches: only the missing name keeps the older one out.
    const same = runDir("older/with-prompt-delay");
    expect(matchingRuns([path.join(root, "older")], question).matches.map((m) => m.runDir)).toEqual([same]);
  });

  it("the sdk driver also needs the same Agent SDK release", () => {
    const dir = runDir("sdk/one", (r) => ({ ...r, driver: "sdk", sdk: { requested: "0.3.197", version: "0.3.197" }, planSha256: plan("sdk") }));
    expect(matchingRuns([dir], { ...question, driver: "sdk", sdkVersion: "0.3.197" }).matches).toHaveLength(1);
    expect(matchingRuns([dir], { ...question, driver: "sdk", sdkVersion: "0.3.150" }).matches).toHaveLength(0);
  });

  it("a file scenario matches only runs of the same file contents (its sha256)", async () => {
    const file = await loadScenario(path.join(import.meta.dirname, "..", "..", "examples", "my-bug.ts"));
    const origin = originOf(file);
    if (origin.kind !== "file") throw new Error("expected a file scenario");
    const as = (sha256: string) => (r: RunRecord): RunRecord => ({ ...r, scenario: file.name, params: {}, source: { kind: "file", path: origin.path, sha256, copy: "scenario/my-bug.ts" }, planSha256: planFingerprint(runPlanOf(file, {}, "headless")) });
    const same = runDir("file/same", as(origin.sha256));
    runDir("file/edited", as("0".repeat(64)));
    const { matches } = matchingRuns([path.join(root, "file")], { scenario: file, params: {}, driver: "headless" });
    expect(matches.map((m) => m.runDir)).toEqual([same]);
  });
});
