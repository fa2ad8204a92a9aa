// A stand-in for the release runner that sweeps, atlases and nightlies take (no claude: the verdicts come from a
// table chosen to draw boundaries), and the temp directories such tests write into. Shared so each test says only
// its own table.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import type { CheckResult } from "../core/verdict.ts";
import type { ReleaseRunner } from "../pipeline/run-scenario.ts";
import type { InstalledRelease } from "../releases/release-cache.ts";

// A RED result whose one red finding is `id`.
export const redWith = (id: string): CheckResult => ({ verdict: "RED", reason: id, findings: [{ id, red: true, title: id, where: "", detail: [], data: {} }], notes: [] });
export const GREEN_RESULT: CheckResult = { verdict: "GREEN", reason: "held", findings: [], notes: [] };
export const ERROR_RESULT: CheckResult = { verdict: "ERROR", reason: "harness", findings: [], notes: [] };

// subagent-resume-notification-header's shape as a table: dropped up to 2.1.251, changed up to 2.1.283, GREEN after.
export function notificationTable(version: string): CheckResult {
  const patch = Number(version.split(".")[2]);
  if (patch <= 251) return redWith("notification-dropped");
  if (patch <= 283) return redWith("notification-changed");
  return GREEN_RESULT;
}

export interface StandInOptions {
  // The binary hash each release reports (default: one of its own per release), e.g. a recorded run's for reuse.
  sha256For?: (version: string) => string;
  // Called after each run starts, with how many have run (e.g. to abort after the k-th).
  afterRun?: (count: number) => void;
}

// A runner that answers from `resultFor`, writes each run's directory under outDir/runs (with a marker file naming
// its release) and lists the releases it ran, in order.
export function standInRunner(outDir: string, resultFor: (version: string) => CheckResult, options: StandInOptions = {}): { runner: ReleaseRunner; ran: string[] } {
  const ran: string[] = [];
  const runner: ReleaseRunner = {
    async prefetch(version) {
      return { version, sha256: options.sha256For?.(version) ?? `sha-${version}`, fetchMs: 0, downloadedBytes: 0, fromCache: true } as InstalledRelease;
    },
    async run(_subject, version) {
      ran.push(version);
      const runDir = path.join(outDir, "runs", `run-${version}`);
      fs.mkdirSync(runDir, { recursive: true });
      fs.writeFileSync(path.join(runDir, "marker"), version);
      options.afterRun?.(ran.length);
      return { installed: true, runDir, record: { result: resultFor(version) } } as never;
    },
  };
  return { runner, ran };
}

// A temp directory maker whose directories are removed after each test.
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  return () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(d);
    return d;
  };
}
