// A wait condition that throws (issue 27, item 2) is the scenario's bug: on a real release (2.1.332, cached), the run
// is an ERROR naming the scenario and the step, with exit 3, not ccrepro's "unexpected failure".
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS } from "../e2e-run.ts";

const CLI = path.resolve(import.meta.dirname, "../../bin/ccrepro.mjs");
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-throwing-wait-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const SCENARIO = `import { conversation, defineScenario, session, start, text, wait } from "ccrepro";
import { reached } from "ccrepro/checkers";
const s1 = session("s1");
export default defineScenario({
  name: "throwing-wait",
  summary: "a wait whose condition throws once a request has come in",
  source: "issue 27",
  findings: [],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: "THROWING_WAIT", replies: [text("hi")], then: text("hi") } }),
  steps: () => [
    ...start(s1, { prompt: "THROWING_WAIT say hi" }),
    // start() is two steps: the session starts, then the prompt is sent.
    wait("a request came in", (rec) => {
      if (rec.requests.length > 0) throw new TypeError("boom in the condition");
      return false;
    }, { timeout: 60_000 }),
  ],
  check: () => ({ reached: reached(), findings: [], notes: [] }),
});
`;

describe("a wait condition that throws", () => {
  it("is an ERROR naming the scenario and the step", async () => {
    fs.writeFileSync(path.join(folder, "throwing-wait.ts"), SCENARIO);
    const run = await execa("node", [CLI, "run", "./throwing-wait.ts", "--claude", "2.1.332", "--json", "--runs-dir", path.join(folder, "runs")], {
      cwd: folder,
      reject: false,
      timeout: E2E_TIMEOUT_MS,
    });
    expect(run.exitCode, run.stderr).toBe(3);
    const result = JSON.parse(run.stdout) as { verdict: string; reason: string };
    expect(result.verdict).toBe("ERROR");
    expect(result.reason).toContain('scenario throwing-wait, step 3 (wait "a request came in"): its condition threw TypeError: boom in the condition');
    expect(run.stderr).not.toContain("unexpected failure");
  }, E2E_TIMEOUT_MS);
});
