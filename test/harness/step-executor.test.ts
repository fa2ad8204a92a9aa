// The stop step on a tiny fixture program (never claude): stdin closed, then the signal, escalated when ignored.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { HeadlessSession } from "../../harness/headless-session.ts";
import { RUN_MARKER_VAR } from "../../harness/isolation.ts";
import { reapRun } from "../../harness/processes.ts";
import type { RunContext } from "../../harness/run-context.ts";
import { runLayout, sessionLayout } from "../../harness/run-layout.ts";
import { executeStep } from "../../harness/step-executor.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/processes/", import.meta.url));
const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-stop-"));
const runId = `test-${crypto.randomBytes(6).toString("hex")}`;

afterAll(async () => {
  await reapRun({ name: RUN_MARKER_VAR, value: runId }, []);
  fs.rmSync(root, { recursive: true, force: true });
});

function contextWith(label: string, fixture: string): { ctx: RunContext; session: HeadlessSession } {
  const session = new HeadlessSession({
    label,
    command: "/bin/bash",
    args: [path.join(FIXTURES, `${fixture}.sh`)],
    env: { PATH: "/usr/bin:/bin", [RUN_MARKER_VAR]: runId },
    cwd: root,
    files: sessionLayout(runLayout(path.join(root, runId)), label),
    resumeOf: null,
    onChange: () => undefined,
  });
  // The stop step only looks its session up (among the UIs first); nothing else of the run is involved.
  return { ctx: { sessions: new Map([[label, session]]), terminals: new Map() } as unknown as RunContext, session };
}

describe("the stop step", () => {
  it("escalates to SIGKILL when SIGTERM is ignored, and says so", { timeout: 30_000 }, async () => {
    const { ctx, session } = contextWith("stubborn", "ignore-term");
    await new Promise((resolve) => setTimeout(resolve, 300));
    const outcome = await executeStep(ctx, { kind: "stop", session: "stubborn", how: "sigterm", graceMs: 100 });
    expect(outcome.detail).toMatch(/signal SIGKILL \(SIGTERM ignored, escalated to SIGKILL\)/);
    expect(session.process.stoppedBy).toEqual(["close-stdin", "SIGTERM", "SIGKILL"]);
  });

  it("with how=stdin closes stdin only and leaves a still-running session running", async () => {
    const { ctx, session } = contextWith("lingering", "hang");
    const outcome = await executeStep(ctx, { kind: "stop", session: "lingering", how: "stdin", graceMs: 200 });
    expect(outcome.detail).toBe("still running");
    expect(session.running).toBe(true);
    expect(session.process.stoppedBy).toEqual(["close-stdin"]);
    session.signal("SIGKILL");
    await session.exited;
  });
});
