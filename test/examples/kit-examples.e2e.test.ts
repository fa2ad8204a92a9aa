// The kit's own promise, end to end on a real release (2.1.332 from npm): the user bugs in examples/ and every
// `ccrepro new --kind` template load through the same loader as a user's file (bare "ccrepro" and "ccrepro/checkers")
// and give the verdicts measured for them: each template GREEN as written.
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

// Measured 2026-12-01 with `ccrepro run ./examples/NAME.ts --claude 2.1.332`.
describe(`the user bugs in examples/ on claude ${VERSION}`, () => {
  it("max-turns: two calls for --max-turns 2, ended as error_max_turns (GREEN)", async () => {
    const run = await runFile(path.join(EXAMPLES, "max-turns.ts"));
    expect(run.record.result.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result.notes[0]).toMatch(/^2 main requests; result error_max_turns is_error=true/);
  }, E2E_TIMEOUT_MS);

  it("stop-hook-loop: 9 blocks, then the CLI ends the turn itself (GREEN under the cap of 10, RED under a cap of 5)", async () => {
    const capped = await runFile(path.join(EXAMPLES, "stop-hook-loop.ts"));
    expect(capped.record.result.verdict, verdictMessage(capped)).toBe("GREEN");
    expect(capped.record.result.notes[0]).toBe("Stop hook calls: 9, continuations: 8; result: success");
    const strict = await runFile(path.join(EXAMPLES, "stop-hook-loop.ts"), { cap: 5 });
    expect(strict.record.result.findings.filter((f) => f.red).map((f) => f.id), verdictMessage(strict)).toEqual(["stop-loop-uncapped"]);
  }, E2E_TIMEOUT_MS);

  it("pretooluse-deny: exit 2 from the user settings and a JSON deny from the project's both hold (GREEN)", async () => {
    for (const params of [{}, { how: "json", source: "project" }]) {
      const run = await runFile(path.join(EXAMPLES, "pretooluse-deny.ts"), params);
      expect(run.record.result.verdict, verdictMessage(run)).toBe("GREEN");
    }
  }, E2E_TIMEOUT_MS);

  it("continue-latest: --continue carries on the most recent of two sessions (GREEN)", async () => {
    const run = await runFile(path.join(EXAMPLES, "continue-latest.ts"));
    expect(run.record.result.verdict, verdictMessage(run)).toBe("GREEN");
  }, E2E_TIMEOUT_MS);

  it("every example stays within 50 lines and reads only the kit's two entries", () => {
    for (const name of fs.readdirSync(EXAMPLES).filter((n) => n.endsWith(".ts"))) {
      const text = fs.readFileSync(path.join(EXAMPLES, name), "utf8");
      expect(text.trimEnd().split("\n").length, name).toBeLessThanOrEqual(50);
      expect([...text.matchAll(/from "([^"]+)"/g)].map((m) => m[1]).filter((s) => s !== "ccrepro" && s !== "ccrepro/checkers"), name).toEqual([]);
      expect(text, name).not.toMatch(/\bas (unknown|any|never)\b|judge\(/);
    }
  });
});
