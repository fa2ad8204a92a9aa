// One `claude -p` stream-json process: spawns it in its own process group, records stdin/stdout/stderr with times.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import fs from "node:fs";
import readline from "node:readline";
import type { Readable, Writable } from "node:stream";
import { setTimeout as delay } from "node:timers/promises";
import { startingProcess, toStdoutRecord, type SessionProcess, type SessionRecording } from "./recordings.ts";
import type { SessionLayout } from "./run-layout.ts";
import { isSystem } from "./stream-events.ts";
import { clockNow } from "../core/time.ts";

// After the process exits, how long its last stdout and stderr output gets to arrive when something else holds the pipes.
const STDOUT_DRAIN_MS = 2000;

export interface SessionSpawn {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  files: SessionLayout;
  resumeOf: string | null;
  // Called after every recorded stdout line or state change, so waiters re-check their predicates.
  onChange: () => void;
}

export class HeadlessSession {
  readonly recording: SessionRecording;
  readonly process: SessionProcess;
  readonly exited: Promise<void>;
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private stdinClosed = false;
  private recentStderr = "";

  constructor(private readonly spec: SessionSpawn) {
    fs.mkdirSync(spec.files.dir, { recursive: true });
    for (const file of [spec.files.stdout, spec.files.stdin]) fs.writeFileSync(file, "");
    this.process = startingProcess(spec.label, [spec.command, ...spec.args], spec.resumeOf);
    this.recording = { label: spec.label, stdout: [], stdin: [], process: this.process };
    // A plain spawn with three pipes, read as streams and never buffered: all that execa would add here is its
    // loading, a tenth of a second of CPU on every run.
    this.child = spawn(spec.command, spec.args, {
      env: spec.env,
      cwd: spec.cwd,
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group, so the whole tree can be signalled at once.
      detached: true,
    });
    this.process.pid = this.child.pid ?? null;
    this.child.stderr.pipe(fs.createWriteStream(spec.files.stderr));
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.recentStderr = (this.recentStderr + chunk.toString("utf8")).slice(-4096);
    });
    // A write to a process that already died must not crash the harness.
    this.child.stdin.on("error", () => undefined);
    const lines = readline.createInterface({ input: this.child.stdout, crlfDelay: Infinity });
    lines.on("line", (raw) => this.recordStdout(raw));
    const linesDone = new Promise<void>((resolve) => lines.once("close", resolve));
    const stderrDone = new Promise<void>((resolve) => this.child.stderr.once("close", resolve));
    // The exit is recorded when the process itself ends: a descendant that escaped the group (setsid) and
    // inherited stdout can hold the pipe open until the reaper ends it, and that is not the binary still running.
    const ended = new Promise<void>((resolve) => {
      const record = (exitCode: number | null, signal: string | null) => {
        if (this.process.endedAt === null) Object.assign(this.process, { endedAt: clockNow(), exitCode, signal });
        resolve();
      };
      this.child.once("exit", record);
      // A process that never started (no such file, not executable) emits no exit event, only an error.
      this.child.once("error", () => record(null, null));
    });
    this.exited = ended
      .then(() => Promise.race([Promise.all([linesDone, stderrDone]), delay(STDOUT_DRAIN_MS, undefined, { ref: false })]))
      .then(() => {
        this.persist();
        spec.onChange();
      });
    this.persist();
  }

  // The last non-empty stderr line, for error messages about a session that ended unexpectedly.
  stderrTail(): string {
    return this.recentStderr.trim().split("\n").at(-1)?.slice(0, 300) ?? "";
  }

  get running(): boolean {
    return this.process.endedAt === null;
  }

  send(raw: string): void {
    if (this.stdinClosed) throw new Error(`session ${this.spec.label}: stdin is already closed`);
    const record = { t: clockNow(), raw };
    this.recording.stdin.push(record);
    fs.appendFileSync(this.spec.files.stdin, `${JSON.stringify(record)}\n`);
    this.child.stdin.write(`${raw}\n`);
  }

  closeStdin(): void {
    if (this.stdinClosed) return;
    this.stdinClosed = true;
    this.process.stoppedBy.push("close-stdin");
    this.child.stdin.end();
    this.persist();
  }

  // Signals the binary alone, as an orchestrator stopping it would (the Agent SDK kills the process, not its group):
  // what it spawned is left to the binary's own handling, and the run's reaper ends whatever outlives it.
  signal(signal: NodeJS.Signals): void {
    if (!this.running || this.process.pid === null) return;
    this.process.stoppedBy.push(signal);
    try {
      process.kill(this.process.pid, signal);
    } catch {
      // Already gone.
    }
    this.persist();
  }

  private recordStdout(raw: string): void {
    const t = clockNow();
    const record = toStdoutRecord(this.recording.stdout.length, t, raw);
    this.recording.stdout.push(record);
    fs.appendFileSync(this.spec.files.stdout, `${JSON.stringify({ t, raw })}\n`);
    if (record.event && isSystem(record.event, "init") && record.event.session_id) this.learnSessionId(record.event.session_id);
    // `--output-format json` prints no init line: its one result carries the id.
    else if (record.event?.type === "result" && typeof record.event.session_id === "string") this.learnSessionId(record.event.session_id);
    this.spec.onChange();
  }

  // The session's id, from the first place that names it (its init line, its result, or for a text `-p` turn the
  // requests it sent); later ones are the same id.
  learnSessionId(id: string): void {
    if (this.process.sessionId) return;
    this.process.sessionId = id;
    this.persist();
  }

  private persist(): void {
    fs.writeFileSync(this.spec.files.sessionJson, JSON.stringify(this.process, null, 2));
  }
}
