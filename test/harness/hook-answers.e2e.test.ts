// Hooks that answer, on real releases: a PreToolUse hook (matcher Bash) that blocks the model's Bash call, by exit 2 +
// stderr or by a JSON deny decision on stdout, declared in a --settings file or in the project settings. Proven from
// the recordings alone: the hook ran (payload and answer recorded), the next request's tool_result carries the
// hook's reason, and the command never ran (its sentinel file does not exist).
// Measured 2026-12-01, all GREEN on 2.1.332 and 2.1.112. What the model is told differs: for exit 2, both releases
// answer the call with "PreToolUse:Bash hook error: [<the hook's command line>]: blocked by test"; for the JSON deny,
// 2.1.332 says "PreToolUse:Bash hook error: <reason>", 2.1.112 gives the bare reason as the tool_result and adds a
// <system-reminder> text block naming the hook's command. The command line carries the run directory's paths, so
// those bytes differ from run to run. A Stop hook's exit 2 reaches the next request as a user text: "Stop hook
// feedback:\n[<command line>]: <stderr>", on 2.1.332 inside a <system-reminder> that first calls it "the output of a
// hook that the user, their organization or this environment set up".
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { HookCapture, HookReply, PermissionPlan, RunPlan } from "../../harness/plan.ts";
import { recordRun } from "../../harness/record-run.ts";
import { loadRecordings, type Recordings } from "../../harness/recordings.ts";
import { projectSettingsFile, runLayout, userSettingsFile } from "../../harness/run-layout.ts";
import { readRunRecord } from "../../harness/run-record.ts";
import { resolveClaude } from "../../releases/resolve.ts";
import { DEFAULT_SDK_VERSION, installSdk } from "../../releases/sdk-install.ts";
import { E2E_RUNS_DIR, E2E_TIMEOUT_MS } from "../e2e-run.ts";

const MARKER = "CCREPRO_HOOK_ANSWER";
const CHECKOUT = path.resolve(import.meta.dirname, "..", "..");
const REASON = "blocked by test";
const DENY_REASON = "denied by the test's JSON decision";
const RELEASES = (process.env.CCREPRO_HOOK_E2E_RELEASES ?? "2.1.332,2.1.112").split(",");

// The model asks for one Bash call that would write the sentinel, then a Read call, then ends the turn with a text.
function plan(name: string, hooks: HookCapture, permissions?: PermissionPlan): RunPlan {
  return {
    scenario: `hook-answers-${name}`,
    params: {},
    script: {
      streams: [{ stream: "main", firstUserContains: MARKER, hasTool: "Bash" }],
      defaultStream: "side",
      replies: {
        main: {
          "0": { content: [{ type: "tool_use", name: "Bash", input: { command: "echo x > sentinel.txt", description: "write the sentinel" } }] },
          // A call the Bash rule does not match: the record-only "*" entry records it (once), nothing answers it. A missing
          // file, so no byte of this machine reaches the requests. (1.0.128 checks the file before PreToolUse and never
          // calls the hook for it; with an existing file its "*" entry records the call once, as the 2.1 releases do.)
          "1": { content: [{ type: "tool_use", name: "Read", input: { file_path: "/nonexistent/ccrepro-read-probe.txt" } }] },
          "*": { content: [{ type: "text", text: "DONE" }] },
        },
      },
    },
    steps: [
      { kind: "start", session: "s1" },
      { kind: "send", session: "s1", message: { text: `${MARKER} write the sentinel` } },
      { kind: "wait", label: "the turn settled", until: (rec) => !!rec.sessions[0]?.stdout.some((l) => l.event?.type === "result"), timeoutMs: 90_000 },
      { kind: "stop", session: "s1", how: "stdin", graceMs: 10_000 },
    ],
    hooks,
    ...(permissions ? { permissions } : {}),
    timeoutMs: 150_000,
  };
}

