// Two runs at once on one machine, one of them inside its own pid namespace, as a container's is (issue 41, item 1):
// `unshare --pid --fork --mount-proc` on one side, a plain run on the other, both on 2.1.332 (cached). The run inside
// is under way (its claude and the `sleep` of a foreground tool call up) when the run outside starts and makes its
// pre-run reap. Each run gives its known verdict (GREEN: the model's final "ok" printed after the tool call), neither's
// run.json lists the other among what it ended, and the outside `doctor --dry-run` says why it leaves the inside run
// alone. Before the fix, the outside reap SIGKILLed the inside run's processes: their owner's pid is the namespace's.
// Needs root (CI is) for the namespace; a user without it skips with the reason.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import { ccreproCli, E2E_TIMEOUT_MS } from "../e2e-run.ts";
import { runningCommand, startFakeCcrepro } from "../fake-ccrepro.ts";
import { RUN_MARKER_VAR } from "../../harness/isolation.ts";
import { findMarkedProcesses, reapRun } from "../../harness/processes.ts";
import { readRunRecord } from "../../harness/run-record.ts";

const CLI = path.resolve(import.meta.dirname, "../../bin/ccrepro.mjs");
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-namespaced-"));
const runIds: string[] = [];
afterAll(async () => {
  for (const id of runIds) await reapRun({ name: RUN_MARKER_VAR, value: id }, []);
  fs.rmSync(folder, { recursive: true, force: true });
});

const canUnshare = spawnSync("unshare", ["--pid", "--fork", "--mount-proc", "true"], { stdio: "ignore", timeout: 10_000 }).status === 0;

// A foreground `sleep 12` keeps the run's processes up; GREEN only when the final answer was printed after it.
const SCENARIO = `import { bash, conversation, defineScenario, resultPrinted, session, start, text, wait } from "ccrepro";
import { notReached, reached, resultOf } from "ccrepro/checkers";
const s1 = session("s1");
export default defineScenario({
  name: "namespaced-neighbour",
  summary: "a run that keeps a foreground tool call up for 12 s and then answers ok",
  source: "issue 41",
  findings: [],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: "NS_NEIGHBOUR", replies: [bash("command sleep 12; echo slept", "sleep in the foreground")], then: text("ok") } }),
  steps: () => [...start(s1, { prompt: "NS_NEIGHBOUR sleep, then answer" }), wait("the answer was printed", resultPrinted(s1), { timeout: 90_000 })],
  check: (rec) => {
    const result = resultOf(rec, s1);
    return { reached: result?.result === "ok" ? reached() : notReached(\`no final answer: \${JSON.stringify(result)}\`), findings: [], notes: [] };
  },
});
`;
fs.writeFileSync(path.join(folder, "namespaced-neighbour.ts"), SCENARIO);
fs.writeFileSync(path.join(folder, "short-neighbour.ts"), SCENARIO.replace("command sleep 12", "command sleep 1").replace('"namespaced-neighbour"', '"short-neighbour"'));

function startRun(runsDir: string, inNamespace: boolean, file = "./namespaced-neighbour.ts", before: string[] = []) {
  const words = [...before, "run", file, "--claude", "2.1.332", "--json", "--runs-dir", runsDir];
  if (!inNamespace) return ccreproCli(words, folder);
  return execa("unshare", ["--pid", "--fork", "--mount-proc", "--kill-child", process.execPath, CLI, ...words], { cwd: folder, reject: false, timeout: E2E_TIMEOUT_MS });
}

// Waits until a run's foreground sleep is up, and keeps its id for the cleanup.
async function sleeping(runsDir: string): Promise<string> {
  const id = await runningCommand(runsDir, "sleep");
  if (!runIds.includes(id)) runIds.push(id);
  return id;
}

