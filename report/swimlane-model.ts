// Builds the swimlane's model from what a run directory holds: the recordings, the run record's steps, the verdict.
import fs from "node:fs";
import { describeBoundary, findBoundaries } from "../checker/boundaries.ts";
import { isModelRequest } from "../checker/model-request.ts";
import { buildTurnTimeline } from "../checker/turn-timeline.ts";
import type { CheckResult, Finding } from "../core/verdict.ts";
import { stepMarkers, stepMoment } from "../harness/asciicast.ts";
import { loadRecordings, type Recordings, type SessionRecording } from "../harness/recordings.ts";
import { readRunRecord, type StepRecord } from "../harness/run-record.ts";
import { runLayout } from "../harness/run-layout.ts";
import type { BoundaryRule, FindingPin, ProcessKind, ProcessLane, StepTick, SwimlaneModel, TaskLane } from "./swimlane.ts";

export interface SwimlaneOptions {
  steps?: readonly StepRecord[];
  // Prefixes the ids of the elements a click opens, so several runs can share a page.
  idPrefix?: string;
  // The terminal whose player the step ticks seek, and the player's element id.
  player?: { session: string; id: string };
}

// Element ids the report gives a request's diff and a finding's diff; the lead's page uses the same functions.
export const requestTargetId = (prefix: string, seq: number) => `${prefix}req-${seq}`;
export const findingTargetId = (prefix: string, index: number) => `${prefix}finding-${index}`;

// The interactive UI runs without -p; a headless session with it.
function sessionKind(session: SessionRecording): ProcessKind {
  const argv = session.process?.argv ?? [];
  return argv.includes("-p") || argv.includes("--print") ? "headless" : "ui";
}

// Processes the harness did not start show up only as senders of requests: the background session (claude's
// bg-spare / pty hosts) and the daemon, named after their command lines.
function clientKind(command: string | null | undefined): ProcessKind {
  if (!command) return "other";
  // First: a background session's command line names the daemon's socket directory (cc-daemon-…) too.
  if (/bg-spare|--bg\b|background/.test(command)) return "background";
  if (/\bdaemon\b/.test(command)) return "daemon";
  return "other";
}

// Where a finding happened: the request it names (data.seq, else the last "req N" of where), else the stdout line it
// names (data.session + data.line), else the end of the run.
function findingTime(f: Finding, rec: Recordings, end: number): number {
  const seq = typeof f.data["seq"] === "number" ? f.data["seq"] : Number([...f.where.matchAll(/req (\d+)/g)].at(-1)?.[1] ?? NaN);
  const request = rec.requests.find((r) => r.seq === seq);
  if (request) return request.receivedAt;
  const session = rec.sessions.find((s) => s.label === f.data["session"]);
  const line = f.data["line"];
  if (session && typeof line === "number" && session.stdout[line]) return session.stdout[line].t;
  return end;
}

