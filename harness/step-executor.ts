// Carries out one scenario step against the run's live sessions and recordings.
import fs from "node:fs";
import path from "node:path";
import type { Step } from "./plan.ts";
import { HeadlessSession } from "./headless-session.ts";
import { DEFAULT_SESSION_SETTINGS, headlessArgs, printArgs, sdkQueryOptions } from "./isolation.ts";
import { StepFailure, type RunContext, type StepResult } from "./run-context.ts";
import { sessionLayout } from "./run-layout.ts";
import { SdkSession } from "./sdk-session.ts";
import { editTranscript } from "./transcript-edit.ts";

// How long a signalled session gets to exit before the next, harder signal.
const SIGNAL_GRACE_MS = 10_000;

// The SDK's own escalation after an abort (stdin end, 2 s, SIGTERM, 5 s, SIGKILL) plus the child's wait for the CLI.
const SDK_ABORT_GRACE_MS = 20_000;
// The model every session asks for (the headless flags say the same).
const MODEL = "claude-sonnet-4-5";

function session(ctx: RunContext, label: string): HeadlessSession | SdkSession {
  const found = ctx.sessions.get(label);
  if (!found) throw new StepFailure(`the scenario uses session "${label}" before starting it`);
  return found;
}

function stdinLine(step: Extract<Step, { kind: "send" }>): string {
  const message = step.message;
  if ("json" in message) return JSON.stringify(message.json);
  return JSON.stringify({ type: "user", message: { role: "user", content: message.text } });
}

// "claude (session s1) exited with code 1: <last stderr line>", for a session that ended unasked.
function describeExit(target: HeadlessSession | SdkSession): string {
  const { label, exitCode, signal } = target.process;
  const how = signal ? `was killed by ${signal}` : `exited with code ${exitCode}`;
  const stderr = target.stderrTail();
  const who = target instanceof SdkSession ? "the Agent SDK child" : "claude";
  return `${who} (session ${label}) ${how}${stderr ? `: ${stderr}` : " and printed nothing on stderr"}`;
}

// The SDK's interrupt() as a headless session gets it: the control request the SDK writes to the CLI's stdin.
const interruptRequest = () => JSON.stringify({ type: "control_request", request_id: `ccrepro-${Date.now()}`, request: { subtype: "interrupt" } });

function startSdk(ctx: RunContext, step: Extract<Step, { kind: "start" }>): SdkSession {
  if (!ctx.sdk) throw new StepFailure("the sdk driver needs an installed Agent SDK");
  if (step.extraArgs?.length) throw new StepFailure(`session ${step.session}: extra CLI arguments (${step.extraArgs.join(" ")}) have no sdk-driver equivalent yet`);
  if (step.continueLatest || step.fork) throw new StepFailure(`session ${step.session}: --continue and --fork-session have no sdk-driver equivalent yet; run this scenario with --driver headless`);
  let resume: { of: string; sessionId: string } | null = null;
  if (step.resume) {
    const sessionId = session(ctx, step.resume).process.sessionId;
    if (!sessionId) throw new StepFailure(`session "${step.resume}" never reported a session id to resume`);
    resume = { of: step.resume, sessionId };
  }
  const settings = ctx.settings ?? DEFAULT_SESSION_SETTINGS;
  if (settings.flagFile !== null && !sdkHasSettingsOption(ctx.sdk.packageDir)) {
    throw new StepFailure(`the hooks are declared in a --settings file, but the Agent SDK ${ctx.sdk.version} has no \`settings\` option to pass it`);
  }
  const files = sessionLayout(ctx.layout, step.session);
  return new SdkSession({
    label: step.session,
    sdk: ctx.sdk,
    executable: ctx.claude.executablePath,
    env: ctx.env,
    cwd: ctx.layout.work,
    files,
    resume,
    model: MODEL,
    options: sdkQueryOptions(ctx.permissions, settings, files.debugLog),
    onChange: () => ctx.live.changed(),
  });
}

// Whether the installed SDK declares a `settings` option (its type declarations are part of the package): what the
// SDK does not declare it would not pass to the CLI, and the run would go on without its hooks.
function sdkHasSettingsOption(packageDir: string): boolean {
  const types = path.join(packageDir, "sdk.d.ts");
  return fs.existsSync(types) && /\bsettings\?:/.test(fs.readFileSync(types, "utf8"));
}

