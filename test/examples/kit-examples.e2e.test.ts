// The kit's own promise, end to end on a real release (2.1.332 from npm): every `ccrepro new --kind` template loads
// through the same loader as a user's file (bare "ccrepro" and "ccrepro/checkers") and runs GREEN as written.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveClaude } from "../../releases/resolve.ts";
import { runAndCheck } from "../../pipeline/run-scenario.ts";
import { loadScenario } from "../../pipeline/scenario-source.ts";
import { TEMPLATE_KINDS, templateFile } from "../../cli/scenario-template.ts";
import { E2E_RUNS_DIR, E2E_TIMEOUT_MS, verdictMessage } from "../e2e-run.ts";

const VERSION = "2.1.332";
const EXAMPLES = path.join(import.meta.dirname, "..", "..", "examples");

async function runFile(file: string, params: Record<string, unknown> = {}) {
  const scenario = await loadScenario(file);
  const claude = await resolveClaude(VERSION);
  return runAndCheck({ scenario, params: scenario.params.parse(params), claude, requested: VERSION, runsDir: E2E_RUNS_DIR });
}

describe(`the kit's templates on claude ${VERSION}`, () => {
  it.each(TEMPLATE_KINDS.filter((kind) => kind !== "terminal"))("%s runs GREEN as written", async (kind) => {
    const run = await runFile(templateFile(kind));
    expect(run.record.result.verdict, verdictMessage(run)).toBe("GREEN");
  }, E2E_TIMEOUT_MS);

  it("terminal runs GREEN as written", async () => {
    const run = await runFile(templateFile("terminal"));
    expect(run.record.result.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.driver).toBe("terminal");
  }, E2E_TIMEOUT_MS);
});

// The four user bugs first written here (max-turns, stop-hook-loop, continue-latest, pretooluse-deny) are built-ins
// now, each with its own end-to-end test under test/scenarios/.
describe("the files a user starts from", () => {
  it("every example stays within 50 lines and reads only the kit's two entries", () => {
    const files = [...fs.readdirSync(EXAMPLES).filter((n) => n.endsWith(".ts")), ...TEMPLATE_KINDS.map((kind) => `templates/${kind}.ts`)];
    for (const name of files) {
      const text = fs.readFileSync(path.join(EXAMPLES, name), "utf8");
      expect(text.trimEnd().split("\n").length, name).toBeLessThanOrEqual(50);
      expect([...text.matchAll(/from "([^"]+)"/g)].map((m) => m[1]).filter((s) => s !== "ccrepro" && s !== "ccrepro/checkers"), name).toEqual([]);
      expect(text, name).not.toMatch(/\bas (unknown|any|never)\b|judge\(/);
    }
  });
});
