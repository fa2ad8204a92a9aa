// Where everything lives inside a run directory: the one place that names these paths.
import path from "node:path";
import { requestIndexOf } from "../mock-api/log-entry.ts";

export interface RunLayout {
  root: string;
  runJson: string;
  // The mock's request log directory (index.jsonl + requests/).
  mockLog: string;
  // The mock's request index, mockLog/index.jsonl.
  mockIndex: string;
  // hooks.jsonl: one index line per hook call; hooks/: each call's payload, byte-exact.
  hooksLog: string;
  hooksDir: string;
  // The run's copy of the hook recorder, which every hook entry runs: a hook's command line reaches the model (a
  // blocking hook's message quotes it), and this way every path in it is under the run directory.
  hookRecorder: string;
  // hook-answers/<rule>/: each answering hook rule's replies and the call indexes it handed out (hookAnswerLayout).
  hookAnswersDir: string;
  // The settings file every session gets as `--settings <file>` when the plan declares its hooks there ("flag").
  flagSettings: string;
  // The `--mcp-config` file every session gets when the plan has MCP servers, and their logs (`<name>.jsonl`).
  mcpConfig: string;
  mcpLogDir: string;
  outboundLog: string;
  // Isolated directories handed to the binary.
  home: string;
  config: string;
  tmp: string;
  work: string;
  sessionsDir: string;
  // The interactive UI's screens as text, one file per captured step, and their index (screens/index.jsonl).
  screens: string;
  screensIndex: string;
  // Each terminal session replayable as an asciinema v2 recording, `<session>.cast`.
  casts: string;
  // Output of the CLI's helper commands (`claude agents --json`, `claude stop ID`), one file each.
  commands: string;
  // Transcripts the binary wrote, copied out of the config dir at the end of the run.
  transcripts: string;
  // A file scenario's source as it ran, so `ccrepro check` can judge the run again from its directory alone.
  scenarioDir: string;
  // The working directory's snapshot once every process of the run was reaped (JSON, texts inline).
  workdirAtEnd: string;
}

export function runLayout(root: string): RunLayout {
  return {
    root,
    runJson: path.join(root, "run.json"),
    mockLog: path.join(root, "mock"),
    mockIndex: requestIndexOf(path.join(root, "mock")),
    hooksLog: path.join(root, "hooks.jsonl"),
    hooksDir: path.join(root, "hooks"),
    hookRecorder: path.join(root, "hook-recorder.sh"),
    hookAnswersDir: path.join(root, "hook-answers"),
    flagSettings: path.join(root, "settings-flag.json"),
    mcpConfig: path.join(root, "mcp-config.json"),
    mcpLogDir: path.join(root, "mcp"),
    outboundLog: path.join(root, "outbound.jsonl"),
    home: path.join(root, "iso", "home"),
    config: path.join(root, "iso", "config"),
    tmp: path.join(root, "iso", "tmp"),
    work: path.join(root, "iso", "work"),
    sessionsDir: path.join(root, "sessions"),
    screens: path.join(root, "screens"),
    screensIndex: path.join(root, "screens", "index.jsonl"),
    casts: path.join(root, "casts"),
    commands: path.join(root, "commands"),
    transcripts: path.join(root, "transcripts"),
    scenarioDir: path.join(root, "scenario"),
    workdirAtEnd: path.join(root, "workdir-at-end.json"),
  };
}

// The project settings file of the working directory (read with the `project` setting source).
export function projectSettingsFile(run: RunLayout): string {
  return path.join(run.work, ".claude", "settings.json");
}

// The user settings file of the run's config dir (CLAUDE_CONFIG_DIR).
export function userSettingsFile(run: RunLayout): string {
  return path.join(run.config, "settings.json");
}

// One answering hook rule's files. The recorder script reads `count` and the replies and claims `calls/<n>`; the index
// line names the reply files relative to the run directory (`rel`), so a run directory moved elsewhere still loads.
export interface HookAnswerLayout {
  dir: string;
  rel: string;
  // How many replies the rule has (one decimal line).
  count: string;
  // calls/<n>: created exclusively by the call that got index n; holds that call's payload file name.
  calls: string;
  // out/<n>.stdout and out/<n>.stderr: what the author's shell command printed on call n, byte-exact.
  output: string;
  // A reply's files: a fixed reply's exit code and output, or a shell reply's command.
  reply(index: number): { exit: string; stdout: string; stderr: string; shell: string };
}

export function hookAnswerLayout(run: RunLayout, rule: number): HookAnswerLayout {
  const dir = path.join(run.hookAnswersDir, String(rule));
  return {
    dir,
    rel: path.relative(run.root, dir),
    count: path.join(dir, "count"),
    calls: path.join(dir, "calls"),
    output: path.join(dir, "out"),
    reply: (index) => ({
      exit: path.join(dir, `${index}.exit`),
      stdout: path.join(dir, `${index}.stdout`),
      stderr: path.join(dir, `${index}.stderr`),
      shell: path.join(dir, `${index}.shell`),
    }),
  };
}

export function castFile(run: RunLayout, label: string): string {
  return path.join(run.casts, `${label}.cast`);
}

export interface SessionLayout {
  dir: string;
  // {t, raw} JSON lines: every stdout line with its receive time.
  stdout: string;
  // {t, raw} JSON lines: every line the harness wrote to stdin.
  stdin: string;
  stderr: string;
  debugLog: string;
  // The session's process record (argv, pid, exit code, signal, timings).
  sessionJson: string;
  // The working directory's snapshot right after the session's process ended (JSON, texts inline).
  workdir: string;
}

export function sessionLayout(run: RunLayout, label: string): SessionLayout {
  const dir = path.join(run.sessionsDir, label);
  return {
    dir,
    stdout: path.join(dir, "stdout.jsonl"),
    stdin: path.join(dir, "stdin.jsonl"),
    stderr: path.join(dir, "stderr.log"),
    debugLog: path.join(dir, "debug.log"),
    sessionJson: path.join(dir, "session.json"),
    workdir: path.join(dir, "workdir.json"),
  };
}

// A terminal session's files: its process record and typed keys where a headless session keeps them, and the UI's
// output chunks beside them.
export interface TerminalFiles {
  dir: string;
  // The process record, in the same schema as a headless session's, so loadRecordings lists the terminal too.
  sessionJson: string;
  // {t, raw} JSON lines: every key sequence the harness typed.
  input: string;
  // {t, data} JSON lines: every chunk the UI wrote to the terminal, to replay the screen later.
  output: string;
}

export function terminalFiles(run: RunLayout, label: string): TerminalFiles {
  const files = sessionLayout(run, label);
  return { dir: files.dir, sessionJson: files.sessionJson, input: files.stdin, output: path.join(files.dir, "terminal.jsonl") };
}

// Files an SDK session writes beside the usual stdout/stdin/stderr of its session directory.
export function sdkSessionFiles(files: SessionLayout) {
  return {
    plan: path.join(files.dir, "sdk-plan.json"),
    // {t, raw} lines: every command the harness gave the child (send, end-input, interrupt, abort, …).
    commands: path.join(files.dir, "sdk-commands.jsonl"),
    // The CLI's own stdin and stdout beneath the SDK, {t, raw} lines.
    cliStdin: path.join(files.dir, "cli-stdin.jsonl"),
    cliStdout: path.join(files.dir, "cli-stdout.jsonl"),
    // The child's end: outcome, the CLI's pid/argv/exit, and where the SDK's view and the CLI's stdout differ.
    summary: path.join(files.dir, "sdk.json"),
  };
}
