// The nightly config: defaults, and validation errors that name the field to fix.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../core/errors.ts";
import { loadNightlyConfig, parseNightlyConfig, scenarioEntries, SINCE_PREVIOUS } from "../../nightly/config.ts";
import { BASELINE_VERSION, defaultNightlyConfig } from "../../nightly/default-config.ts";
import { SCENARIOS } from "../../scenarios/index.ts";
import { tempDir } from "./fixture.ts";

function configError(raw: unknown): string {
  try {
    parseNightlyConfig(raw, "test.json");
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).code).toBe("BAD_CONFIG");
    return (error as Error).message;
  }
  throw new Error("the config was accepted");
}

// An expectation for resume-orphaned-background-task with the given parameters.
function expecting(params: Record<string, unknown>) {
  return { scenario: "resume-orphaned-background-task", versions: "*", params, verdict: "RED", reason: "r" };
}

describe("parseNightlyConfig", () => {
  it("fills in repeats, concurrency, expectations and every registered scenario", () => {
    const config = parseNightlyConfig({ versions: ["latest"] }, "test.json");
    expect(config).toMatchObject({ repeats: 1, concurrency: 2, expectations: [], seedFromScenarios: true });
    expect(scenarioEntries(config)).toEqual(SCENARIOS.map((s) => ({ name: s.name, params: {} })));
  });

  it("takes a scenario as a name or as { name, params }", () => {
    const config = parseNightlyConfig(
      { scenarios: ["subagent-resume-notification-header", { name: "resume-orphaned-background-task", params: { grace: 1000 } }], versions: ["2.1.332"] },
      "test.json",
    );
    expect(scenarioEntries(config)).toEqual([
      { name: "subagent-resume-notification-header", params: {} },
      { name: "resume-orphaned-background-task", params: { grace: 1000 } },
    ]);
  });

  it("takes expectation parameters that fit the scenario's schema, given in part, typed or as strings", () => {
    const config = parseNightlyConfig(
      { versions: ["latest"], expectations: [expecting({ background: false }), expecting({ stop: "sigterm", grace: "1000" }), expecting({})] },
      "test.json",
    );
    expect(config.expectations.map((e) => e.params)).toEqual([{ background: false }, { stop: "sigterm", grace: "1000" }, {}]);
  });

  it.each([
    [{}, /test\.json: versions: /],
    [{ versions: [] }, /versions: .*at least 1|versions: .*>=1/i],
    [{ versions: ["latest"], repeats: 0 }, /repeats: /],
    [{ versions: ["latest"], concurrency: 1.5 }, /concurrency: /],
    [{ versions: ["latest"], colour: "red" }, /\(top level\): .*colour/],
    [{ versions: ["latest"], scenarios: [42] }, /scenarios\[0\]: expected a scenario name/],
    [{ versions: ["latest"], scenarios: ["no-such-scenario"] }, /scenarios\[0\]: unknown scenario "no-such-scenario" \(known: /],
    [{ versions: ["latest"], scenarios: [{ name: "nope" }] }, /scenarios\[0\]\.name: unknown scenario/],
    [{ versions: ["latest"], scenarios: ["subagent-resume-notification-header", { name: "resume-orphaned-background-task", params: { grace: "soon" } }] }, /scenarios\[1\]\.params\.grace: expected a number/],
    [{ versions: ["latest"], scenarios: [{ name: "resume-orphaned-background-task", params: { nosuch: 1 } }] }, /scenarios\[0\]\.params\.nosuch: unrecognized key .*\(its parameters: stop, grace, /],
    [{ versions: ["latest"], scenarios: ["hook-task-notification-prompt", { name: "resume-orphaned-background-task", params: { stop: "kill" } }] }, /scenarios\[1\]\.params\.stop: expected one of sigkill \| sigterm \| stdin/],
    [{ versions: ["latest"], scenarios: ["resume-orphaned-background-task", { name: "resume-orphaned-background-task", params: { grace: 4000 } }] }, /scenarios\[1\]: repeats scenarios\[0\]/],
    [{ versions: ["latest"], expectations: [{ scenario: "resume-orphaned-background-task", versions: "not a range", verdict: "RED", reason: "r" }] }, /expectations\[0\]\.versions: expected a semver range/],
    [{ versions: ["latest"], expectations: [{ scenario: "resume-orphaned-background-task", versions: "*", verdict: "ERROR", reason: "r" }] }, /expectations\[0\]\.verdict: /],
    [{ versions: ["latest"], expectations: [{ scenario: "resume-orphaned-background-task", versions: "*", verdict: "RED", reason: "" }] }, /expectations\[0\]\.reason: say why/],
    [{ versions: ["latest"], expectations: [{ scenario: "ghost", versions: "*", verdict: "RED", reason: "r" }] }, /expectations\[0\]\.scenario: unknown scenario "ghost"/],
    [{ versions: ["latest"], expectations: [expecting({}), expecting({}), expecting({ stopp: "sigterm" })] }, /expectations\[2\]\.params\.stopp: unrecognized key for scenario resume-orphaned-background-task \(its parameters: stop, /],
    [{ versions: ["latest"], expectations: [expecting({ stop: "kill" })] }, /expectations\[0\]\.params\.stop: expected one of sigkill \| sigterm \| stdin/],
    [{ versions: ["latest"], expectations: [expecting({ grace: "soon" })] }, /expectations\[0\]\.params\.grace: expected a number/],
    [{ versions: ["latest"], expectations: [expecting({ background: "no" })] }, /expectations\[0\]\.params\.background: expected true or false/],
  ])("rejects %j naming the field", (raw, message) => {
    expect(configError(raw)).toMatch(message);
  });

  it("reports a file that is not JSON, or is missing, as a config error", async () => {
    const dir = tempDir("config");
    const file = path.join(dir, "bad.json");
    fs.writeFileSync(file, "{ versions: [latest] }");
    await expect(loadNightlyConfig(file)).rejects.toThrow(/is not valid JSON/);
    await expect(loadNightlyConfig(path.join(dir, "missing.json"))).rejects.toThrow(/cannot read nightly config/);
  });

  it("reports a file whose top level is an array as that, with the shape to write (issue 41, item 5)", async () => {
    const file = path.join(tempDir("config"), "array.json");
    fs.writeFileSync(file, JSON.stringify([{ scenarios: ["background-mid-turn"], versions: ["latest"] }]));
    const error = await loadNightlyConfig(file).then(() => null, (e: Error) => e.message);
    expect(error).toMatch(/the top level: is an array; a nightly config is an object: \{ "scenarios": \[\.\.\.\], "versions": \[\.\.\.\] \}/);
    expect(error).not.toMatch(/expected array, received undefined/);
  });
});

describe("defaultNightlyConfig", () => {
  it("runs every scenario on latest, the baseline and whatever was published since the previous nightly", () => {
    const config = defaultNightlyConfig();
    expect(config.versions).toEqual(["latest", BASELINE_VERSION, SINCE_PREVIOUS]);
    expect(scenarioEntries(config).map((e) => e.name)).toEqual(SCENARIOS.map((s) => s.name));
    expect(config.expectations.every((e) => e.reason && e.link)).toBe(true);
  });
});

describe("nightly config sweeps", () => {
  it("fills in a sweep's parameters and names a bad scenario or parameter by its field", () => {
    const config = parseNightlyConfig({ versions: ["latest"], sweeps: [{ scenario: "subagent-resume-notification-header", versions: "2.1.283 - 2.1.284" }] }, "test.json");
    expect(config.sweeps[0]!.repeat).toBe(1);
    expect(config.sweeps[0]!.params).toMatchObject({ resumeBy: expect.any(String) });
    expect(() => parseNightlyConfig({ versions: ["latest"], sweeps: [{ scenario: "nope", versions: "latest" }] }, "test.json")).toThrow(/sweeps\[0\]\.scenario: unknown scenario "nope"/);
    expect(() =>
      parseNightlyConfig({ versions: ["latest"], sweeps: [{ scenario: "subagent-resume-notification-header", versions: "latest", params: { bogus: 1 } }] }, "test.json"),
    ).toThrow(/sweeps\[0\]\.params\.bogus/);
  });
});
