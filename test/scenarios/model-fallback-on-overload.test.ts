// model-fallback-on-overload's check on runs recorded from real releases (test/fixtures/runs/README.md): 2.1.332 with
// the main model overloaded (529) falls back to --fallback-model on each turn (GREEN); 2.0.0 with the main model not
// found (404, #8413's trigger) never asks the fallback (RED). Edited copies give a model nobody asked for, a switch that
// sticks, and the runs that never reached the point.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editBody, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("model-fallback-on-overload")!;
const GREEN_RUN = "fallback-529-green-2.1.332";
const RED_RUN = "fallback-404-unused-2.0.0";

function check(dir: string, params: Record<string, unknown> = {}) {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id) };
}
const setModel = (dir: string, seqs: number[], model: string) => seqs.forEach((seq) => editBody(dir, seq, (body) => void (body.model = model)));

describe("model-fallback-on-overload's check on recorded runs", () => {
  it("2.1.332, 529 for the main model: GREEN, three tries then the fallback, on both turns", () => {
    const green = check(recordedRun(GREEN_RUN));
    expect(green.verdict).toBe("GREEN");
    expect(green.ids).toEqual([]);
    expect(green.notes).toEqual([
      "models: #1 step 0 claude-opus-4-5 (529), #2 step 0 claude-opus-4-5 (529), #3 step 0 claude-opus-4-5 (529), #4 step 0 claude-haiku-4-5, #5 step 1 claude-opus-4-5 (529), #6 step 1 claude-opus-4-5 (529), #7 step 1 claude-opus-4-5 (529), #8 step 1 claude-haiku-4-5",
      "after the fallback, a later request tried the main model again",
    ]);
  });

  it("2.0.0, 404 for the main model (#8413): RED fallback-not-used, only the main model was asked", () => {
    const red = check(recordedRun(RED_RUN), { fault: "404" });
    expect(red.verdict).toBe("RED");
    expect(red.ids).toEqual(["fallback-not-used"]);
    expect(red.findings[0]!.title).toBe("the main model was answered 404 on every try and claude-haiku-4-5 was never asked");
    expect(red.findings[0]!.where).toBe("requests #1, #3, #4, #5");
    expect(red.notes).toEqual(["models: #1 step 0 claude-opus-4-5 (404), #3 step 0 claude-opus-4-5 (404), #4 step 1 claude-opus-4-5 (404), #5 step 1 claude-opus-4-5 (404)", "no fallback"]);
  });
});

describe("model-fallback-on-overload's check on edited runs", () => {
  it("is RED model-not-asked-for when a request names a model that is neither --model nor --fallback-model", () => {
    const dir = copyRun(recordedRun(GREEN_RUN));
    setModel(dir, [8], "claude-sonnet-4-5");
    const red = check(dir);
    expect(red.verdict).toBe("RED");
    expect(red.ids).toEqual(["model-not-asked-for"]);
    expect(red.findings[0]!.title).toBe("a request went to claude-sonnet-4-5, neither --model nor --fallback-model");
    expect(red.findings[0]!.where).toBe("request #8");
  });

  it("names both when the only other model asked is neither", () => {
    const dir = copyRun(recordedRun(GREEN_RUN));
    setModel(dir, [4, 8], "claude-sonnet-4-5");
    expect(check(dir).ids).toEqual(["model-not-asked-for", "fallback-not-used"]);
  });

  it("notes a switch that sticks: every request after the first fallback stays on it", () => {
    const dir = copyRun(recordedRun(GREEN_RUN));
    setModel(dir, [5, 6, 7], "claude-haiku-4-5");
    const green = check(dir);
    expect(green.verdict).toBe("GREEN");
    expect(green.notes?.[1]).toBe("once on the fallback, every later request stayed on it");
  });

  it("notes a return to the main model after a fallback that came at the second request", () => {
    const dir = copyRun(recordedRun(GREEN_RUN));
    setModel(dir, [2], "claude-haiku-4-5");
    expect(check(dir).notes?.[1]).toBe("after the fallback, a later request tried the main model again");
  });

  it("is INCONCLUSIVE when no request was answered with the fault", () => {
    const dir = copyRun(recordedRun(GREEN_RUN));
    editFile(dir, path.join("mock", "index.jsonl"), (text) => text.replaceAll('"fault":"http-error 529"', '"fault":null'));
    const run = check(dir);
    expect(run.verdict).toBe("INCONCLUSIVE");
    expect(run.reason).toBe("no request was answered 529");
  });

  it("is INCONCLUSIVE when the session printed one turn's result, not both", () => {
    const dir = copyRun(recordedRun(GREEN_RUN));
    let seen = 0;
    editJsonLines(dir, path.join("sessions", "s1", "stdout.jsonl"), (lines) => lines.filter((line) => !(String(line.raw).includes('"type":"result"') && ++seen === 2)));
    const run = check(dir);
    expect(run.verdict).toBe("INCONCLUSIVE");
    expect(run.reason).toBe("the session did not print both turns' results");
  });
});
