// The sdk driver's steps (start, resume, send, interrupt, stop) through the real sdk child and a stand-in SDK
// (test/harness/fixtures/fake-sdk: echoes input, reports interrupt() and the end of input; no claude involved).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RUN_MARKER_VAR } from "../../harness/isolation.ts";
import { LiveRecordings } from "../../harness/live-recordings.ts";
import { reapRun } from "../../harness/processes.ts";
import { StepFailure, type RunContext } from "../../harness/run-context.ts";
import { runLayout, sessionLayout } from "../../harness/run-layout.ts";
import { SdkSession } from "../../harness/sdk-session.ts";
import { executeStep } from "../../harness/step-executor.ts";

const FAKE_SDK = path.resolve(import.meta.dirname, "fixtures/fake-sdk");
const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-sdk-steps-"));
const runId = `test-${crypto.randomBytes(6).toString("hex")}`;
const layout = runLayout(path.join(root, runId));
const live = new LiveRecordings(layout.root, layout.mockLog);
fs.mkdirSync(layout.work, { recursive: true });

afterAll(async () => {
  live.close();
  await reapRun({ name: RUN_MARKER_VAR, value: runId }, []);
  fs.rmSync(root, { recursive: true, force: true });
});

const ctx = {
  layout,
  env: { PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: root, [RUN_MARKER_VAR]: runId },
  claude: { executablePath: "/bin/false" },
  permissions: { mode: "skip-permissions", args: ["--dangerously-skip-permissions"], why: "test" },
  live,
  sessions: new Map(),
  terminals: new Map(),
  driver: "sdk",
  sdk: { requested: "fake", version: "0.0.0-fake", packageDir: FAKE_SDK },
  abort: new AbortController().signal,
  pointReached: () => undefined,
} as unknown as RunContext;

const events = (label: string) => ctx.sessions.get(label)!.recording.stdout.map((r) => r.event as Record<string, unknown>);
const until = async (predicate: () => boolean, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const readLines = (file: string) => fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse((JSON.parse(l) as { raw: string }).raw) as unknown);

describe("the sdk driver's steps", { timeout: 30_000 }, () => {
  it("pushes sends into the SDK's input, interrupts, and ends the input on stop how=stdin", async () => {
    await executeStep(ctx, { kind: "start", session: "s1" });
    expect(ctx.sessions.get("s1")).toBeInstanceOf(SdkSession);
    await executeStep(ctx, { kind: "send", session: "s1", message: { text: "hello" } });
    await until(() => events("s1").some((e) => e.type === "echo"));
    await executeStep(ctx, { kind: "interrupt", session: "s1" });
    await until(() => events("s1").some((e) => e.subtype === "interrupted"));
    fs.writeFileSync(path.join(layout.work, "by-s1.txt"), "s1");
    const stop = await executeStep(ctx, { kind: "stop", session: "s1", how: "stdin", graceMs: 10_000 });
    expect(stop.detail).toContain("the query ended after end-input");
    expect(events("s1").map((e) => e.subtype ?? e.type)).toEqual(["init", "echo", "interrupted", "input_ended"]);
    const s1 = ctx.sessions.get("s1")!;
    expect(s1.process.sessionId).toBe("fake-session");
    expect(s1.process.stoppedBy).toEqual(["interrupt", "end-input"]);
    // The working directory was snapshotted once the SDK child ended, before the stop step returned.
    expect(ctx.live.workdir.afterSession.s1?.files.map((f) => f.path)).toEqual(["by-s1.txt"]);
    expect(ctx.live.workdir.afterSession.s1!.t).toBeGreaterThanOrEqual(s1.process.endedAt!);
    const files = sessionLayout(layout, "s1");
    // stdin.jsonl has the pushed message as a headless stdin would; the commands are beside it.
    expect(readLines(files.stdin)).toEqual([{ type: "user", message: { role: "user", content: "hello" } }]);
    expect(readLines(path.join(files.dir, "sdk-commands.jsonl")).map((c) => (c as { op: string }).op)).toEqual(["send", "interrupt", "end-input"]);
    const summary = JSON.parse(fs.readFileSync(path.join(files.dir, "sdk.json"), "utf8")) as Record<string, unknown>;
    expect(summary).toMatchObject({ outcome: "completed", sdk: { version: "0.0.0-fake" } });
  });

  it("resumes the earlier session's id, and aborts on stop how=close-then-abort after ending the input", async () => {
    await executeStep(ctx, { kind: "start", session: "s2", resume: "s1" });
    await until(() => events("s2").length > 0);
    expect(events("s2")[0]).toMatchObject({ subtype: "init", resume: "fake-session" });
    expect(ctx.sessions.get("s2")!.process.resumeOf).toBe("s1");
    const stop = await executeStep(ctx, { kind: "stop", session: "s2", how: "close-then-abort", graceMs: 100 });
    expect(stop.detail).toContain("close-then-abort done");
    expect(ctx.sessions.get("s2")!.process.stoppedBy).toEqual(["close-then-abort 100ms"]);
  });

  it("passes the run's permissions and settings as query() options, and --settings only through an SDK that declares it", async () => {
    const plan = (label: string) => JSON.parse(fs.readFileSync(path.join(sessionLayout(layout, label).dir, "sdk-plan.json"), "utf8")) as { options: Record<string, unknown> };
    const withRules = { ...ctx, permissions: { mode: "permission-mode", args: ["--permission-mode", "plan"], why: "test", rules: { mode: "plan", allow: [], deny: [] } }, settings: { sources: ["user", "project"], flagFile: null } } as RunContext;
    await executeStep(withRules, { kind: "start", session: "s4" });
    expect(plan("s4").options).toEqual({ permissionMode: "plan", settingSources: ["user", "project"], debugFile: sessionLayout(layout, "s4").debugLog });
    await executeStep(ctx, { kind: "stop", session: "s4", how: "abort", graceMs: 0 });
    // The fake SDK has no type declarations, so no `settings` option: refused rather than run without the hooks.
    const flagged = { ...ctx, settings: { sources: ["user"], flagFile: layout.flagSettings } } as RunContext;
    await expect(executeStep(flagged, { kind: "start", session: "s5" })).rejects.toThrow(/has no `settings` option/);
    const declaring = path.join(root, "fake-sdk-with-settings");
    fs.cpSync(FAKE_SDK, declaring, { recursive: true });
    fs.writeFileSync(path.join(declaring, "sdk.d.ts"), "export type Options = {\n  settings?: string | Settings;\n};\n");
    await executeStep({ ...flagged, sdk: { requested: "fake", version: "0.0.0-fake", packageDir: declaring } } as RunContext, { kind: "start", session: "s6" });
    expect(plan("s6").options).toMatchObject({ permissionMode: "bypassPermissions", settings: layout.flagSettings });
    await executeStep(ctx, { kind: "stop", session: "s6", how: "abort", graceMs: 0 });
  });

  it("refuses the headless driver's signals", async () => {
    await executeStep(ctx, { kind: "start", session: "s3" });
    await expect(executeStep(ctx, { kind: "stop", session: "s3", how: "sigkill", graceMs: 0 })).rejects.toThrow(StepFailure);
    await executeStep(ctx, { kind: "stop", session: "s3", how: "abort", graceMs: 0 });
  });
});
