// A claim never outruns its evidence (issue 42, item 1), on 2.1.332 (cached): a scenario whose only wait times out is
// INCONCLUSIVE although its check returns reached() without looking, run.json names the steps that never ran, and
// the console says the step timed out. A wait that says it may time out (onTimeout: "continue") lets the run go on:
// the check's verdict stands, and the timeout is printed with it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ccreproCli } from "../e2e-run.ts";
import { readRunRecord } from "../../harness/run-record.ts";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-timed-out-wait-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const scenario = (name: string, onTimeout: "inconclusive" | "continue") => `import { conversation, defineScenario, requestsMade, resultPrinted, session, start, stop, text, wait } from "ccrepro";
import { reached } from "ccrepro/checkers";
const s1 = session("s1");
export default defineScenario({
  name: "${name}",
  summary: "a wait for a request that never comes",
  source: "issue 42",
  findings: [],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: "TIMED_OUT_WAIT", replies: [text("ok")], then: text("ok") } }),
  steps: () => [...start(s1, { prompt: "TIMED_OUT_WAIT answer" }), wait("a 99th request", requestsMade(99), { timeout: 4_000, onTimeout: "${onTimeout}" }), wait("answered", resultPrinted(s1)), stop(s1)],
  // Looks at nothing: the verdict must not rest on it.
  check: () => ({ reached: reached(), findings: [], notes: [] }),
});
`;
fs.writeFileSync(path.join(folder, "only-wait-times-out.ts"), scenario("only-wait-times-out", "inconclusive"));
fs.writeFileSync(path.join(folder, "wait-may-time-out.ts"), scenario("wait-may-time-out", "continue"));

async function run(file: string) {
  const runsDir = path.join(folder, `runs-${path.basename(file, ".ts")}`);
  const done = await ccreproCli(["run", file, "--claude", "2.1.332", "--runs-dir", runsDir], folder);
  const dir = path.join(runsDir, fs.readdirSync(runsDir)[0]!);
  return { done, dir, record: readRunRecord(path.join(dir, "run.json")) };
}

describe("a wait that times out, on 2.1.332", { timeout: 180_000 }, () => {
  it("makes the run INCONCLUSIVE however its check judged, and says which steps never ran", async () => {
    const { done, dir, record } = await run("./only-wait-times-out.ts");
    expect(done.exitCode, done.stdout + done.stderr).toBe(2);
    expect(done.stdout).toMatch(/^INCONCLUSIVE: step 3 \(a 99th request\) timed out: not reached within 4000 ms; 2 step\(s\) never ran: answered, stop s1/);
    expect(done.stderr).toMatch(/step 3 timed out .*: the run is INCONCLUSIVE unless the check finds the bug/);
    expect(record.stepsSkipped).toEqual(["answered", "stop s1"]);
    expect(record.result?.verdict).toBe("INCONCLUSIVE");
    const issue = await ccreproCli(["report", dir, "--format", "issue"], folder);
    expect(issue.stdout).toContain("**Steps that did not finish**");
    expect(issue.stdout).toContain("- step 3 (a 99th request) timed out: not reached within 4000 ms");
    expect(issue.stdout).toContain("- never ran: answered, stop s1");
  });

  it("allowed with onTimeout \"continue\": the run goes on, the verdict stands, and the timeout is printed with it", async () => {
    const { done, record } = await run("./wait-may-time-out.ts");
    expect(done.exitCode, done.stdout + done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^GREEN/);
    expect(done.stdout).toContain("step 3 (a 99th request) timed out, as the scenario allows: not reached within 4000 ms");
    expect(record.steps.map((s) => s.label)).toEqual(expect.arrayContaining(["a 99th request", "answered", "stop s1"]));
    expect(record.steps.find((s) => s.label === "a 99th request")).toMatchObject({ outcome: "timeout", mayTimeOut: true });
    expect(record.stepsSkipped).toEqual([]);
  });
});