// The text of the tool_result that answers the Bash call, from the first main request that carries one.
function toolResultText(rec: Recordings): { seq: number; text: string } | null {
  for (const request of rec.requests.filter((r) => r.stream === "main")) {
    const body = JSON.parse(rec.body(request.seq).toString("utf8")) as { messages: Array<{ content: unknown }> };
    for (const message of body.messages) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content as Array<{ type: string; content?: unknown }>) {
        if (block.type !== "tool_result") continue;
        const content = block.content;
        const text = typeof content === "string" ? content : Array.isArray(content) ? content.map((c: { text?: string }) => c.text ?? "").join("") : "";
        return { seq: request.seq, text };
      }
    }
  }
  return null;
}

async function record(version: string, runPlan: RunPlan) {
  const claude = await resolveClaude(version);
  const installed = runPlan.driver === "sdk" ? await installSdk(DEFAULT_SDK_VERSION) : null;
  const sdk = installed ? { sdk: { requested: DEFAULT_SDK_VERSION, version: installed.version, packageDir: installed.packageDir } } : {};
  const { runDir, record } = await recordRun({ plan: runPlan, claude, requested: version, runsDir: E2E_RUNS_DIR, ...sdk });
  expect(record.harnessError, runDir).toBeNull();
  return { runDir, rec: loadRecordings(runDir), layout: runLayout(runDir) };
}

const exit2: HookReply = { exitCode: 2, stderr: REASON };
const jsonDeny: HookReply = {
  exitCode: 0,
  stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: DENY_REASON } }),
};

