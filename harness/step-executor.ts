// Carries out one scenario step against the run's live sessions and recordings.
import type { Step } from "./plan.ts";
import { HeadlessSession } from "./headless-session.ts";
import { headlessArgs } from "./isolation.ts";
import { StepFailure, type RunContext, type StepResult } from "./run-context.ts";
import { sessionLayout } from "./run-layout.ts";
import { executeTerminalStep } from "./terminal-steps.ts";

// How long a signalled session gets to exit before the next, harder signal.
const SIGNAL_GRACE_MS = 10_000;

function session(ctx: RunContext, label: string): HeadlessSession {
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
function describeExit(target: HeadlessSession): string {
  const { label, exitCode, signal } = target.process;
  const how = signal ? `was killed by ${signal}` : `exited with code ${exitCode}`;
  const stderr = target.stderrTail();
  return `claude (session ${label}) ${how}${stderr ? `: ${stderr}` : " and printed nothing on stderr"}`;
}

const within = (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

export async function executeStep(ctx: RunContext, step: Step): Promise<StepResult> {
  switch (step.kind) {
    case "start": {
      const args = [...headlessArgs(sessionLayout(ctx.layout, step.session).debugLog, ctx.probe, ctx.permissions), ...(step.extraArgs ?? [])];
      let resumeOf: string | null = null;
      if (step.resume) {
        const earlier = session(ctx, step.resume).process.sessionId;
        if (!earlier) throw new StepFailure(`session "${step.resume}" never reported a session id to resume`);
        args.push("--resume", earlier);
        resumeOf = step.resume;
      }
      const started = new HeadlessSession({
        label: step.session,
        command: ctx.claude.command,
        args: [...ctx.claude.args, ...args],
        env: ctx.env,
        cwd: ctx.layout.work,
        files: sessionLayout(ctx.layout, step.session),
        resumeOf,
        onChange: () => ctx.live.changed(),
      });
      ctx.sessions.set(step.session, started);
      ctx.live.sessions.push(started.recording);
      return { outcome: "ok", detail: `pid ${started.process.pid}` };
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
        throw new StepFailure(`${describeExit(gone)} while waiting for: ${step.label}`);
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
      if (step.onTimeout === "inconclusive") return { outcome: "timeout", detail: `not reached within ${step.timeoutMs} ms` };
      throw new StepFailure(`timed out after ${step.timeoutMs} ms waiting for: ${step.label}`);
    }
    case "stop": {
      const target = session(ctx, step.session);
      target.closeStdin();
      const exitedInGrace = await within(target.exited, step.graceMs);
      if (exitedInGrace || step.how === "stdin") return { outcome: "ok", detail: exitedInGrace ? "exited after stdin closed" : "still running" };
      target.signal(step.how === "sigterm" ? "SIGTERM" : "SIGKILL");
      let escalated = false;
      if (!(await within(target.exited, SIGNAL_GRACE_MS)) && step.how === "sigterm") {
        // A binary that ignores SIGTERM is still stopped; the record says how.
        target.signal("SIGKILL");
        escalated = true;
      }
      if (!(await within(target.exited, SIGNAL_GRACE_MS))) {
        throw new StepFailure(`session ${step.session} did not exit within ${SIGNAL_GRACE_MS / 1000} s of ${escalated ? "SIGTERM and then SIGKILL" : step.how}`);
      }
      const how = `exit ${target.process.exitCode ?? "-"} signal ${target.process.signal ?? "-"}`;
      return { outcome: "ok", detail: escalated ? `${how} (SIGTERM ignored, escalated to SIGKILL)` : how };
    }
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
      return executeTerminalStep(ctx, step);
  }
}
