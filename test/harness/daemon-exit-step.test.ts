// The daemon-exit step on a tiny stand-in daemon (never claude): a node process whose argv says `daemon run` and whose
// environment carries the run's marker, as the /background daemon's does.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RUN_MARKER_VAR } from "../../harness/isolation.ts";
import { StepFailure, type RunContext } from "../../harness/run-context.ts";
import { runLayout } from "../../harness/run-layout.ts";
import { executeStep } from "../../harness/step-executor.ts";
import { eventually } from "../eventually.ts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-daemon-exit-"));
const marker = `daemon-exit-test-${process.pid}`;
const daemon = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "daemon", "run"], { env: { ...process.env, [RUN_MARKER_VAR]: marker }, stdio: "ignore" });
afterAll(() => {
  daemon.kill("SIGKILL");
  fs.rmSync(root, { recursive: true, force: true });
});

// The step reads the run's environment (its marker) and waits through the live recordings: a poll stands in for them.
const ctx = {
  layout: runLayout(root),
  env: { [RUN_MARKER_VAR]: marker },
  live: { waitUntil: async (predicate: () => boolean, timeoutMs: number) => ((await eventually(predicate, timeoutMs)) ? "ok" : "timeout") },
  abort: new AbortController().signal,
} as unknown as RunContext;

describe("the daemon-exit step", () => {
  it("fails the run when the daemon outlives its wait, unless the scenario allows it (onTimeout: continue)", async () => {
    await expect(executeStep(ctx, { kind: "daemon-exit", label: "gone", timeoutMs: 300, onTimeout: "error" })).rejects.toThrow(StepFailure);
    // The failure says what to do about it.
    await expect(executeStep(ctx, { kind: "daemon-exit", label: "gone", timeoutMs: 300, onTimeout: "error" })).rejects.toThrow(/onTimeout: "continue"/);
    const allowed = await executeStep(ctx, { kind: "daemon-exit", label: "gone", timeoutMs: 300, onTimeout: "continue" });
    expect(allowed).toMatchObject({ outcome: "timeout", mayTimeOut: true, detail: expect.stringContaining(`daemon (pid ${daemon.pid}) was still running 300 ms later`) });
    daemon.kill("SIGKILL");
    await new Promise((resolve) => daemon.once("exit", resolve));
    expect(await executeStep(ctx, { kind: "daemon-exit", label: "gone", timeoutMs: 2_000, onTimeout: "error" })).toMatchObject({ outcome: "ok" });
  });
});
