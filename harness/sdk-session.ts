// One session driven through the Agent SDK: `node sdk-child.mjs plan.json` as a process of the run, isolated like a
// headless session. The SDK's messages are the session's stdout; what was pushed into its input is its stdin.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { HeadlessSession } from "./headless-session.ts";
import type { SessionProcess, SessionRecording } from "./recordings.ts";
import { sdkSessionFiles, type SessionLayout } from "./run-layout.ts";
import { END_MARKER, SPAWNED_MARKER, type SdkCommand, type SdkPlan } from "./sdk-child-protocol.mjs";

const CHILD_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "sdk-child.mjs");

// The SDK installed for this run (releases/sdk-install.ts), as the harness needs it.
export interface SdkInstall {
  // The word the user gave (a version, latest), recorded as asked.
  requested: string;
  version: string;
  packageDir: string;
}

export interface SdkSessionSpawn {
  label: string;
  sdk: SdkInstall;
  // The claude executable under test (native binary, or the JS release's cli.js).
  executable: string;
  env: Record<string, string>;
  cwd: string;
  files: SessionLayout;
  resume: { of: string; sessionId: string } | null;
  model: string;
  // query() options for permissions, setting sources, --settings and the debug log; a headless session's defaults
  // (bypass permissions, user settings only) when absent.
  options?: Record<string, unknown>;
  onChange: () => void;
}

// Where the SDK's message stream and the CLI's stdout disagree: CLI lines the SDK never yielded (it consumes control
// messages), and SDK messages that are not a CLI line as it was (rewritten or made up by the SDK). In order, by JSON.
export interface StreamDifference {
  cliLines: number;
  sdkMessages: number;
  droppedBySdk: { line: number; t: number; type: string }[];
  onlyInSdk: { line: number; t: number; type: string }[];
}

const describe = (value: unknown): string => {
  const v = value as { type?: unknown; subtype?: unknown } | null;
  return v && typeof v === "object" ? [v.type, v.subtype].filter((x) => typeof x === "string").join("/") || "?" : "unparsed";
};

function parseOrRaw(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function parseTimed(file: string): { t: number; value: unknown }[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const { t, raw } = JSON.parse(line) as { t: number; raw: string };
      return { t, value: parseOrRaw(raw) };
    });
}

// Pure: walks both streams in order, matching each SDK message to the next CLI line deep-equal to it.
export function compareStreams(cli: { t: number; value: unknown }[], sdk: { t: number; value: unknown }[]): StreamDifference {
  const droppedBySdk: StreamDifference["droppedBySdk"] = [];
  const onlyInSdk: StreamDifference["onlyInSdk"] = [];
  let c = 0;
  sdk.forEach((message, line) => {
    const at = cli.findIndex((entry, i) => i >= c && isDeepStrictEqual(entry.value, message.value));
    if (at < 0) {
      onlyInSdk.push({ line, t: message.t, type: describe(message.value) });
      return;
    }
    for (; c < at; c++) droppedBySdk.push({ line: c, t: cli[c]!.t, type: describe(cli[c]!.value) });
    c = at + 1;
  });
  for (; c < cli.length; c++) droppedBySdk.push({ line: c, t: cli[c]!.t, type: describe(cli[c]!.value) });
  return { cliLines: cli.length, sdkMessages: sdk.length, droppedBySdk, onlyInSdk };
}

// The child's own lines among the CLI's stderr text: the last {"ccreproSdkChild": …} (absent when the child was
// killed before it could write it) and the first {"ccreproSdkChildSpawned": …}.
export function childLines(stderr: string): { end: Record<string, unknown> | null; spawned: Record<string, unknown> | null } {
  const found: { end: Record<string, unknown> | null; spawned: Record<string, unknown> | null } = { end: null, spawned: null };
  for (const line of stderr.split("\n")) {
    if (!line.startsWith("{\"ccreproSdkChild")) continue;
    try {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (parsed[END_MARKER] && typeof parsed[END_MARKER] === "object") found.end = parsed[END_MARKER] as Record<string, unknown>;
      if (!found.spawned && parsed[SPAWNED_MARKER] && typeof parsed[SPAWNED_MARKER] === "object") found.spawned = parsed[SPAWNED_MARKER] as Record<string, unknown>;
    } catch {
      // CLI stderr that merely starts alike.
    }
  }
  return found;
}

