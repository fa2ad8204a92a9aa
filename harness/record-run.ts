// Records one run plan against one claude binary: mock + isolated sessions + steps, then cleanup. It never judges:
// the pipeline hands the finished run directory to the checker.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { median } from "../core/statistics.ts";
import { startMockServer, type MockServer } from "../mock-api/server.ts";
import { startRecordingProxy, type RecordingProxy } from "../mock-api/recorder.ts";
import { writeRecording } from "../mock-api/recording.ts";
import { mockScriptSchema } from "../mock-api/script.ts";
import type { ResolvedClaude } from "../releases/resolve.ts";
import { probeBinary, type BinaryProbe } from "../releases/capabilities.ts";
import { removeDaemonDir, removeProcessSockets } from "./daemon-hygiene.ts";
import type { HeadlessSession } from "./headless-session.ts";
import { answerRulesProblem, hookSettings, writeHookAnswers } from "./hook-capture.ts";
import { mcpServersProblem, writeMcpConfig } from "./mcp-servers.ts";
import { bringWorkBack, outsideWorkProblem } from "./outside-workdir.ts";
import { buildEnvironment, seedFiles, choosePermissions, chooseSessionSettings, RUN_MARKER_VAR, seedConfig } from "./isolation.ts";
import { LiveRecordings } from "./live-recordings.ts";
import { startOutboundTrap, type OutboundTrap } from "./outbound-trap.ts";
import { automaticReapEnabled, describeOrphanReap, reapOrphanedRuns, reapRun } from "./processes.ts";
import { startWatchdog } from "./watchdog.ts";
import { sha256OfUnchangedFile } from "../releases/binary-info.ts";
import { abortOnUncaught, describeDiskFault, isDiskFault, tolerateDiskFault } from "./record-faults.ts";
import { runLayout, type RunLayout } from "./run-layout.ts";
import { RUN_FORMAT, writeRunRecord, type RunRecord } from "./run-record.ts";
import { StepFailure, type RunContext } from "./run-context.ts";
import { planFingerprint, type RunPlan, type ScenarioSource, type Step } from "./plan.ts";
import type { SdkInstall, SdkSession } from "./sdk-session.ts";
import { executeStep } from "./step-executor.ts";
import type { TerminalSession } from "./terminal-session.ts";
import { clockNow, compactUtc } from "../core/time.ts";

export interface RecordOptions {
  plan: RunPlan;
  claude: ResolvedClaude;
  // The word the user gave (`latest`, a version, a path), recorded as asked.
  requested: string;
  runsDir: string;
  // Aborts the run (e.g. Ctrl-C): steps stop, cleanup still runs, the verdict is ERROR.
  abort?: AbortSignal;
  onProgress?: (line: string) => void;
  // The Agent SDK the plan's sessions go through when plan.driver is "sdk".
  sdk?: SdkInstall;
  // The driver as the run was asked for (terminal scenarios say "terminal"), recorded in run.json.
  driverLabel?: string;
  // Also record the run's API traffic as `ccrepro record` does, through a recording proxy in front of the mock, into
  // this file (a recording, mock-api/recording.ts). The mock then sees the proxy, not claude, as each request's client.
  recordApi?: string;
}

export interface RecordedRun {
  runDir: string;
  record: RunRecord;
  // Why run.json could not be written at the end (a full disk): the file on disk is the last one written, marked
  // incomplete; this message is the run's harness error.
  unwritten?: string;
}

export function runDirName(scenario: string, version: string, id: string): string {
  return `${compactUtc(new Date())}-${scenario}-${version.replace(/[^A-Za-z0-9.]/g, "_")}-${id.slice(0, 6)}`;
}

// What run.json says of the binary: the word asked for, what it is, and what it said its version was.
export function binaryRecord(claude: ResolvedClaude, probe: Pick<BinaryProbe, "reportedVersion">, requested: string): RunRecord["claude"] {
  return {
    requested,
    era: claude.era,
    reportedVersion: probe.reportedVersion,
    executable: claude.executablePath,
    command: claude.command,
    args: claude.args,
    sha256: claude.sha256,
    package: claude.package,
    ...(claude.era !== "local" && Object.keys(claude.dependencies).length > 0 ? { dependencies: claude.dependencies } : {}),
  };
}