describe.sequential.each(RELEASES)("claude %s", (version) => {
  it.each([
    ["flag", "exit 2 + stderr", exit2, REASON],
    ["project", "a JSON deny on stdout", jsonDeny, DENY_REASON],
  ] as const)("a PreToolUse hook declared in %s settings blocks the Bash call with %s", async (source, _how, reply, reason) => {
    const { runDir, rec, layout } = await record(version, plan(`${source}`, { events: ["PreToolUse", "Stop"], source, answers: [{ event: "PreToolUse", matcher: "Bash", replies: [reply] }] }));
    // The hook ran once for the call: its payload is recorded once, with the answer it gave; the Read call is recorded
    // once too, by the record-only entry, with no answer.
    const pre = rec.hooks.filter((h) => h.event === "PreToolUse");
    expect(pre.map((h) => [(h.payload as { tool_name: string }).tool_name, h.answer === null]), runDir).toEqual([
      ["Bash", false],
      ["Read", true],
    ]);
    expect(pre[0]!.payload).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "echo x > sentinel.txt" } });
    expect(pre[0]!.answer).toEqual({ rule: 0, call: 0, exitCode: reply.exitCode, stdout: reply.stdout ?? "", stderr: reply.stderr ?? "", shell: false, signal: null });
    // The record-only events still record (Stop has no answer rule).
    expect(rec.hooks.some((h) => h.event === "Stop" && h.answer === null), runDir).toBe(true);
    // The model is told why: the next request's tool_result carries the hook's text.
    const result = toolResultText(rec);
    expect(result, runDir).not.toBeNull();
    expect(result!.text, runDir).toContain(reason);
    // Whatever of the hook's command line the release quotes is under the run directory (its copy of the recorder).
    expect(result!.text.replaceAll(runDir, "<RUN>"), runDir).not.toContain(CHECKOUT);
    // And the command never ran.
    expect(fs.existsSync(path.join(layout.work, "sentinel.txt")), runDir).toBe(false);
    // The hooks are where the plan declared them, and nowhere else; run.json says so.
    const user = JSON.parse(fs.readFileSync(userSettingsFile(layout), "utf8")) as { hooks?: unknown };
    expect(user.hooks).toBeUndefined();
    const declaredIn = source === "flag" ? layout.flagSettings : projectSettingsFile(layout);
    expect(Object.keys((JSON.parse(fs.readFileSync(declaredIn, "utf8")) as { hooks: object }).hooks).sort()).toEqual(["PreToolUse", "Stop"]);
    const run = readRunRecord(layout.runJson);
    expect(run.settings).toMatchObject({ hookSource: source, sources: source === "project" ? ["user", "project"] : ["user"], hookAnswers: [{ event: "PreToolUse", matcher: "Bash" }] });
    const argv = rec.sessions[0]!.process!.argv;
    if (source === "flag") expect(argv.slice(argv.indexOf("--settings"), argv.indexOf("--settings") + 2)).toEqual(["--settings", layout.flagSettings]);
    else expect(argv).not.toContain("--settings");
  }, E2E_TIMEOUT_MS);

  // A non-tool event answered from the user settings: the first Stop blocks (exit 2), so claude goes on with the hook's
  // text; the second gives exit 0; the third (after a second prompt) gets the last reply again.
  it("a Stop hook in the user settings answers by call index: exit 2 makes the turn go on, the last reply repeats", async () => {
    const prompts = (rec: Recordings) => rec.sessions[0]?.stdout.filter((l) => l.event?.type === "result").length ?? 0;
    const base = plan("stop-user", { events: ["Stop", "UserPromptSubmit"], answers: [{ event: "Stop", replies: [{ exitCode: 2, stderr: "keep going, said the hook" }, { exitCode: 0 }] }] });
    const steps: RunPlan["steps"] = [
      { kind: "start", session: "s1" },
      { kind: "send", session: "s1", message: { text: `${MARKER} first prompt` } },
      { kind: "wait", label: "the first prompt settled", until: (rec) => prompts(rec) >= 1, timeoutMs: 90_000 },
      { kind: "send", session: "s1", message: { text: "second prompt" } },
      { kind: "wait", label: "the second prompt settled", until: (rec) => prompts(rec) >= 2, timeoutMs: 90_000 },
      { kind: "stop", session: "s1", how: "stdin", graceMs: 10_000 },
    ];
    const { runDir, rec, layout } = await record(version, { ...base, steps });
    const stops = rec.hooks.filter((h) => h.event === "Stop");
    // Each Stop call is recorded once (the answering entry covers the event, so there is no record-only one).
    expect(stops.map((h) => [h.answer?.call, h.answer?.exitCode]), runDir).toEqual([
      [0, 2],
      [1, 0],
      [2, 0],
    ]);
    expect(stops[0]!.payload).toMatchObject({ hook_event_name: "Stop" });
    expect(rec.hooks.filter((h) => h.event === "UserPromptSubmit").map((h) => h.answer)).toEqual([null, null]);
    // The hook's stderr reached the model in the request after the first Stop.
    const after = rec.requests.filter((r) => r.stream === "main" && r.receivedAt > stops[0]!.t);
    expect(after.length, runDir).toBeGreaterThan(0);
    expect(rec.body(after[0]!.seq).toString("utf8"), runDir).toContain("keep going, said the hook");
    expect((JSON.parse(fs.readFileSync(userSettingsFile(layout), "utf8")) as { hooks: Record<string, unknown[]> }).hooks.Stop).toHaveLength(1);
  }, E2E_TIMEOUT_MS);

  // A one-shot `claude -p` and the interactive UI get the same --settings file: the one rule answers both sessions'
  // Bash calls, call 0 and call 1 of its shared counter.
  it("print and terminal sessions get the --settings file too, their calls counted by the one rule", async () => {
    const base = plan("flag-print-terminal", { events: ["Stop"], source: "flag", answers: [{ event: "PreToolUse", matcher: "Bash", replies: [exit2] }] });
    const stops = (rec: Recordings) => rec.hooks.filter((h) => h.event === "Stop").length;
    const steps: RunPlan["steps"] = [
      { kind: "print", session: "p1", prompt: `${MARKER} from print`, timeoutMs: 90_000 },
      { kind: "terminal", session: "t1" },
      { kind: "type", session: "t1", text: `${MARKER} from the terminal` },
      { kind: "press", session: "t1", keys: ["enter"] },
      { kind: "wait", label: "the terminal's turn ended", until: (rec) => stops(rec) >= 2, timeoutMs: 90_000 },
    ];
    const { runDir, rec, layout } = await record(version, { ...base, steps });
    const bash = rec.hooks.filter((h) => h.event === "PreToolUse");
    expect(bash.map((h) => [h.answer?.call, h.answer?.exitCode]), runDir).toEqual([
      [0, 2],
      [1, 2],
    ]);
    // One call from each session.
    expect(new Set(bash.map((h) => (h.payload as { session_id: string }).session_id)).size, runDir).toBe(2);
    for (const label of ["p1", "t1"]) {
      const argv = rec.sessions.find((s) => s.label === label)!.process!.argv;
      expect(argv.slice(argv.indexOf("--settings"), argv.indexOf("--settings") + 2), label).toEqual(["--settings", layout.flagSettings]);
    }
    expect(fs.existsSync(path.join(layout.work, "sentinel.txt")), runDir).toBe(false);
  }, E2E_TIMEOUT_MS);

  // Through the Agent SDK, the --settings file is its `settings` option (0.3.197 declares one).
  it(`through the Agent SDK ${DEFAULT_SDK_VERSION}, a hook declared in a --settings file blocks the Bash call with exit 2`, async () => {
    const { runDir, rec, layout } = await record(version, { ...plan("sdk-flag", { events: ["PreToolUse"], source: "flag", answers: [{ event: "PreToolUse", matcher: "Bash", replies: [exit2] }] }), driver: "sdk" });
    const pre = rec.hooks.filter((h) => h.event === "PreToolUse");
    expect(pre.map((h) => (h.payload as { tool_name: string }).tool_name), runDir).toEqual(["Bash", "Read"]);
    expect(pre[0]!.answer).toMatchObject({ call: 0, exitCode: 2, stderr: REASON });
    expect(toolResultText(rec)?.text, runDir).toContain(REASON);
    expect(fs.existsSync(path.join(layout.work, "sentinel.txt")), runDir).toBe(false);
    const sdkPlan = JSON.parse(fs.readFileSync(path.join(layout.sessionsDir, "s1", "sdk-plan.json"), "utf8")) as { options: Record<string, unknown> };
    expect(sdkPlan.options.settings).toBe(layout.flagSettings);
    // And the SDK passed it on: the CLI beneath it got `--settings <file>`.
    const cli = (JSON.parse(fs.readFileSync(path.join(layout.sessionsDir, "s1", "sdk.json"), "utf8")) as { cli: { argv: string[] } }).cli.argv;
    expect(cli.slice(cli.indexOf("--settings"), cli.indexOf("--settings") + 2)).toEqual(["--settings", layout.flagSettings]);
  }, E2E_TIMEOUT_MS);

  // Without the skip flag, the release's own permission logic decides: a deny rule in the settings stops the call.
  // The rule names the command (a bare "Bash" rule takes the tool out of the request's tool list altogether, measured
  // on 2.1.332, and the mock's stream rule would then not know the request).
  it("a plan's own permissions: mode default with a deny rule for the command, no skip flag", async () => {
    const { runDir, rec, layout } = await record(version, plan("deny-rule", { events: ["PreToolUse"] }, { mode: "default", deny: ["Bash(echo:*)"] }));
    const argv = rec.sessions[0]!.process!.argv;
    expect(argv).not.toContain("--dangerously-skip-permissions");
    expect(argv.slice(argv.indexOf("--permission-mode"), argv.indexOf("--permission-mode") + 2)).toEqual(["--permission-mode", "default"]);
    expect(JSON.parse(fs.readFileSync(userSettingsFile(layout), "utf8")).permissions).toEqual({ allow: [], deny: ["Bash(echo:*)"] });
    expect(readRunRecord(layout.runJson).permissions).toMatchObject({ mode: "permission-mode", rules: { mode: "default", deny: ["Bash(echo:*)"] } });
    expect(fs.existsSync(path.join(layout.work, "sentinel.txt")), runDir).toBe(false);
    const result = toolResultText(rec);
    expect(result, runDir).not.toBeNull();
    expect(result!.text, runDir).toMatch(/permission|denied/i);
    // The PreToolUse hook still saw the call (hooks run before the permission check), and the Read call after it.
    expect(rec.hooks.filter((h) => h.event === "PreToolUse").map((h) => (h.payload as { tool_name: string }).tool_name), runDir).toEqual(["Bash", "Read"]);
  }, E2E_TIMEOUT_MS);
});
