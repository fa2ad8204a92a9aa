// Where everything lives inside a run directory: the one place that names these paths.
import path from "node:path";

export interface RunLayout {
  root: string;
  runJson: string;
  // The mock's request log directory (index.jsonl + requests/).
  mockLog: string;
  // hooks.jsonl: one index line per hook call; hooks/: each call's payload, byte-exact.
  hooksLog: string;
  hooksDir: string;
  outboundLog: string;
  // Isolated directories handed to the binary.
  home: string;
  config: string;
  tmp: string;
  work: string;
  sessionsDir: string;
  // The interactive UI's screens as text, one file per captured step.
  screens: string;
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
    hooksLog: path.join(root, "hooks.jsonl"),
    hooksDir: path.join(root, "hooks"),
    outboundLog: path.join(root, "outbound.jsonl"),
    home: path.join(root, "iso", "home"),
    config: path.join(root, "iso", "config"),
    tmp: path.join(root, "iso", "tmp"),
    work: path.join(root, "iso", "work"),
    sessionsDir: path.join(root, "sessions"),
    screens: path.join(root, "screens"),
    casts: path.join(root, "casts"),
    commands: path.join(root, "commands"),
    transcripts: path.join(root, "transcripts"),
    scenarioDir: path.join(root, "scenario"),
    workdirAtEnd: path.join(root, "workdir-at-end.json"),
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
