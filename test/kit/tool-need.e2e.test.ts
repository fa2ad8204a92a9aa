// A tool as a need (issue 43, item 4), on both sides of the boundary the probe measured: 2.1.97 has no Monitor tool
// compiled in, 2.1.98 is the first release with one. A scenario that needs `tool:Monitor` is UNSUPPORTED on 2.1.97 from
// the probe alone (no session started, no request made), and runs on 2.1.98.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ccreproCli, E2E_TIMEOUT_MS } from "../e2e-run.ts";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-tool-need-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const scenarioFile = path.join(folder, "needs-monitor.ts");
fs.writeFileSync(
  scenarioFile,
  `import { conversation, defineScenario, print, session, text } from "ccrepro";
import { notReached, reached, resultOf } from "ccrepro/checkers";
const s1 = session("s1");
export default defineScenario({
  name: "needs-monitor",
  summary: "a scenario that cannot mean anything without the Monitor tool",
  source: "issue 43",
  findings: [],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: "NEEDS_MONITOR", replies: [text("done")] } }),
  steps: () => [print(s1, "NEEDS_MONITOR hello")],
  check: (rec) => ({ reached: resultOf(rec, s1) ? reached() : notReached("s1 printed no result"), findings: [] }),
  needs: ["stream-json-output", "tool:Monitor"],
});
`,
);

const run = async (version: string) => {
  const result = await ccreproCli(["run", scenarioFile, "--claude", version, "--runs-dir", path.join(folder, "runs"), "--json"], folder);
  return { exitCode: result.exitCode, json: JSON.parse(result.stdout) as { verdict: string; reason?: string; runDir: string } };
};

describe("a tool as a need", () => {
  it("is UNSUPPORTED from the probe on 2.1.97, which has no Monitor tool: nothing is started", async () => {
    const { exitCode, json } = await run("2.1.97");
    expect(exitCode, JSON.stringify(json)).toBe(4);
    expect(json.verdict).toBe("UNSUPPORTED");
    expect(json.reason).toBe("needs the Monitor tool, which this release lacks");
    const runJson = JSON.parse(fs.readFileSync(path.join(json.runDir, "run.json"), "utf8")) as { sessions: unknown[]; steps: unknown[] };
    expect(runJson.sessions).toEqual([]);
    expect(runJson.steps).toEqual([]);
  }, E2E_TIMEOUT_MS);

  it("runs on 2.1.98, the first release with it", async () => {
    const { exitCode, json } = await run("2.1.98");
    expect(json.verdict, JSON.stringify(json)).toBe("GREEN");
    expect(exitCode).toBe(0);
  }, E2E_TIMEOUT_MS);
});
