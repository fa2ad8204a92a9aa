// A nightly config whose scenario entries are file paths (relative to the config): loaded, named by the scenario's own
// name, seeded into the ledger from the file's `known` list, and handed to the cell runner like a built-in.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { finding } from "../../core/verdict.ts";
import { loadNightlyConfig } from "../../nightly/config.ts";
import type { CellRunner } from "../../nightly/run-cell.ts";
import { runNightly } from "../../nightly/run-nightly.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";
import { harnessErrorResult } from "../../pipeline/verdict-rules.ts";
import { fixtureIndex, tempDir } from "./fixture.ts";

const EXAMPLE = path.join(import.meta.dirname, "..", "..", "examples", "my-bug.ts");

function configDir(config: unknown, scenarioText = fs.readFileSync(EXAMPLE, "utf8").replace('  hooks: { record: "all" },', '  hooks: { record: "all" },\n  known: [{ versions: "2.1.332", verdict: "RED", finding: "synthetic-prompt-indistinguishable", note: "measured" }],')): string {
  const dir = tempDir("nightly-file");
  fs.mkdirSync(path.join(dir, "bugs"));
  fs.writeFileSync(path.join(dir, "bugs", "my-bug.ts"), scenarioText);
  fs.writeFileSync(path.join(dir, "nightly.json"), JSON.stringify(config));
  return dir;
}

describe("nightly config with a scenario file", () => {
  it("loads the path relative to the config file and runs it as a cell, its known list in the ledger", async () => {
    const dir = configDir({ scenarios: ["./bugs/my-bug.ts"], versions: ["2.1.332"] });
    const config = await loadNightlyConfig(path.join(dir, "nightly.json"));
    expect(config.scenarios).toEqual(["my-hook-bug"]);
    const seen: string[] = [];
    const runCell: CellRunner = async ({ cell }) => {
      seen.push(cell.scenario);
      expect(scenarioByName(cell.scenario)?.findings).toEqual(["synthetic-prompt-indistinguishable"]);
      return { runDir: null, result: { verdict: "RED", reason: "r", findings: [finding({ id: "synthetic-prompt-indistinguishable", red: true, title: "t", where: "w" })], notes: [] }, wallMs: 1 };
    };
    const summary = await runNightly({ config, outDir: path.join(dir, "out"), previous: null, index: fixtureIndex(), runCell });
    expect(seen).toEqual(["my-hook-bug"]);
    expect(summary.cells.map((c) => [c.key, c.verdict, c.expectation.source, c.status])).toEqual([["my-hook-bug@2.1.332", "RED", "scenario", "expected"]]);
  });

  it("names the config field and the file when the path is wrong or the file is bad", async () => {
    const missing = configDir({ scenarios: ["./bugs/nope.ts"], versions: ["2.1.332"] });
    await expect(loadNightlyConfig(path.join(missing, "nightly.json"))).rejects.toThrow(/nightly config .*nightly\.json: scenarios\[0\]: scenario file \.\/bugs\/nope\.ts: cannot be read \(ENOENT\)/);
    const bad = configDir({ scenarios: [{ name: "./bugs/my-bug.ts", params: {} }], versions: ["2.1.332"] }, "export const x = 1;\n");
    await expect(loadNightlyConfig(path.join(bad, "nightly.json"))).rejects.toThrow(/scenarios\[0\]\.name: scenario file \.\/bugs\/my-bug\.ts: has no default export/);
  });

  it("a cell whose runner fails is that cell's ERROR", async () => {
    const dir = configDir({ scenarios: ["./bugs/my-bug.ts"], versions: ["2.1.332"], seedFromScenarios: false });
    const config = await loadNightlyConfig(path.join(dir, "nightly.json"));
    const summary = await runNightly({ config, outDir: path.join(dir, "out"), previous: null, index: fixtureIndex(), runCell: async () => ({ runDir: null, result: harnessErrorResult("boom"), wallMs: null }) });
    expect(summary.cells.map((c) => c.verdict)).toEqual(["ERROR"]);
  });
});