describe.skipIf(!canUnshare)("a run inside a pid namespace beside one outside it", { timeout: 240_000 }, () => {
  it("both give their verdict, and neither reaps the other", async () => {
    const insideRuns = path.join(folder, "inside");
    const outsideRuns = path.join(folder, "outside");
    const inside = startRun(insideRuns, true);
    const insideId = await sleeping(insideRuns);

    const dryRun = await ccreproCli(["doctor", "--dry-run", "--json"], folder);
    const seen = JSON.parse(dryRun.stdout) as { wouldReap: { runId: string }[]; leftAlone: { runId: string; why: string }[] };
    expect(seen.wouldReap.map((r) => r.runId)).not.toContain(insideId);
    expect(seen.leftAlone.find((r) => r.runId === insideId)?.why).toMatch(/another pid namespace/);

    const outside = startRun(outsideRuns, false);
    const outsideId = await sleeping(outsideRuns);
    const [insideDone, outsideDone] = await Promise.all([inside, outside]);
    for (const [done, runsDir, id] of [[insideDone, insideRuns, insideId], [outsideDone, outsideRuns, outsideId]] as const) {
      const dir = fs.readdirSync(runsDir).map((d) => path.join(runsDir, d)).find((d) => fs.existsSync(path.join(d, "run.json")))!;
      const record = readRunRecord(path.join(dir, "run.json"));
      expect(record.id).toBe(id);
      expect(record.result?.verdict, `${done.stderr}\n${JSON.stringify(record.result)}`).toBe("GREEN");
      expect(done.exitCode).toBe(0);
      expect((record.processes.orphansReaped ?? []).map((r) => r.runId)).not.toContain(id === insideId ? outsideId : insideId);
      expect(done.stderr).not.toMatch(/reaped \d+ process/);
    }
  });
});

// A run whose ccrepro really died, in this namespace (a fixture stands in for that ccrepro: its "run" is two process
// trees carrying a marker and its owner token). The next run ends them and lists them in run.json, unless the
// automatic reap is off, and then they are left and run.json says the reap was off.
async function deadRun(): Promise<{ runId: string; pids: number[] }> {
  const runId = `test-orphan-${Date.now().toString(36)}`;
  runIds.push(runId);
  const { fake, pids } = await startFakeCcrepro(runId, { watchdog: false });
  fake.kill("SIGKILL");
  await fake;
  return { runId, pids };
}

describe("the pre-run reap of a dead run's processes", { timeout: 240_000 }, () => {
  it("is off with --no-reap (run.json: null), and on by default, listed in run.json with why", async () => {
    const orphan = await deadRun();
    const off = await startRun(path.join(folder, "no-reap"), false, "./short-neighbour.ts", ["--no-reap"]);
    const offDir = fs.readdirSync(path.join(folder, "no-reap")).map((d) => path.join(folder, "no-reap", d))[0]!;
    expect(off.exitCode, off.stderr).toBe(0);
    expect(readRunRecord(path.join(offDir, "run.json")).processes.orphansReaped).toBeNull();
    expect(findMarkedProcesses(RUN_MARKER_VAR, orphan.runId).length).toBe(orphan.pids.length);

    const on = await startRun(path.join(folder, "reap"), false, "./short-neighbour.ts");
    const onDir = fs.readdirSync(path.join(folder, "reap")).map((d) => path.join(folder, "reap", d))[0]!;
    expect(on.exitCode, on.stderr).toBe(0);
    expect(on.stderr).toMatch(new RegExp(`reaped ${orphan.pids.length} process\\(es\\) .* left running by run ${orphan.runId}`));
    const reaped = readRunRecord(path.join(onDir, "run.json")).processes.orphansReaped?.find((r) => r.runId === orphan.runId);
    expect(reaped?.why).toMatch(/is gone from this pid namespace/);
    expect(reaped?.killed.sort()).toEqual(expect.arrayContaining(orphan.pids));
    expect(findMarkedProcesses(RUN_MARKER_VAR, orphan.runId)).toEqual([]);
  });
});
