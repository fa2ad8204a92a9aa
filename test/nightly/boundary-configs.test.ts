// nightly/boundaries/*.json: each is a valid nightly config whose scenarios are registered, so every boundary a
// scenario claims runs for real on both of its sides.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadNightlyConfig, scenarioEntries } from "../../nightly/config.ts";
import { findScenario } from "../../scenarios/index.ts";
import { workflowJob } from "../workflow-job.ts";

const DIR = path.join(import.meta.dirname, "..", "..", "nightly", "boundaries");
const WORKFLOW = path.join(import.meta.dirname, "..", "..", ".github", "workflows", "nightly.yml");
const files = fs.existsSync(DIR) ? fs.readdirSync(DIR).filter((name) => name.endsWith(".json")) : [];

describe("nightly/boundaries", () => {
  it.each(files)("%s loads and names registered scenarios on exact releases", async (name) => {
    const config = await loadNightlyConfig(path.join(DIR, name));
    for (const entry of scenarioEntries(config)) expect(findScenario(entry.name), entry.name).toBeDefined();
    for (const version of config.versions) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    // Named after its scenario, and a boundary has two sides (a latest release may stand beside them as a guard).
    expect(scenarioEntries(config).map((e) => e.name)).toContain(name.replace(/\.json$/, ""));
    expect(config.versions.length).toBeGreaterThanOrEqual(2);
  });

  it("are all run by the nightly workflow's boundaries job, and it runs nothing else", () => {
    const text = fs.readFileSync(WORKFLOW, "utf8");
    const job = workflowJob(text, "boundaries");
    expect(job).not.toContain("\n  atlas:\n");
    const matrix = job.slice(job.indexOf("        config:\n"), job.indexOf("    steps:"));
    const listed = [...matrix.matchAll(/^ {10}- (\S+)$/gm)].map((m) => m[1]);
    expect(listed).toEqual(files.map((name) => name.replace(/\.json$/, "")).sort());
    expect(job).toContain("node bin/ccrepro.mjs nightly --config nightly/boundaries/${{ matrix.config }}.json");
    // Its only command.
    expect(job.match(/node bin\/ccrepro\.mjs /g)).toHaveLength(1);
  });
});