export function swimlaneModel(rec: Recordings, result: CheckResult | null, options: SwimlaneOptions = {}): SwimlaneModel {
  const prefix = options.idPrefix ?? "";
  const steps = options.steps ?? [];
  const times = [
    ...rec.sessions.flatMap((s) => [s.process?.startedAt, s.process?.endedAt, s.stdout[0]?.t, s.stdout.at(-1)?.t]),
    ...rec.requests.flatMap((r) => [r.receivedAt, rec.responseEnds.get(r.seq)?.endedAt]),
    ...rec.hooks.map((h) => h.t),
    ...steps.flatMap((s) => [s.startedAt, s.endedAt]),
  ].filter((t): t is number => typeof t === "number" && Number.isFinite(t));
  const start = times.length ? Math.min(...times) : 0;
  const end = times.length ? Math.max(...times) : 1;

  const processes: ProcessLane[] = rec.sessions.map((s) => ({
    id: s.label,
    kind: sessionKind(s),
    label: s.label,
    start: s.process?.startedAt ?? s.stdout[0]?.t ?? start,
    end: s.process ? s.process.endedAt : (s.stdout.at(-1)?.t ?? null),
    observed: false,
    detail: s.process ? `pid ${s.process.pid ?? "?"}, exit ${s.process.exitCode ?? "-"}, signal ${s.process.signal ?? "-"}${s.process.stoppedBy.length ? `, stopped by ${s.process.stoppedBy.join(", ")}` : ""}` : "no process record",
  }));
  const byPid = new Map(rec.sessions.flatMap((s) => (s.process?.pid == null ? [] : [[s.process.pid, s.label] as const])));
  const observed = new Map<number, ProcessLane>();
  const processOf = (pid: number | null | undefined, command: string | null | undefined, t: number, until: number): string | null => {
    if (pid == null) return null;
    const own = byPid.get(pid);
    if (own !== undefined) return own;
    const lane = observed.get(pid) ?? { id: `pid-${pid}`, kind: clientKind(command), label: `pid ${pid}`, start: t, end: until, observed: true, detail: command ?? "command unknown" };
    lane.start = Math.min(lane.start, t);
    lane.end = Math.max(lane.end ?? until, until);
    observed.set(pid, lane);
    return lane.id;
  };

  const streams = [...new Set(rec.requests.filter(isModelRequest).map((r) => r.stream))].map((stream) => ({
    stream,
    requests: rec.requests
      .filter((r) => r.stream === stream)
      .map((r) => {
        const ended = rec.responseEnds.get(r.seq);
        return {
          seq: r.seq,
          start: r.receivedAt,
          end: ended?.endedAt ?? null,
          step: r.step,
          stopReason: r.reply.stopReason,
          summary: r.reply.summary,
          outcome: ended?.outcome ?? "no response end",
          processId: processOf(r.client.pid, r.client.command, r.receivedAt, ended?.endedAt ?? r.receivedAt),
          target: requestTargetId(prefix, r.seq),
        };
      }),
  }));

  const tasks: TaskLane[] = rec.sessions.flatMap((s) => {
    const bars = new Map<string, TaskLane["tasks"][number]>();
    for (const entry of buildTurnTimeline(s).entries) {
      if (entry.kind !== "task" || entry.taskId === null) continue;
      const bar = bars.get(entry.taskId) ?? { taskId: entry.taskId, start: entry.t, end: null, status: null };
      if (entry.subtype === "task_notification") Object.assign(bar, { end: entry.t, status: entry.status });
      bars.set(entry.taskId, bar);
    }
    return bars.size ? [{ session: s.label, tasks: [...bars.values()] }] : [];
  });

  const seqTime = new Map(rec.requests.map((r) => [r.seq, r.receivedAt]));
  const boundaries: BoundaryRule[] = [
    ...rec.sessions.flatMap((s): BoundaryRule[] => {
      const p = s.process;
      // A signal in stoppedBy is a scenario's stop step; every session gets its stdin closed at the end of a run, and
      // the reaper's kills are not stops the scenario made.
      const signals = p?.stoppedBy.filter((how) => how.startsWith("SIG")) ?? [];
      if (!p || p.endedAt === null || signals.length === 0) return [];
      return [{ t: p.endedAt, kind: signals.includes("SIGKILL") ? "kill" : "stop", label: `${s.label} stopped by ${signals.join(", ")}` }];
    }),
    // Where each stream carried on after its pause (findBoundaries' resume and stop kinds alike).
    ...findBoundaries(rec).map((b): BoundaryRule => ({ t: seqTime.get(b.after) ?? end, kind: "resume", label: describeBoundary(b) })),
  ];

  const findings: FindingPin[] = (result?.findings ?? []).map((f, i) => ({
    id: f.id,
    t: findingTime(f, rec, end),
    red: f.red,
    title: f.title,
    where: f.where,
    target: findingTargetId(prefix, i),
  }));

  // Steps the terminal lived through seek its recording: seconds from its spawn, as in its .cast.
  const terminal = options.player ? rec.sessions.find((s) => s.label === options.player!.session)?.process ?? undefined : undefined;
  const stepTicks: StepTick[] = steps.map((s) => {
    const t = stepMoment(s);
    const inCast = terminal !== undefined && stepMarkers([s], { start: terminal.startedAt, end: terminal.endedAt }).length > 0;
    return {
      t,
      label: `${s.index + 1} ${s.label}`,
      seek: inCast ? Math.max(0, t - terminal.startedAt) / 1000 : null,
      player: inCast ? options.player!.id : null,
    };
  });

  return {
    start,
    end: Math.max(end, start + 1),
    verdict: result?.verdict ?? null,
    steps: stepTicks,
    processes: [...processes, ...observed.values()],
    streams,
    tasks,
    hooks: rec.hooks.map((h) => ({ t: h.t, event: h.event, detail: h.durationMs === null ? "" : `hook ran ${h.durationMs} ms` })),
    boundaries,
    findings,
  };
}

// From a run directory alone; null when there is no run.json to read.
/** @internal exported for its unit tests */
export function loadSwimlaneModel(runDir: string, options: Omit<SwimlaneOptions, "steps"> = {}): SwimlaneModel | null {
  const layout = runLayout(runDir);
  if (!fs.existsSync(layout.runJson)) return null;
  const record = readRunRecord(layout.runJson);
  return swimlaneModel(loadRecordings(runDir), record.result, { ...options, steps: record.steps });
}
