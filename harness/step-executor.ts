// Carries out one scenario step against the run's live sessions and recordings.
import type { Step } from "../scenarios/types.ts";
import type { BinaryProbe } from "./capabilities.ts";
import { HeadlessSession } from "./headless-session.ts";
import { headlessArgs } from "./isolation.ts";
import type { LiveRecordings } from "./live-recordings.ts";
import type { ResolvedClaude } from "./release-cache.ts";
import { sessionLayout, type RunLayout } from "./run-layout.ts";
import type { StepRecord } from "./run-record.ts";

// A step that could not be carried out: the run ends with a harness error (ERROR), never a verdict.
export class StepFailure extends Error {}

export interface RunContext {
  layout: RunLayout;
  env: Record<string, string>;
  claude: ResolvedClaude;
  probe: BinaryProbe;
  live: LiveRecordings;
  sessions: Map<string, HeadlessSession>;
  abort: AbortSignal;
  // Marks the moment the last awaited event was recorded (the floor of the run's wall time).
  pointReached: () => void;
}

export interface StepOutcome {
  outcome: StepRecord["outcome"];
  detail: string | null;
}

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

const within = (promise: Promise<unknown>, ms: number): Promise<boolean> =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

export async function executeStep(ctx: RunContext, step: Step): Promise<StepOutcome> {
  switch (step.kind) {
    case "start": {
      const args = [...headlessArgs(sessionLayout(ctx.layout, step.session).debugLog, ctx.probe.flags), ...(step.extraArgs ?? [])];
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
      const outcome = await ctx.live.waitUntil(step.until, step.timeoutMs, ctx.abort);
      if (outcome === "ok") {
        ctx.pointReached();
        return { outcome: "ok", detail: null };
      }
      if (outcome === "aborted") throw ctx.abort.reason as Error;
      if (step.onTimeout === "inconclusive") return { outcome: "timeout", detail: `not reached within ${step.timeoutMs} ms` };
      throw new StepFailure(`timed out after ${step.timeoutMs} ms waiting for: ${step.label}`);
    }
    case "stop": {
      const target = session(ctx, step.session);
      target.closeStdin();
      const exitedInGrace = await Promise.race([
        target.exited.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), step.graceMs)),
      ]);
      if (exitedInGrace || step.how === "stdin") return { outcome: "ok", detail: exitedInGrace ? "exited after stdin closed" : "still running" };
      target.signal(step.how === "sigterm" ? "SIGTERM" : "SIGKILL");
      const exited = await Promise.race([
        target.exited.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
      ]);
      if (!exited) throw new StepFailure(`session ${step.session} did not exit within 10 s of ${step.how}`);
      return { outcome: "ok", detail: `exit ${target.process.exitCode ?? "-"} signal ${target.process.signal ?? "-"}` };
    }
    case "pause":
      await new Promise((resolve) => setTimeout(resolve, step.ms));
      return { outcome: "ok", detail: null };
  }
}