// The sha256 of an executable's bytes (remembered while the file is unchanged), or null when it cannot be read.
function bytesThatRun(file: string): Promise<string | null> {
  return sha256OfUnchangedFile(file).catch(() => null);
}

// A file scenario's source goes into the run directory beside run.json, which names the copy.
export function recordSource(layout: RunLayout, source: ScenarioSource): NonNullable<RunRecord["source"]> {
  if (source.kind === "builtin") return source;
  const copy = path.join(path.basename(layout.scenarioDir), path.basename(source.path));
  fs.mkdirSync(layout.scenarioDir, { recursive: true });
  fs.writeFileSync(path.join(layout.root, copy), source.text);
  const data = (source.data ?? []).map((file) => {
    const at = path.join(path.basename(layout.scenarioDir), file.relative);
    fs.mkdirSync(path.dirname(path.join(layout.root, at)), { recursive: true });
    fs.writeFileSync(path.join(layout.root, at), file.bytes);
    return { copy: at, sha256: file.sha256 };
  });
  return { kind: "file", path: source.path, sha256: source.sha256, copy, ...(data.length > 0 ? { data } : {}) };
}

export async function recordRun(options: RecordOptions): Promise<RecordedRun> {
  const { plan, claude } = options;
  const startedAt = clockNow();
  const id = crypto.randomBytes(8).toString("hex");
  const probe = await probeBinary(claude);
  // The bytes that run, hashed while the run goes: the cache's quick check trusts size and time, which can lie.
  const ranSha256 = bytesThatRun(claude.executablePath);
  const version = claude.version ?? probe.reportedVersion ?? "local";
  const layout: RunLayout = runLayout(path.resolve(options.runsDir, runDirName(plan.scenario, version, id)));
  fs.mkdirSync(layout.root, { recursive: true });
  fs.mkdirSync(layout.hooksDir, { recursive: true });
  const progress = options.onProgress ?? (() => undefined);
  // What a run killed before its cleanup left running (its ccrepro gone) ends now, and the user is told.
  // Only what is provably an orphan of this user's, in this pid namespace (issue 41); off with CCREPRO_NO_REAP=1.
  const reapedOrphans = automaticReapEnabled() ? await reapOrphanedRuns(RUN_MARKER_VAR) : null;
  for (const orphan of reapedOrphans ?? []) progress(describeOrphanReap(orphan));
  const script = mockScriptSchema.parse(plan.script);
  const permissions = choosePermissions(probe, process.getuid?.() === 0, plan.permissions);
  const hookEvents = plan.hooks ? (plan.hooks.events === "all" ? probe.hookEvents : plan.hooks.events) : [];
  const hookAnswers = plan.hooks?.answers ?? [];
  const hookSource = plan.hooks?.source ?? "user";
  const sessionSettings = chooseSessionSettings(layout, probe, { settingSources: plan.settingSources, hookSource });
  const mcpServers = plan.mcpServers ?? [];
  if (mcpServers.length > 0) sessionSettings.settings.mcpConfig = layout.mcpConfig;

  const record: RunRecord = {
    format: RUN_FORMAT,
    id,
    scenario: plan.scenario,
    source: recordSource(layout, plan.source ?? { kind: "builtin", name: plan.scenario }),
    params: plan.params,
    claude: binaryRecord(claude, probe, options.requested),
    driver: options.driverLabel ?? plan.driver ?? "headless",
    sdk: options.sdk ? { requested: options.sdk.requested, version: options.sdk.version, packageDir: options.sdk.packageDir } : null,
    mock: { url: "", script },
    planSha256: planFingerprint(plan),
    platform: `${process.platform}-${process.arch}`,
    hookEvents,
    startedAt: new Date(startedAt).toISOString(),
    endedAt: null,
    wallMs: null,
    floorMs: null,
    steps: [],
    stepsSkipped: [],
    sessions: [],
    outbound: { attempts: 0, forwardedToMock: 0 },
    permissions,
    settings: {
      sources: sessionSettings.settings.sources,
      flagFile: sessionSettings.settings.flagFile === null ? null : path.relative(layout.root, sessionSettings.settings.flagFile),
      hookSource,
      hookAnswers,
    },
    ...(mcpServers.length > 0 ? { mcpServers } : {}),
    processes: { killedAtEnd: 0, survivors: [], outsideRemoved: [], orphansReaped: reapedOrphans },
    hooks: { calls: 0, medianMs: null, maxMs: null },
    harnessError: null,
    recordingComplete: false,
    result: null,
    checkMs: null,
  };
  writeRunRecord(layout.runJson, record);

  // Started before any process of the run: if ccrepro is killed from here on, the watchdog ends what it started.
  const watchdog = startWatchdog({ name: RUN_MARKER_VAR, value: id });
  let trap: OutboundTrap | null = null;
  let mock: MockServer | null = null;
  let recorder: RecordingProxy | null = null;
  const live = new LiveRecordings(layout.root, layout.mockLog);
  const sessions = new Map<string, HeadlessSession | SdkSession>();
  const terminals = new Map<string, TerminalSession>();
  const runAbort = new AbortController();
  // A write that fails in an event handler (a full disk) ends the run, not the process: the cleanup still reaps.
  const stopCatching = abortOnUncaught(layout.root, (message) => runAbort.abort(new StepFailure(message)));
  const diskFault = (message: string) => {
    record.harnessError ??= message;
  };
  const onUserAbort = () => runAbort.abort(new StepFailure("the run was interrupted"));
  options.abort?.addEventListener("abort", onUserAbort);
  // An abort that came earlier (e.g. Ctrl-C during the probe or the mock's start) fires no event any more.
  if (options.abort?.aborted) onUserAbort();
  const overall = setTimeout(
    () => runAbort.abort(new StepFailure(`the whole run exceeded its ${plan.timeoutMs} ms limit`)),
    plan.timeoutMs,
  );
  let pointReachedAt: number | null = null;
  let timedOut = false;
  let unexpected: unknown;
  let unwritten: string | undefined;

  try {
    if (probe.reportedVersion === null) {
      throw new StepFailure(
        `${claude.executablePath} did not report a version (${probe.versionError ?? "\`--version\` printed none, or hung"}): ` +
          "run it with --version yourself to see why (a copy of 0.2.90–0.2.109 without the better-sqlite3 its package declares fails so; `ccrepro install` installs it beside them), or pick another release with --claude",
      );
    }
    if (plan.driver === "sdk" && !options.sdk) throw new StepFailure("the plan uses the sdk driver but no Agent SDK was installed for it");
    // A request the mock cannot log (a full disk) ends the run as that harness error, once; no stack is printed.
    const onLogFault = (error: Error) => {
      if (runAbort.signal.aborted) return;
      runAbort.abort(new StepFailure(isDiskFault(error) ? describeDiskFault(error, layout.root) : `the mock failed to serve a request: ${error.message}`));
    };
    mock = await startMockServer({ script, port: 0, logDir: layout.mockLog, identifyClients: true, onLogFault });
    record.mock.url = mock.url;
    const mockAddress = new URL(mock.url);
    trap = await startOutboundTrap(layout.outboundLog, { host: mockAddress.hostname, port: Number(mockAddress.port) });
    if (options.recordApi) recorder = await startRecordingProxy({ upstream: mock.url, env: process.env });
    const env = buildEnvironment(layout, { runId: id, mockUrl: recorder?.url ?? mock.url, trapUrl: trap.url, passThrough: plan.passEnv, scenarioEnv: plan.env });
    const mcpProblem = mcpServersProblem(mcpServers, probe, plan.driver ?? "headless");
    const workProblem = plan.gitRepository === false ? outsideWorkProblem(layout) : null;
    for (const problem of [permissions.unavailable, sessionSettings.problem, answerRulesProblem(hookAnswers), mcpProblem, workProblem]) if (problem) throw new StepFailure(problem);
    writeHookAnswers(layout, hookAnswers);
    if (mcpServers.length > 0) writeMcpConfig(layout, mcpServers);
    const hooks = hookEvents.length + hookAnswers.length > 0 ? hookSettings(layout, hookEvents, hookAnswers) : undefined;
    const rules = permissions.rules;
    seedConfig(layout, hooks, { source: hookSource, ...(rules ? { permissions: { allow: rules.allow, deny: rules.deny } } : {}) }, plan.gitRepository !== false, {
      version,
      apiKey: env["ANTHROPIC_API_KEY"],
    });
    if (plan.files) {
      try {
        const seeded = seedFiles(layout, plan.files);
        progress(`seeded ${seeded.length} file(s): ${seeded.join(", ")}`);
      } catch (error) {
        throw new StepFailure(`the scenario's files could not be seeded: ${(error as Error).message}; fix its \`files\` (relative paths, JSON objects for config's settings.json and .claude.json) and run again`);
      }
    }
    const ctx: RunContext = {
      layout,
      env,
      claude,
      probe,
      permissions,
      settings: sessionSettings.settings,
      live,
      sessions,
      terminals,
      driver: plan.driver ?? "headless",
      sdk: options.sdk ?? null,
      abort: runAbort.signal,
      pointReached: () => {
        pointReachedAt = clockNow();
      },
    };
    const labelOf = (step: Step) => ("label" in step ? step.label : `${step.kind} ${"session" in step ? step.session : ""}`.trim());
    for (const [index, step] of plan.steps.entries()) {
      if (runAbort.signal.aborted) throw runAbort.signal.reason as Error;
      const label = labelOf(step);
      const stepStart = clockNow();
      progress(`step ${index + 1}: ${label}`);
      try {
        const { outcome, detail, mayTimeOut } = await executeStep(ctx, step);
        record.steps.push({ index, kind: step.kind, label, startedAt: stepStart, endedAt: clockNow(), outcome, detail, ...(mayTimeOut ? { mayTimeOut } : {}) });
        if (outcome === "timeout" && !mayTimeOut) {
          progress(`step ${index + 1} timed out (${detail ?? label}): the run is INCONCLUSIVE unless the check finds the bug in what came before`);
          timedOut = true;
          // What never ran is recorded, so the verdict can say the run stopped short.
          record.stepsSkipped = plan.steps.slice(index + 1).map(labelOf);
          break;
        }
      } catch (thrown) {
        const error = blameCondition(thrown, plan.scenario, index, step);
        record.steps.push({ index, kind: step.kind, label, startedAt: stepStart, endedAt: clockNow(), outcome: "error", detail: error.message });
        throw error;
      } finally {
        tolerateDiskFault(() => writeRunRecord(layout.runJson, record), layout.root, diskFault);
      }
    }
    // A scenario without a wait (`-p` turns run to their exit) reaches its point when its last step is done: the
    // bench's floor is then every session's own time, start to exit.
    if (pointReachedAt === null && !timedOut) pointReachedAt = clockNow();
  } catch (error) {
    // A bug of ccrepro's own is still a harness error for this run; the caller sees its stack too.
    if (isDiskFault(error)) record.harnessError ??= describeDiskFault(error, layout.root);
    else record.harnessError = error instanceof StepFailure ? error.message : `ccrepro failed: ${(error as Error).stack ?? String(error)}`;
    if (!(error instanceof StepFailure) && !isDiskFault(error)) unexpected = error;
  } finally {
    clearTimeout(overall);
    options.abort?.removeEventListener("abort", onUserAbort);
    for (const running of sessions.values()) running.closeStdin();
    const reap = await reapRun(
      { name: RUN_MARKER_VAR, value: id },
      [...sessions.values(), ...terminals.values()].flatMap((s) => (s.process.pid === null ? [] : [s.process.pid])),
    );
    await Promise.all([...sessions.values(), ...terminals.values()].map((s) => s.exited));
    watchdog.release(reap.survivors.length === 0);
    tolerateDiskFault(() => live.snapshotAtEnd(), layout.root, diskFault);
    // Every process is gone: a working directory kept outside the run directory comes back into it.
    tolerateDiskFault(() => bringWorkBack(layout), layout.root, diskFault);
    // Only once every process is gone: a live daemon would re-create its socket directory.
    const daemonDir = removeDaemonDir(layout.config);
    const startedPids = [...sessions.values(), ...terminals.values()].flatMap((s) => (s.process.pid === null ? [] : [s.process.pid]));
    const socketsRemoved = removeProcessSockets([...startedPids, ...reap.killed]);
    live.close();
    await recorder?.close();
    if (recorder && options.recordApi) {
      try {
        fs.mkdirSync(path.dirname(options.recordApi), { recursive: true });
        writeRecording(options.recordApi, recorder.recording(), recorder.redactor);
      } catch (error) {
        // Fails closed (the file is gone); the run's own recordings stand.
        record.harnessError ??= `the API recording was not written: ${(error as Error).message}`;
      }
    }
    await mock?.close();
    await trap?.close();
    tolerateDiskFault(() => copyTranscripts(layout), layout.root, diskFault);
    // Once every terminal has exited, so each recording is whole; a failure costs the replays, not the run's verdict.
    try {
      // Only a run with terminals loads the cast writer (and the terminal modules it reads).
      if (terminals.size > 0) {
        (await import("./terminal-steps.ts")).writeEndScreens(layout, terminals.values());
        (await import("./asciicast.ts")).writeTerminalCasts(layout.root, terminals.values(), record.steps);
      }
    } catch (error) {
      progress(`could not write the terminal recordings (.cast): ${(error as Error).message}`);
    }
    record.processes = {
      ...record.processes,
      killedAtEnd: reap.killed.length,
      survivors: reap.survivors,
      outsideRemoved: [...(daemonDir.existed ? [daemonDir.dir] : []), ...socketsRemoved],
    };
    if (reap.survivors.length > 0) {
      record.harnessError ??= `processes of this run survived cleanup: ${reap.survivors.join(", ")}`;
    }
    if (daemonDir.leftover) record.harnessError ??= `the daemon socket directory ${daemonDir.dir} could not be removed`;
    if (live.workdirErrors.length > 0) record.harnessError ??= `the working directory could not be snapshotted: ${live.workdirErrors.join("; ")}`;
    record.outbound = { attempts: trap?.attempts.length ?? 0, forwardedToMock: trap?.forwarded.length ?? 0 };
    record.sessions = [...sessions.values(), ...terminals.values()].map((s) => ({
      label: s.process.label,
      pid: s.process.pid,
      sessionId: s.process.sessionId,
      exitCode: s.process.exitCode,
      signal: s.process.signal,
    }));
    const hookTimes = live.hooks.flatMap((h) => (h.durationMs === null ? [] : [h.durationMs]));
    record.hooks = { calls: live.hooks.length, medianMs: median(hookTimes), maxMs: hookTimes.length ? Math.max(...hookTimes) : null };
    const firstStart = Math.min(...[...sessions.values(), ...terminals.values()].map((s) => s.process.startedAt));
    record.floorMs = pointReachedAt !== null && Number.isFinite(firstStart) ? pointReachedAt - firstStart : null;
    record.endedAt = new Date().toISOString();
    record.wallMs = clockNow() - startedAt;
    // Written last: a run directory without it was cut short (ccrepro killed), and the checker says ERROR.
    const ran = await ranSha256;
    if (ran !== null && ran !== record.claude.sha256) {
      record.harnessError ??= `the executable that ran, ${claude.executablePath}, is not the bytes that were installed: its sha256 is ${ran}, the install recorded ${record.claude.sha256}; the verdict says nothing about the release (remove that cache entry and run again)`;
    }
    if (ran !== null) record.claude.sha256 = ran;
    record.recordingComplete = true;
    try {
      writeRunRecord(layout.runJson, record);
    } catch (error) {
      if (!isDiskFault(error)) throw error;
      // run.json keeps its last whole version, which says the recording is incomplete; the caller reports why.
      unwritten = record.harnessError ?? describeDiskFault(error, layout.root);
    }
    stopCatching();
  }
  if (unexpected !== undefined) throw unexpected;
  return { runDir: layout.root, record, ...(unwritten === undefined ? {} : { unwritten }) };
}

// A wait's condition is the scenario's code: when it throws, the run is an ERROR that names the scenario and the step
// (ccrepro's own failures stay unexpected, with their stack).
function blameCondition(error: unknown, scenario: string, index: number, step: Step): Error {
  if (error instanceof StepFailure || !("until" in step)) return error as Error;
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new StepFailure(`scenario ${scenario}, step ${index + 1} (${step.kind} "${step.label}"): its condition threw ${what}; fix that condition in the scenario and run again`);
}

// The binary's own transcripts live in the isolated config dir; a copy beside the other artifacts keeps them findable.
function copyTranscripts(layout: RunLayout): void {
  const projects = path.join(layout.config, "projects");
  if (fs.existsSync(projects)) fs.cpSync(projects, layout.transcripts, { recursive: true });
}
