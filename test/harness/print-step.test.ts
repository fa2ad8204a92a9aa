// The print step on a fixture program (never claude): prompt as argument or on stdin, stdin closed, --resume of an
// earlier session's id, and a process that outlives the step's timeout.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { HeadlessSession } from "../../harness/headless-session.ts";
import { RUN_MARKER_VAR } from "../../harness/isolation.ts";
import { reapRun } from "../../harness/processes.ts";
import type { RunContext } from "../../harness/run-context.ts";
import { runLayout } from "../../harness/run-layout.ts";
import { executeStep } from "../../harness/step-executor.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/processes/", import.meta.url));
const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-print-"));
const runId = `test-${crypto.randomBytes(6).toString("hex")}`;

afterAll(async () => {
  await reapRun({ name: RUN_MARKER_VAR, value: runId }, []);
  fs.rmSync(root, { recursive: true, force: true });
});

function context(fixture: string, requests: unknown[] = [], abort: AbortSignal = new AbortController().signal): RunContext {
  const layout = runLayout(path.join(root, `${runId}-${fixture}-${crypto.randomBytes(3).toString("hex")}`));
  fs.mkdirSync(layout.work, { recursive: true });
  return {
    layout,
    env: { PATH: "/usr/bin:/bin", [RUN_MARKER_VAR]: runId },
    claude: { command: "/bin/bash", args: [path.join(FIXTURES, `${fixture}.sh`)] },
    probe: { flags: [] },
    permissions: { mode: "skip-permissions", args: ["--dangerously-skip-permissions"], why: "test" },
    live: { changed: () => undefined, addSession: () => undefined, requests },
    sessions: new Map<string, HeadlessSession>(),
    abort,
  } as unknown as RunContext;
}

const resultOf = (ctx: RunContext, label: string) =>
  ctx.sessions.get(label)!.recording.stdout.map((line) => JSON.parse(line.raw) as { type: string; args: string; stdin: string }).find((event) => event.type === "result");

