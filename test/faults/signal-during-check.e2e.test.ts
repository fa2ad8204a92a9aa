// A signal to ccrepro alone while `run` judges a file scenario (issue 41, item 3), on 2.1.332 (cached): the scenario's
// check spins forever. SIGTERM to ccrepro's pid ends the run within a second, as ERROR saying the check was
// interrupted, and leaves no check process behind (before: ccrepro waited out the check's 60 s limit). And while a
// `-p` turn runs a 60 s foreground tool call: before, the print step waited out its own limit after the signal.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ccreproCli } from "../e2e-run.ts";
import { checkChildOf, running, runningCommand } from "../fake-ccrepro.ts";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-signal-check-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

fs.writeFileSync(
  path.join(folder, "spinning-check.ts"),
  `import { conversation, defineScenario, resultPrinted, session, start, text, wait } from "ccrepro";
const s1 = session("s1");
export default defineScenario({
  name: "spinning-check",
  summary: "a scenario whose check never returns",
  source: "issue 41",
  findings: [],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: "SPINNING_CHECK", replies: [text("ok")], then: text("ok") } }),
  steps: () => [...start(s1, { prompt: "SPINNING_CHECK answer" }), wait("answered", resultPrinted(s1))],
  check: () => {
    for (;;) {}
  },
});
`,
);

fs.writeFileSync(
  path.join(folder, "long-print.ts"),
  `import { bash, conversation, defineScenario, print, session, text } from "ccrepro";
import { reached } from "ccrepro/checkers";
const s1 = session("s1");
export default defineScenario({
  name: "long-print",
  summary: "a -p turn whose tool call takes a minute",
  source: "issue 41",
  findings: [],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: "LONG_PRINT", replies: [bash("command sleep 60; echo slept", "sleep")], then: text("ok") } }),
  steps: () => [print(s1, "LONG_PRINT sleep a minute", { timeout: 120_000 })],
  check: () => ({ reached: reached(), findings: [], notes: [] }),
});
`,
);

describe("SIGTERM to ccrepro during a -p turn", { timeout: 180_000 }, () => {
  it("ends the run within seconds as ERROR, not at the print step's limit", async () => {
    const runsDir = path.join(folder, "print-runs");
    const run = ccreproCli(["run", "./long-print.ts", "--claude", "2.1.332", "--json", "--runs-dir", runsDir], folder);
    // The turn is mid tool call once its `sleep 60` runs.
    await runningCommand(runsDir, "sleep");
    const sent = Date.now();
    process.kill(run.pid!, "SIGTERM");
    const done = await run;
    expect(Date.now() - sent).toBeLessThan(15_000);
    expect(done.exitCode, done.stderr).toBe(3);
    expect((JSON.parse(done.stdout) as { verdict: string }).verdict).toBe("ERROR");
  });
});

describe("SIGTERM to ccrepro while run judges a file scenario", { timeout: 180_000 }, () => {
  it("ends the run within a second as ERROR, and the check's process with it", async () => {
    const run = ccreproCli(["run", "./spinning-check.ts", "--claude", "2.1.332", "--json", "--runs-dir", path.join(folder, "runs")], folder);
    let child: number | null = null;
    const started = Date.now();
    while (child === null && Date.now() - started < 120_000) {
      child = checkChildOf(run.pid!);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(child, "the check never started").not.toBeNull();
    // No event says the check reached its loop (confined, it can write nothing); the promise holds wherever the child
    // is, and a second of loading makes the spinning case the one tested.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const sent = Date.now();
    process.kill(run.pid!, "SIGTERM");
    const done = await run;
    expect(Date.now() - sent).toBeLessThan(1_500);
    expect(done.exitCode, done.stderr).toBe(3);
    const result = JSON.parse(done.stdout) as { verdict: string };
    expect(result.verdict).toBe("ERROR");
    expect(JSON.stringify(result)).toMatch(/was interrupted, and its process ended/);
    // SIGKILLed as ccrepro exited: gone, or a zombie for the moment its new parent takes to reap it.
    const ended = Date.now();
    while (running(child!) && Date.now() - ended < 1_000) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(running(child!)).toBe(false);
  });
});
