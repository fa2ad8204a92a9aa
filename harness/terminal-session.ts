// One interactive claude UI in a pseudo-terminal of a fixed size: node-pty drives it, @xterm/headless keeps the screen.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import xterm from "@xterm/headless";
import { spawn, type IPty } from "node-pty";
import { startingProcess, type SessionProcess, type SessionRecording } from "./recordings.ts";
import type { TerminalFiles } from "./run-layout.ts";
import { clockNow } from "../core/time.ts";

export interface TerminalSpawn {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  cols: number;
  rows: number;
  files: TerminalFiles;
  // Called after every parsed output chunk or state change, so waiters re-check their predicates.
  onChange: () => void;
}

const SIGNAL_NAMES = new Map(Object.entries(os.constants.signals).map(([name, number]) => [number, name]));

export class TerminalSession {
  readonly recording: SessionRecording;
  readonly process: SessionProcess;
  readonly exited: Promise<void>;
  private readonly pty: IPty;
  private readonly term: InstanceType<typeof xterm.Terminal>;
  private lastOutputAt = Date.now();

  constructor(private readonly spec: TerminalSpawn) {
    fs.mkdirSync(spec.files.dir, { recursive: true });
    for (const file of [spec.files.input, spec.files.output]) fs.writeFileSync(file, "");
    this.process = startingProcess(spec.label, [spec.command, ...spec.args], null);
    this.recording = { label: spec.label, stdout: [], stdin: [], process: this.process };
    this.term = new xterm.Terminal({ cols: spec.cols, rows: spec.rows, allowProposedApi: true, scrollback: 1000 });
    // node-pty starts the child in a new session, so its pid is also its process group.
    // node-pty sets PWD to the cwd it is given, and claude lists a PWD that is not its real working directory as an
    // additional working directory (a run's iso/work outside git is a link): the real path keeps the two one.
    const cwd = fs.realpathSync(spec.cwd);
    this.pty = spawn(spec.command, spec.args, { name: spec.env["TERM"] ?? "xterm-256color", cols: spec.cols, rows: spec.rows, cwd, env: spec.env });
    this.process.pid = this.pty.pid;
    this.pty.onData((data) => {
      this.lastOutputAt = Date.now();
      fs.appendFileSync(spec.files.output, `${JSON.stringify({ t: clockNow(), data })}\n`);
      // The screen reflects a chunk only once xterm has parsed it; waiters look after that.
      this.term.write(data, () => spec.onChange());
    });
    this.exited = new Promise<void>((resolve) => {
      this.pty.onExit(({ exitCode, signal }) => {
        this.process.endedAt = clockNow();
        this.process.exitCode = signal ? null : exitCode;
        this.process.signal = signal ? (SIGNAL_NAMES.get(signal) ?? String(signal)) : null;
        this.persist();
        // Output still queued in xterm lands first, so the final screen is complete when `exited` resolves.
        this.term.write("", () => {
          spec.onChange();
          resolve();
        });
      });
    });
    this.persist();
  }

  // The size it was spawned with: what a replay of its output (the .cast) must use to draw the same screen.
  get cols(): number {
    return this.spec.cols;
  }

  get rows(): number {
    return this.spec.rows;
  }

  get running(): boolean {
    return this.process.endedAt === null;
  }

  // The visible screen as text: each row without trailing blanks, trailing empty rows dropped.
  screen(): string {
    const buffer = this.term.buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < this.term.rows; y += 1) rows.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "");
    while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
    return rows.join("\n");
  }

  // Resolves once every chunk received so far is on the screen.
  settled(): Promise<void> {
    return new Promise((resolve) => this.term.write("", resolve));
  }

  // Resolves once the UI has written nothing for quietMs (or maxMs passed), with the screen up to date: the moment
  // to capture the screen after a keystroke, whose echo and re-render arrive as a burst.
  async quiet(quietMs: number, maxMs: number): Promise<void> {
    const deadline = Date.now() + maxMs;
    for (;;) {
      const idle = Date.now() - this.lastOutputAt;
      if (idle >= quietMs || Date.now() >= deadline || !this.running) break;
      await new Promise((resolve) => setTimeout(resolve, Math.min(quietMs - idle, deadline - Date.now())));
    }
    await this.settled();
  }

  // Whether the UI reads its keys one at a time: its terminal out of canonical (line) mode, as Ink's raw mode sets it,
  // read from the pty's line discipline (`stty -F` on its device). Until then the line discipline echoes what is typed
  // itself and holds it for a whole line, and Enter reaches the UI as a newline, which submits nothing (2.0.5 with
  // --continue draws its prompt before it reads keys). undefined where it cannot be read (no stty, no device name).
  readsKeys(): boolean | undefined {
    const device = (this.pty as IPty & { ptsName?: string }).ptsName;
    if (!device) return undefined;
    const settings = spawnSync("stty", ["-F", device, "-a"], { encoding: "utf8", timeout: 2_000 });
    if (settings.status !== 0) return undefined;
    return /(^|\s)-icanon(\s|;|$)/m.test(settings.stdout);
  }

  // Text as a terminal pastes it: between bracketed-paste markers when the UI asked for them, so a key pressed
  // afterwards (Enter) is never taken as part of the paste, however late the UI reads its input.
  paste(text: string): void {
    this.write(this.term.modes.bracketedPasteMode ? `\x1b[200~${text}\x1b[201~` : text);
  }

  write(keys: string): void {
    if (!this.running) throw new Error(`terminal ${this.spec.label}: the UI has already exited`);
    const record = { t: clockNow(), raw: keys };
    this.recording.stdin.push(record);
    fs.appendFileSync(this.spec.files.input, `${JSON.stringify(record)}\n`);
    this.pty.write(keys);
  }

  // Signals the UI's whole process group; detached daemons are out of its reach (the run's reaper finds them).
  signal(signal: NodeJS.Signals): void {
    if (!this.running || this.process.pid === null) return;
    this.process.stoppedBy.push(signal);
    try {
      process.kill(-this.process.pid, signal);
    } catch {
      // The group is already gone.
    }
    this.persist();
  }

  private persist(): void {
    fs.writeFileSync(this.spec.files.sessionJson, JSON.stringify(this.process, null, 2));
  }
}
