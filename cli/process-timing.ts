// A command timed from outside, as a user waits for it: wall from just before the spawn to the exit, and the CPU of
// the process and every descendant it waited for. The benches' one stopwatch.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { UserError } from "../core/errors.ts";
import path from "node:path";

/** A bench's duration: seconds to the hundredth, or a dash where it was not measured. */
export const seconds = (ms: number | null) => (ms === null ? "—" : `${(ms / 1000).toFixed(2)} s`);

export interface ProcessTiming {
  wallMs: number;
  // User + system CPU of the child and every descendant it waited for; null where the OS does not say (not Linux).
  cpuMs: number | null;
  startedAt: number;
  endedAt: number;
  code: number | null;
  stdout: string;
}

// CPU of this process's reaped children, from /proc/self/stat (cutime + cstime, in clock ticks of 1/100 s).
function childrenCpuMs(): number | null {
  try {
    const fields = fs.readFileSync("/proc/self/stat", "utf8").replace(/^.*\) /, "").split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

export interface TimeOptions {
  env?: NodeJS.ProcessEnv;
  // In a process group of its own, ended as a whole once the command exits: what it left running is reaped.
  ownGroup?: boolean;
}

// Runs one command to its exit and times it from outside: wall from just before the spawn to the exit.
export function timeProcess(command: string, args: string[], { env = process.env, ownGroup = false }: TimeOptions = {}): Promise<ProcessTiming> {
  return new Promise((resolve, reject) => {
    const cpuBefore = childrenCpuMs();
    const startedAt = performance.timeOrigin + performance.now();
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "ignore"], detached: ownGroup });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const endedAt = performance.timeOrigin + performance.now();
      if (ownGroup && child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // The group is gone already: nothing was left running.
        }
      }
      const cpuAfter = childrenCpuMs();
      resolve({ wallMs: endedAt - startedAt, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, startedAt, endedAt, code, stdout });
    });
  });
}

// The entry this ccrepro was started from (bin/ccrepro.mjs), run as a program the way npm's bin link runs it: through
// its shell header, with the V8 flags the header passes. This process's node comes first on the PATH the header
// searches, so the start-up ratio compares one runtime with itself.
export function timeCcrepro(args: string[], { env = process.env, ...options }: TimeOptions = {}): Promise<ProcessTiming> {
  const entry = process.argv[1];
  if (!entry) throw new UserError("no entry script to time", "BAD_ARGUMENT", { hint: "start the bench as `ccrepro bench` (bin/ccrepro.mjs), not from another program" });
  return timeProcess(entry, args, { ...options, env: { ...env, PATH: [path.dirname(process.execPath), env.PATH].filter(Boolean).join(path.delimiter) } });
}
