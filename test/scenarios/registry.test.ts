// The explicit scenario index must list exactly the scenario files in scenarios/, each under its file's name.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scenarioProblems } from "../../kit/scenario.ts";
import { SCENARIOS } from "../../scenarios/index.ts";
import { builtinScenarioNames, loadScenario } from "../../pipeline/scenario-source.ts";

const folder = path.join(import.meta.dirname, "..", "..", "scenarios");
// The registry itself; everything a scenario is made of comes from the kit.
const SUPPORT = new Set(["index.ts"]);

describe("scenario index", () => {
  it("registers every scenario file once, named after its file", () => {
    const files = fs.readdirSync(folder).filter((name) => name.endsWith(".ts") && !SUPPORT.has(name));
    expect(SCENARIOS.map((s) => `${s.name}.ts`).sort()).toEqual(files.sort());
  });

  it("loads a built-in by name from its own file alone, as the same scenario the index holds", async () => {
    expect(builtinScenarioNames()).toEqual(SCENARIOS.map((s) => s.name).sort());
    for (const scenario of SCENARIOS) expect(await loadScenario(scenario.name)).toBe(scenario);
    await expect(loadScenario("no-such-bug")).rejects.toThrow(/unknown scenario "no-such-bug"; known: api-failure-reported-as-success, /);
  });

  it("gives every scenario defaults for all its parameters", () => {
    for (const scenario of SCENARIOS) expect(scenario.params.safeParse({}).success, scenario.name).toBe(true);
  });

  it("never lets a scenario module import process or server code", () => {
    for (const name of fs.readdirSync(folder)) {
      const source = fs.readFileSync(path.join(folder, name), "utf8");
      expect(source, name).not.toMatch(/from "(execa|hono|@hono\/node-server|node:child_process|node-pty)"/);
    }
  });

  it("builds every built-in from the two public entries alone, as a user's scenario file would be", () => {
    for (const name of fs.readdirSync(folder).filter((n) => !SUPPORT.has(n))) {
      const source = fs.readFileSync(path.join(folder, name), "utf8");
      const imports = [...source.matchAll(/from "([^"]+)"/g)].map((m) => m[1]);
      expect(imports.filter((i) => i !== "../kit/index.ts" && i !== "../kit/checkers.ts"), name).toEqual([]);
    }
  });

  it("names in `known` only findings the scenario declares, and never ERROR", () => {
    for (const scenario of SCENARIOS) expect(scenarioProblems(scenario), scenario.name).toEqual([]);
    const base = SCENARIOS[0]!;
    expect(scenarioProblems({ ...base, known: [{ versions: "*", verdict: "RED", finding: "no-such-finding", note: "" }] })).toEqual([
      expect.stringMatching(/known\.0\.finding: "no-such-finding" is not among the scenario's findings/),
    ]);
    expect(scenarioProblems({ ...base, known: [{ versions: "*", verdict: "ERROR", note: "" }] })).toEqual([expect.stringMatching(/ERROR is never known/)]);
  });

  it("takes a capability, a hook event, a tool or an option as a need, and names the four forms for anything else", () => {
    const base = SCENARIOS[0]!;
    expect(scenarioProblems({ ...base, needs: ["background-bash", "hook:SessionEnd", "tool:Monitor", "flag:--fallback-model"] })).toEqual([]);
    expect(scenarioProblems({ ...base, needs: ["tool:Monitr"] })).toEqual([
      expect.stringMatching(/needs\.0: "tool:Monitr" is not a need: a capability \(stream-json-input, .*\), hook:EventName, tool:Monitor, tool:ToolSearch, or flag:--option/),
    ]);
  });
});