describe("the print step", () => {
  it("passes the prompt right after -p, with stream-json output, and closes stdin so the turn can end", async () => {
    const ctx = context("print-turn");
    const outcome = await executeStep(ctx, { kind: "print", session: "p1", prompt: "first prompt", timeoutMs: 10_000 });
    expect(outcome.detail).toMatch(/exit 0 signal -/);
    const result = resultOf(ctx, "p1");
    expect(result?.args).toMatch(/^-p first prompt --output-format stream-json --verbose /);
    expect(result?.args).not.toContain("--input-format");
    expect(result?.stdin).toBe("");
    expect(ctx.sessions.get("p1")!.process.sessionId).toMatch(/^fixture-\d+$/);
  });

  it("leaves no timer behind once the turn ended, so ccrepro can exit as soon as the run is done", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timers();
    await executeStep(context("print-turn"), { kind: "print", session: "p1", prompt: "quick", timeoutMs: 600_000 });
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it("puts the scenario's flags, --continue and --fork-session after the harness's own", async () => {
    const ctx = context("print-turn");
    await executeStep(ctx, { kind: "print", session: "p1", prompt: "go", continueLatest: true, fork: true, extraArgs: ["--max-turns", "2"], timeoutMs: 10_000 });
    expect(resultOf(ctx, "p1")?.args).toMatch(/^-p go --output-format stream-json --verbose .*--max-turns 2 --continue --fork-session$/);
  });

  it("writes the prompt on stdin when asked, and resumes an earlier session's id", async () => {
    const ctx = context("print-turn");
    await executeStep(ctx, { kind: "print", session: "p1", prompt: "one", timeoutMs: 10_000 });
    const first = ctx.sessions.get("p1")!.process.sessionId!;
    await executeStep(ctx, { kind: "print", session: "p2", prompt: "two on stdin", via: "stdin", resume: "p1", timeoutMs: 10_000 });
    const result = resultOf(ctx, "p2");
    expect(result?.stdin).toBe("two on stdin");
    expect(result?.args).toMatch(new RegExp(`--resume ${first}$`));
    expect(ctx.sessions.get("p2")!.process.resumeOf).toBe("p1");
    expect(ctx.sessions.get("p2")!.recording.stdin.map((r) => r.raw)).toEqual(["two on stdin"]);
  });

  it("resumes an id computed from an earlier command's output, and skips the turn when there is none", async () => {
    const ctx = context("print-turn");
    fs.mkdirSync(ctx.layout.commands, { recursive: true });
    fs.writeFileSync(path.join(ctx.layout.commands, "001-agents.json"), JSON.stringify({ label: "agents", exitCode: 0, stdout: "bg-123" }));
    Object.assign(ctx, { terminals: new Map() });
    await executeStep(ctx, { kind: "print", session: "p1", prompt: "go", resumeFrom: (view) => view.commands["agents"]?.stdout ?? null, timeoutMs: 10_000 });
    expect(resultOf(ctx, "p1")?.args).toMatch(/--resume bg-123$/);
    const skipped = await executeStep(ctx, { kind: "print", session: "p2", prompt: "go", resumeFrom: () => null, timeoutMs: 10_000 });
    expect(skipped.detail).toMatch(/skipped/);
    expect(ctx.sessions.has("p2")).toBe(false);
  });

  it("keeps the prompt out of reach of a list option such as --allowedTools <tools...>", async () => {
    const ctx = context("print-turn");
    (ctx as { permissions: unknown }).permissions = { mode: "allowed-tools", args: ["--allowedTools", "Bash,Task"], why: "old release as root" };
    await executeStep(ctx, { kind: "print", session: "p1", prompt: "the prompt", timeoutMs: 10_000 });
    expect(resultOf(ctx, "p1")?.args).toMatch(/^-p the prompt .*--allowedTools Bash,Task( |$)/);
  });

  it("kills a process still running at the timeout that sent no request, and fails the step (a hang)", { timeout: 30_000 }, async () => {
    const ctx = context("hang");
    await expect(executeStep(ctx, { kind: "print", session: "p1", prompt: "x", timeoutMs: 500 })).rejects.toThrow(/still running after 500 ms and was killed; it sent no request \(it hangs\)/);
    expect(ctx.sessions.get("p1")!.running).toBe(false);
  });

  it("counts only its own requests: earlier sessions' do not make a silent hang a timeout", { timeout: 30_000 }, async () => {
    const ctx = context("hang", [{ seq: 1 }]);
    await expect(executeStep(ctx, { kind: "print", session: "p1", prompt: "x", timeoutMs: 500 })).rejects.toThrow(/it sent no request \(it hangs\)/);
  });

  it("kills one that did ask the API (retrying, say) and reports the point not reached, not a harness failure", { timeout: 30_000 }, async () => {
    const requests: unknown[] = [];
    const ctx = context("hang", requests);
    // The fixture sends nothing; the request it would have made arrives while it runs.
    setTimeout(() => requests.push({ seq: 1 }), 100);
    const outcome = await executeStep(ctx, { kind: "print", session: "p1", prompt: "x", timeoutMs: 500 });
    expect(outcome).toEqual({ outcome: "timeout", detail: "claude -p (session p1) was still running after 500 ms and was killed: not reached" });
    expect(ctx.sessions.get("p1")!.running).toBe(false);
  });

  it("ends at once on the run's abort (Ctrl-C, a fault), killing the process, instead of waiting out its limit", { timeout: 30_000 }, async () => {
    const controller = new AbortController();
    const ctx = context("hang", [], controller.signal);
    setTimeout(() => controller.abort(new Error("the run was interrupted")), 300);
    const started = Date.now();
    await expect(executeStep(ctx, { kind: "print", session: "p1", prompt: "x", timeoutMs: 20_000 })).rejects.toThrow("the run was interrupted");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(ctx.sessions.get("p1")!.running).toBe(false);
  });
});