async function stopSdk(target: SdkSession, step: Extract<Step, { kind: "stop" }>): Promise<StepResult> {
  const ended = (what: string) => `${what}; child ${target.process.exitCode === null ? "still running" : `exit ${target.process.exitCode}`}`;
  switch (step.how) {
    case "stdin":
      target.command({ op: "end-input" });
      return { outcome: "ok", detail: ended((await within(target.exited, step.graceMs)) ? "the query ended after end-input" : "still running after end-input") };
    case "abort":
      target.command({ op: "abort" });
      break;
    case "close-then-abort":
      target.command({ op: "close-then-abort", ms: step.graceMs });
      break;
    default:
      throw new StepFailure(`session ${step.session}: the sdk driver stops with stdin, abort or close-then-abort, not ${step.how}`);
  }
  const wait = (step.how === "close-then-abort" ? step.graceMs : 0) + SDK_ABORT_GRACE_MS;
  if (!(await within(target.exited, wait))) throw new StepFailure(`the Agent SDK child (session ${step.session}) did not end within ${wait / 1000} s of ${step.how}`);
  return { outcome: "ok", detail: ended(`${step.how} done`) };
}

// The timer is cleared once the promise settles: a pending one would keep ccrepro alive until a step's whole timeout
// had passed after the run ended (a 1 s `print` run exited 2 minutes later).
// True once `promise` settles, false when `ms` pass first or `abort` fires (the caller tells the two apart by it).
function within(promise: Promise<unknown>, ms: number, abort?: AbortSignal): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const expired = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    onAbort = () => resolve(false);
    if (abort?.aborted) resolve(false);
    abort?.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([promise.then(() => true), expired]).finally(() => {
    clearTimeout(timer);
    if (onAbort) abort?.removeEventListener("abort", onAbort);
  });
}

// Which conversation a new process continues: an earlier session's id (--resume), the CLI's own pick (--continue),
// either as a fork; and the scenario's own flags, after the harness's.
interface Continuation {
  resume?: string;
  continueLatest?: boolean;
  fork?: boolean;
  extraArgs?: string[];
}

function spawnSession(ctx: RunContext, label: string, args: string[], continuation: Continuation): HeadlessSession {
  let resumeOf: string | null = null;
  const all = [...args, ...(continuation.extraArgs ?? [])];
  if (continuation.resume) {
    const earlier = session(ctx, continuation.resume).process.sessionId;
    if (!earlier) throw new StepFailure(`session "${continuation.resume}" never reported a session id to resume`);
    all.push("--resume", earlier);
    resumeOf = continuation.resume;
  }
  if (continuation.continueLatest) all.push("--continue");
  if (continuation.fork) all.push("--fork-session");
  const started = new HeadlessSession({
    label,
    command: ctx.claude.command,
    args: [...ctx.claude.args, ...all],
    env: ctx.env,
    cwd: ctx.layout.work,
    files: sessionLayout(ctx.layout, label),
    resumeOf,
    onChange: () => ctx.live.changed(),
  });
  ctx.sessions.set(label, started);
  ctx.live.addSession(started.recording, started.exited);
  return started;
}

// A print's endAfter: waits for its limit (requests seen since the step began, or time) or claude's own exit, whichever
// comes first, within the step's timeout. When the limit came first, claude gets SIGTERM (SIGKILL after the grace) and
// the result says so; "exited" when claude ended by itself, "timeout" when neither happened within timeoutMs.
async function endPrintAfter(ctx: RunContext, started: HeadlessSession, limit: { requests?: number; ms?: number }, timeoutMs: number, requestsBefore: number): Promise<"exited" | "timeout" | { ended: string }> {
  const local = new AbortController();
  const reached = (rec: { requests: readonly unknown[] }) => limit.requests !== undefined && rec.requests.length - requestsBefore >= limit.requests;
  const outcome = await Promise.race([
    started.exited.then(() => "exited" as const),
    ctx.live.waitUntil(reached, Math.min(limit.ms ?? timeoutMs, timeoutMs), AbortSignal.any([ctx.abort, local.signal])),
  ]).finally(() => local.abort());
  if (outcome === "exited") return "exited";
  // The local abort only fires after the race is settled, so "aborted" here is the run's own.
  if (outcome === "aborted") {
    if (ctx.abort.aborted) throw ctx.abort.reason as Error;
    return "exited";
  }
  if (outcome === "timeout" && (limit.ms === undefined || limit.ms > timeoutMs)) return "timeout";
  const seen = ctx.live.requests.length - requestsBefore;
  started.signal("SIGTERM");
  if (!(await within(started.exited, SIGNAL_GRACE_MS))) {
    started.signal("SIGKILL");
    await within(started.exited, SIGNAL_GRACE_MS);
  }
  return { ended: outcome === "ok" ? `ended by the scenario after ${seen} requests (endAfter.requests ${limit.requests})` : `ended by the scenario after ${limit.ms} ms and ${seen} requests (endAfter.ms)` };
}

