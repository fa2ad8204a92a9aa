// Facts about an executable on disk: its content hash and the version it reports.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { execa } from "execa";

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

// Never throws on the binary's behaviour: a probe that fails is data for the caller to report.
export async function probeVersion(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs = 20_000,
): Promise<VersionProbe> {
  const started = performance.now();
  const result = await execa(command, [...args, "--version"], {
    env,
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