export class SdkSession {
  readonly recording: SessionRecording;
  readonly exited: Promise<void>;
  private readonly child: HeadlessSession;
  private readonly extra: ReturnType<typeof sdkSessionFiles>;
  private inputEnded = false;

  constructor(private readonly spec: SdkSessionSpawn) {
    fs.mkdirSync(spec.files.dir, { recursive: true });
    this.extra = sdkSessionFiles(spec.files);
    const plan: SdkPlan = {
      sdkDir: spec.sdk.packageDir,
      pathToClaudeCodeExecutable: spec.executable,
      env: spec.env,
      cwd: spec.cwd,
      model: spec.model,
      resume: spec.resume?.sessionId ?? null,
      // What a headless session gets as flags: no permission prompts, user settings only, the debug log.
      options: spec.options ?? { permissionMode: "bypassPermissions", allowDangerouslySkipPermissions: true, settingSources: ["user"], debugFile: spec.files.debugLog },
      cliStreams: { stdin: this.extra.cliStdin, stdout: this.extra.cliStdout },
    };
    fs.writeFileSync(this.extra.plan, `${JSON.stringify(plan, null, 2)}\n`);
    fs.writeFileSync(spec.files.stdin, "");
    // The child is a process like a headless session's: same process group handling, stdout lines with receive
    // times, stderr to the session's stderr.log. Its stdin lines are our commands, so they go to sdk-commands.jsonl.
    this.child = new HeadlessSession({
      label: spec.label,
      command: process.execPath,
      args: [CHILD_SCRIPT, this.extra.plan],
      env: spec.env,
      cwd: spec.cwd,
      files: { ...spec.files, stdin: this.extra.commands },
      resumeOf: spec.resume?.of ?? null,
      onChange: spec.onChange,
    });
    // The checkers read pushes from stdin: the messages pushed into the SDK's input, as a headless stdin has them.
    this.recording = { label: spec.label, stdout: this.child.recording.stdout, stdin: [], process: this.child.process };
    this.exited = this.child.exited.then(() => this.summarise());
  }

  get process(): SessionProcess {
    return this.child.process;
  }

  get running(): boolean {
    return this.child.running;
  }

  stderrTail(): string {
    return this.child.stderrTail();
  }

  // A stdin line as the headless driver would write it: a user message (or other stream-json object) to push.
  send(raw: string): void {
    if (this.inputEnded) throw new Error(`session ${this.spec.label}: the SDK's input has already ended`);
    const record = { t: Date.now(), raw };
    this.recording.stdin.push(record);
    fs.appendFileSync(this.spec.files.stdin, `${JSON.stringify(record)}\n`);
    this.command({ op: "send", json: JSON.parse(raw) as Record<string, unknown> });
  }

  command(command: SdkCommand): void {
    if (command.op === "end-input" || command.op === "close-then-abort") {
      if (this.inputEnded && command.op === "end-input") return;
      this.inputEnded = true;
    }
    if (!this.running) return;
    if (command.op !== "send") this.process.stoppedBy.push(command.op === "close-then-abort" ? `close-then-abort ${command.ms}ms` : command.op);
    this.child.send(JSON.stringify(command));
  }

  // Ends the SDK's input (what the harness does to every session at the end of a run).
  closeStdin(): void {
    this.command({ op: "end-input" });
  }

  // Signals the child process (the SDK's host); the CLI beneath it is in the same process group, which the reaper ends.
  signal(signal: NodeJS.Signals): void {
    this.child.signal(signal);
  }

  private summarise(): void {
    const stderr = fs.existsSync(this.spec.files.stderr) ? fs.readFileSync(this.spec.files.stderr, "utf8") : "";
    const { end, spawned } = childLines(stderr);
    const sdkLines = this.recording.stdout.map((r) => ({ t: r.t, value: parseOrRaw(r.raw) }));
    const difference = compareStreams(parseTimed(this.extra.cliStdout), sdkLines);
    const cli = end ?? spawned;
    const summary = {
      sdk: { version: this.spec.sdk.version, packageDir: this.spec.sdk.packageDir },
      // null: the run's cleanup ended the child before the query did (the CLI's exit is then unknown here).
      outcome: end?.outcome ?? null,
      error: end && "message" in end ? { name: end.name ?? null, message: end.message } : null,
      cli: cli ? { pid: cli.cliPid ?? null, argv: cli.cliArgv ?? null, exit: end?.cliExit ?? null } : null,
      difference,
    };
    fs.writeFileSync(this.extra.summary, `${JSON.stringify(summary, null, 2)}\n`);
  }
}