// Ends a headless session or a UI with SIGTERM or SIGKILL; a SIGTERM that is ignored is followed by SIGKILL (a binary
// that ignores SIGTERM is still stopped), and the record says so.
async function endBySignal(
  target: { signal(signal: NodeJS.Signals): void; exited: Promise<unknown>; process: { exitCode: number | null; signal: string | null } },
  label: string,
  how: "sigterm" | "sigkill",
): Promise<StepResult> {
  target.signal(how === "sigterm" ? "SIGTERM" : "SIGKILL");
  let escalated = false;
  if (!(await within(target.exited, SIGNAL_GRACE_MS)) && how === "sigterm") {
    target.signal("SIGKILL");
    escalated = true;
  }
  if (!(await within(target.exited, SIGNAL_GRACE_MS))) {
    throw new StepFailure(`session ${label} did not exit within ${SIGNAL_GRACE_MS / 1000} s of ${escalated ? "SIGTERM and then SIGKILL" : how}`);
  }
  const ended = `exit ${target.process.exitCode ?? "-"} signal ${target.process.signal ?? "-"}`;
  return { outcome: "ok", detail: escalated ? `${ended} (SIGTERM ignored, escalated to SIGKILL)` : ended };
}

export async function executeStep(ctx: RunContext, step: Step): Promise<StepResult> {
  switch (step.kind) {
    case "start": {
      if (ctx.driver === "sdk") {
        const started = startSdk(ctx, step);
        ctx.sessions.set(step.session, started);
        ctx.live.addSession(started.recording, started.exited);
        return { outcome: "ok", detail: `sdk ${ctx.sdk?.version} child pid ${started.process.pid}` };
      }
      const started = spawnSession(ctx, step.session, headlessArgs(sessionLayout(ctx.layout, step.session).debugLog, ctx.probe, ctx.permissions, ctx.settings), step);
      return { outcome: "ok", detail: `pid ${started.process.pid}` };
    }
    case "print": {
      const resumeId = step.resumeFrom ? step.resumeFrom((await import("./terminal-steps.ts")).commandView(ctx)) : undefined;
      if (resumeId === null) return { outcome: "ok", detail: "skipped: no session id to resume" };
      const [print, ...flags] = printArgs(sessionLayout(ctx.layout, step.session).debugLog, ctx.probe, ctx.permissions, ctx.settings, step.output);
      const via = step.via ?? "arg";
      // The prompt goes right after -p: a trailing argument would be swallowed by a list option such as
      // `--allowedTools <tools...>`, which old releases get (1.0.0 then said no prompt was given).
      const args = via === "arg" ? [print!, step.prompt, ...flags] : [print!, ...flags];
      const requestsBefore = ctx.live.requests.length;
      const started = spawnSession(ctx, step.session, resumeId === undefined ? args : [...args, "--resume", resumeId], step);
      if (via === "stdin") started.send(step.prompt);
      // With the prompt as argument, an open stdin would be read as more prompt: close it either way.
      started.closeStdin();
      const end = step.endAfter ? await endPrintAfter(ctx, started, step.endAfter, step.timeoutMs, requestsBefore) : (await within(started.exited, step.timeoutMs, ctx.abort)) ? "exited" : "timeout";
      if (typeof end === "object") return { outcome: "ok", detail: end.ended };
      if (end === "timeout") {
        started.signal("SIGKILL");
        await within(started.exited, SIGNAL_GRACE_MS);
        // Ctrl-C, the run's own limit, or a fault the run cannot record past (a full disk): the run ends now.
        if (ctx.abort.aborted) throw ctx.abort.reason as Error;
        const still = `claude -p (session ${step.session}) was still running after ${step.timeoutMs} ms and was killed`;
        // No request at all is a binary that hangs; one that asked the API (retrying, waiting out a retry-after) is
        // claude's own behaviour, and the run simply did not reach its point.
        if (ctx.live.requests.length === requestsBefore) throw new StepFailure(`${still}; it sent no request (it hangs)`);
        return { outcome: "timeout", detail: `${still}: not reached` };
      }
      // A text turn prints no id; its requests carry it (x-claude-code-session-id), so a later step can resume it.
      const sent = ctx.live.requests.slice(requestsBefore).find((r) => r.client?.pid === started.process.pid && typeof r.headers["x-claude-code-session-id"] === "string");
      if (sent) started.learnSessionId(sent.headers["x-claude-code-session-id"] as string);
      const { exitCode, signal } = started.process;
      return { outcome: "ok", detail: `pid ${started.process.pid} exit ${exitCode ?? "-"} signal ${signal ?? "-"}` };
    }
    case "send":
      session(ctx, step.session).send(stdinLine(step));
      return { outcome: "ok", detail: null };
    case "wait": {
      // A session that ended on its own cannot produce what is awaited: say so now instead of at the timeout.
      const ended = () => [...ctx.sessions.values()].find((s) => !s.running && s.process.stoppedBy.length === 0);
      const outcome = await ctx.live.waitUntil((rec) => step.until(rec) || ended() !== undefined, step.timeoutMs, ctx.abort);
      const gone = outcome === "ok" && !step.until(ctx.live) ? ended() : undefined;
      if (gone) {
        // Its last words on stderr may still be in the pipe.
        await gone.exited;
        // What was awaited may be the end itself (the working directory's snapshot after that session).
        if (!step.until(ctx.live)) throw new StepFailure(`${describeExit(gone)} while waiting for: ${step.label}`);
      }
      if (outcome === "ok") {
        ctx.pointReached();
        return { outcome: "ok", detail: null };
      }
      if (outcome === "aborted") throw ctx.abort.reason as Error;
      // Silence from every session is a binary that hangs, not a scenario that fell short of its point.
      const silent = [...ctx.sessions.values()].every((s) => s.recording.stdout.length === 0) && ctx.live.requests.length === 0;
      if (silent && ctx.sessions.size > 0) {
        throw new StepFailure(`claude printed nothing and sent no request within ${step.timeoutMs} ms (it hangs) while waiting for: ${step.label}`);
      }
      if (step.onTimeout === "continue") return { outcome: "timeout", detail: `not reached within ${step.timeoutMs} ms; the scenario allows it (onTimeout: "continue")`, mayTimeOut: true };
      if (step.onTimeout === "inconclusive") return { outcome: "timeout", detail: `not reached within ${step.timeoutMs} ms` };
      throw new StepFailure(`timed out after ${step.timeoutMs} ms waiting for: ${step.label}`);
    }
    case "interrupt": {
      const target = session(ctx, step.session);
      if (target instanceof SdkSession) target.command({ op: "interrupt" });
      else target.send(interruptRequest());
      return { outcome: "ok", detail: null };
    }
    case "stop": {
      const ui = ctx.terminals.get(step.session);
      if (ui) {
        // A UI has no stdin of its own to close: it is ended by a signal to its process group.
        if (step.how !== "sigterm" && step.how !== "sigkill") {
          throw new StepFailure(`terminal ${step.session} has no stdin to close: stop it with { how: "sigterm" } or { how: "sigkill" }, or press(${step.session}, "ctrl-c")`);
        }
        return endBySignal(ui, step.session, step.how);
      }
      const target = session(ctx, step.session);
      if (target instanceof SdkSession) return stopSdk(target, step);
      if (step.how === "abort" || step.how === "close-then-abort") {
        throw new StepFailure(`session ${step.session}: "${step.how}" is the sdk driver's stop; headless sessions stop with stdin, sigterm or sigkill`);
      }
      target.closeStdin();
      const exitedInGrace = await within(target.exited, step.graceMs);
      if (exitedInGrace || step.how === "stdin") return { outcome: "ok", detail: exitedInGrace ? "exited after stdin closed" : "still running" };
      return endBySignal(target, step.session, step.how);
    }
    case "edit-transcript":
      return { outcome: "ok", detail: editTranscript(ctx, step) };
    case "pause":
      await new Promise((resolve) => setTimeout(resolve, step.ms));
      return { outcome: "ok", detail: null };
    case "terminal":
    case "type":
    case "press":
    case "screen-wait":
    case "watch":
    case "command":
    case "daemon-exit":
      // Loaded on first use: the terminal's emulator (xterm) and pty cost a headless run's start-up otherwise.
      return (await import("./terminal-steps.ts")).executeTerminalStep(ctx, step);
  }
}
