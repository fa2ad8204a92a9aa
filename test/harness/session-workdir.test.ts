// The working directory is snapshotted when each session's process ends, through the steps that run sessions, on
// fixture programs (never claude): a print step, a start stopped by closing stdin, a terminal, a wait on a session's end.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { HeadlessSession } from "../../harness/headless-session.ts";
import { RUN_MARKER_VAR } from "../../harness/isolation.ts";
import { LiveRecordings } from "../../harness/live-recordings.ts";
import { reapRun } from "../../harness/processes.ts";
import { loadRecordings } from "../../harness/recordings.ts";
import type { RunContext } from "../../harness/run-context.ts";
import { runLayout, sessionLayout } from "../../harness/run-layout.ts";
import { executeStep } from "../../harness/step-executor.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/processes/", import.meta.url));
const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-session-workdir-"));
const runId = `test-${crypto.randomBytes(6).toString("hex")}`;
const open: LiveRecordings[] = [];

afterAll(async () => {
  for (const live of open) live.close();
  await reapRun({ name: RUN_MARKER_VAR, value: runId }, []);
  fs.rmSync(root, { recursive: true, force: true });
});

const HELLO_SHA = crypto.createHash("sha256").update("hello").digest("hex");

function context(fixture: string): RunContext {
  const layout = runLayout(path.join(root, `${fixture}-${crypto.randomBytes(3).toString("hex")}`));
  fs.mkdirSync(layout.work, { recursive: true });
  const live = new LiveRecordings(layout.root, layout.mockLog);
  open.push(live);
  return {
    layout,
    env: { PATH: "/usr/bin:/bin", [RUN_MARKER_VAR]: runId },
    claude: { command: "/bin/bash", args: [path.join(FIXTURES, `${fixture}.sh`)] },
    probe: { flags: [] },
    permissions: { mode: "skip-permissions", args: ["--dangerously-skip-permissions"], why: "test" },
    live,
    sessions: new Map<string, HeadlessSession>(),
    terminals: new Map(),
    driver: "headless",
    sdk: null,
    abort: new AbortController().signal,
    pointReached: () => undefined,
  } as unknown as RunContext;
}

describe("snapshots after each session", () => {
  it("a print step returns with the snapshot of what its process left, in memory and in the run directory", async () => {
    const ctx = context("write-and-exit");
    await executeStep(ctx, { kind: "print", session: "p1", prompt: "write it", timeoutMs: 10_000 });
    const snapshot = ctx.live.workdir.afterSession.p1;
    expect(snapshot?.files).toEqual([{ path: "out.txt", size: 5, sha256: HELLO_SHA, text: "hello" }]);
    expect(snapshot!.t).toBeGreaterThanOrEqual(ctx.sessions.get("p1")!.process.endedAt!);
    expect(fs.existsSync(sessionLayout(ctx.layout, "p1").workdir)).toBe(true);
    expect(loadRecordings(ctx.layout.root).workdir.afterSession.p1).toEqual(snapshot);
  });

  it("a session stopped by closing stdin is snapshotted by the time the stop step returns, not before its end", async () => {
    const ctx = context("print-turn");
    await executeStep(ctx, { kind: "start", session: "s1" });
    fs.writeFileSync(path.join(ctx.layout.work, "during.txt"), "written while s1 ran");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ctx.live.workdir.afterSession.s1).toBeUndefined();
    const outcome = await executeStep(ctx, { kind: "stop", session: "s1", how: "stdin", graceMs: 5_000 });
    expect(outcome.detail).toBe("exited after stdin closed");
    expect(ctx.live.workdir.afterSession.s1?.files.map((f) => [f.path, f.text])).toEqual([["during.txt", "written while s1 ran"]]);
  });

  it("a wait for a session's snapshot succeeds when that session ends on its own", async () => {
    const ctx = context("write-and-exit");
    await executeStep(ctx, { kind: "start", session: "s1" });
    const outcome = await executeStep(ctx, { kind: "wait", label: "s1 ended", until: (rec) => rec.workdir.afterSession.s1 !== undefined, timeoutMs: 10_000 });
    expect(outcome.outcome).toBe("ok");
    expect(ctx.live.workdir.afterSession.s1?.files.map((f) => f.path)).toEqual(["out.txt"]);
  });

  it("a terminal session is snapshotted when its UI exits, even when it exits before showing a prompt", async () => {
    const ctx = context("write-and-exit");
    await expect(executeStep(ctx, { kind: "terminal", session: "t1" })).rejects.toThrow(/exited before showing its prompt/);
    await ctx.terminals.get("t1")!.exited;
    expect(ctx.live.workdir.afterSession.t1?.files).toEqual([{ path: "out.txt", size: 5, sha256: HELLO_SHA, text: "hello" }]);
  });

  it("a wait for something else still fails at once when the session ends on its own", async () => {
    const ctx = context("write-and-exit");
    await executeStep(ctx, { kind: "start", session: "s1" });
    await expect(executeStep(ctx, { kind: "wait", label: "a request", until: (rec) => rec.requests.length > 0, timeoutMs: 10_000 })).rejects.toThrow(
      /claude \(session s1\) exited with code 0 .*while waiting for: a request/,
    );
  });
});
