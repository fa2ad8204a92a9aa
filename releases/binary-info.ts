// Facts about an executable on disk: its content hash and the version it reports.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { sha256Hex } from "../core/hash.ts";
import { writeFileWhole } from "../core/write-whole.ts";
import { cacheDir } from "./cache-dir.ts";

// What every process running a claude binary gets, for probes and runs alike: no update checks, no telemetry, no
// error reports, no other traffic the mock would have to answer.
export const QUIET_ENV = {
  DISABLE_AUTOUPDATER: "1",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_ERROR_REPORTING: "1",
} as const;

export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

// The sha256 of a file, remembered on disk (beside the release cache) for as long as its bytes cannot have changed:
// keyed by its path, device, inode, size and change time in nanoseconds, which every write, rename or chmod moves
// and nothing can set back (a modification time can be). Hashing a 200 MB native release took a quarter of a
// second of CPU, on every run, for the sha256 each run.json records of the bytes that ran.
export async function sha256OfUnchangedFile(file: string): Promise<string> {
  const stat = fs.statSync(file, { bigint: true });
  const memo = path.join(cacheDir(), "hashes", sha256Hex([path.resolve(file), stat.dev, stat.ino, stat.size, stat.ctimeNs].join("\0")));
  try {
    const remembered = fs.readFileSync(memo, "utf8");
    if (/^[0-9a-f]{64}$/.test(remembered)) return remembered;
  } catch {
    // Not hashed since it last changed.
  }
  const hex = await sha256File(file);
  try {
    fs.mkdirSync(path.dirname(memo), { recursive: true });
    writeFileWhole(memo, hex);
  } catch {
    // A cache that cannot be written only costs the next run the hash again.
  }
  return hex;
}

// Releases print "2.1.281 (Claude Code)"; the earliest ones print the bare version.
export function parseVersionOutput(text: string): string | null {
  const match = /^\s*v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)(?:\s+\(Claude Code\))?\s*$/m.exec(text);
  return match?.[1] ?? null;
}

export interface VersionProbe {
  // null when the output held no version; the other fields say why.
  version: string | null;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
}

export interface ProbeProcess {
  env: Record<string, string>;
  // The folder it runs in: one the caller owns, never the user's. A release writes there even for `--version` or
  // `--help` (1.0.4 writes .claude/settings.local.json into its working directory).
  cwd: string;
  timeoutMs?: number;
}

// Never throws on the binary's behaviour: a probe that fails is data for the caller to report.
export async function probeVersion(command: string, args: readonly string[], { env, cwd, timeoutMs = 20_000 }: ProbeProcess): Promise<VersionProbe> {
  const { execa } = await import("execa");
  const started = performance.now();
  const result = await execa(command, [...args, "--version"], {
    env,
    cwd,
    extendEnv: false,
    stdin: "ignore",
    timeout: timeoutMs,
    reject: false,
  });
  return {
    version: result.exitCode === 0 ? parseVersionOutput(result.stdout) : null,
    stdout: result.stdout,
    stderr: result.stderr,
    exitCode: result.exitCode ?? null,
    timedOut: result.timedOut,
    durationMs: Math.round(performance.now() - started),
  };
}
