// On a real release (2.1.332 from npm): what a session's Bash call wrote is in the working directory's snapshot after
// that session and at the run's end, read back from the run directory alone; a wait can use "after session s1 ended".
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { bash, conversation, print, resultPrinted, session, start, stop, text, wait } from "../../kit/index.ts";
import { fileOf } from "../../kit/checkers.ts";
import { flattenSteps } from "../../kit/steps.ts";
import type { RunPlan } from "../../harness/plan.ts";
import { recordRun } from "../../harness/record-run.ts";
import { loadRecordings } from "../../harness/recordings.ts";
import { resolveClaude } from "../../releases/resolve.ts";
import { E2E_RUNS_DIR, E2E_TIMEOUT_MS } from "../e2e-run.ts";

const VERSION = "2.1.332";
const sha = (data: string) => crypto.createHash("sha256").update(data).digest("hex");

const [s1, p1] = [session("s1"), session("p1")];
const plan: RunPlan = {
  scenario: "workdir-snapshots",
  params: {},
  script: conversation({
    main: { marker: "CCREPRO_WORKDIR_S1", replies: [bash("printf hello > out.txt", "write out.txt")], then: text("written") },
    print: { marker: "CCREPRO_WORKDIR_P1", replies: [bash("printf world > second.txt", "write second.txt")], then: text("written too") },
  }),
  steps: flattenSteps([
    start(s1, { prompt: "CCREPRO_WORKDIR_S1 write the file" }),
    wait("s1 answered", resultPrinted(s1), { timeout: 90_000, onTimeout: "error" }),
    stop(s1, { grace: 20_000 }),
    wait("s1's snapshot holds out.txt", (rec) => rec.workdir.afterSession.s1 !== undefined && fileOf(rec, "out.txt", { after: s1 }) !== null, { timeout: 5_000, onTimeout: "error" }),
    print(p1, "CCREPRO_WORKDIR_P1 write the second file", { timeout: 90_000 }),
  ]),
  timeoutMs: 240_000,
};

describe(`working-directory snapshots on claude ${VERSION}`, () => {
  it("hold out.txt after s1, out.txt and second.txt after the print session p1, and both at the end", async () => {
    const claude = await resolveClaude(VERSION);
    const { runDir, record } = await recordRun({ plan, claude, requested: VERSION, runsDir: E2E_RUNS_DIR });
    expect(record.harnessError, runDir).toBeNull();
    const { workdir, sessions } = loadRecordings(runDir);
    const hello = { path: "out.txt", size: 5, sha256: sha("hello"), text: "hello" };
    const world = { path: "second.txt", size: 5, sha256: sha("world"), text: "world" };
    const s1 = workdir.afterSession.s1;
    expect(s1?.files.find((f) => f.path === "out.txt"), runDir).toEqual(hello);
    expect(s1?.files.some((f) => f.path === "second.txt")).toBe(false);
    expect(workdir.afterSession.p1?.files.filter((f) => f.path === "out.txt" || f.path === "second.txt")).toEqual([hello, world]);
    expect(workdir.atEnd?.files.filter((f) => f.path === "out.txt" || f.path === "second.txt")).toEqual([hello, world]);
    // The harness's own repository is not part of what the session left.
    expect(workdir.atEnd?.files.some((f) => f.path.startsWith(".git/"))).toBe(false);
    // Taken after the process ended, and before the next session started.
    const ended = (label: string) => sessions.find((s) => s.label === label)!.process!;
    expect(s1!.t).toBeGreaterThanOrEqual(ended("s1").endedAt!);
    expect(s1!.t).toBeLessThan(ended("p1").startedAt);
    expect(workdir.atEnd!.t).toBeGreaterThan(workdir.afterSession.p1!.t);
    console.log(
      `workdir snapshots (${runDir}): s1 taken ${(s1!.t - ended("s1").endedAt!).toFixed(1)} ms after its exit; files at the end: ${workdir.atEnd!.files.map((f) => f.path).join(", ")}; links: ${JSON.stringify(workdir.atEnd!.links)}`,
    );
  }, E2E_TIMEOUT_MS);
});
