// Finding and ending every process a run started: by process group, and by the run marker in their environment.
import fs from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { ownerAlive, ownerPid, ownerToken } from "../core/process-owner.ts";
export { ownerToken };

// Pids whose initial environment carries NAME=VALUE. Processes that detach (setsid, daemons) keep it.
export function findMarkedProcesses(name: string, value: string): number[] {
  return scanMarked(name, value).marked;
}

// `unsure`: user processes whose environment read empty. A process in the middle of execve shows an empty environment
// for a moment (the new image's is not laid out yet), so a scan that finds nothing may have looked past one of the run's.
function scanMarked(name: string, value: string, pids: number[] | null = null): { marked: number[]; unsure: number[] } {
  const needle = Buffer.from(`${name}=${value}\0`);
  const marked: number[] = [];
  const unsure: number[] = [];
  for (const pid of pids ?? fs.readdirSync("/proc").map(Number)) {
    if (!Number.isInteger(pid) || pid === process.pid || pid === 1) continue;
    let environ: Buffer;
    try {
      environ = fs.readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue; // gone already
    }
    if (environ.length === 0) {
      if (!isKernelThread(pid) && !isZombie(pid)) unsure.push(pid);
      continue;
    }
    // The marker may be the first variable (no NUL before it) or any later one.
    if (environ.subarray(0, needle.length).equals(needle) || environ.includes(Buffer.concat([Buffer.from("\0"), needle]))) {
      if (!isZombie(pid)) marked.push(pid);
    }
  }
  return { marked, unsure };
}

// Kernel threads (kthreadd, pid 2, and its children) have no environment, ever.
function isKernelThread(pid: number): boolean {
  if (pid === 2) return true;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1] === "2";
  } catch {
    return true;
  }
}

function isZombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The state field follows the parenthesised command name, which may itself contain spaces or parentheses.
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z";
  } catch {
    return true;
  }
}

export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

export interface ReapReport {
  // Every pid that carried the marker and was sent SIGKILL.
  killed: number[];
  // Pids still alive after the deadline: a hygiene failure the run reports.
  survivors: number[];
}

// SIGKILLs the given process groups and every marked process (and its group) until none is left or the deadline passes.
export async function reapRun(marker: { name: string; value: string }, groups: number[], deadlineMs = 10_000): Promise<ReapReport> {
  for (const pid of groups) signalGroup(pid, "SIGKILL");
  const killed = new Set<number>();
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const scan = scanMarked(marker.name, marker.value);
    let alive = scan.marked;
    if (alive.length === 0 && scan.unsure.length > 0) {
      // Look again at the ones that read empty: one that was exec'ing now shows its environment.
      await delay(20);
      alive = scanMarked(marker.name, marker.value, scan.unsure).marked;
    }
    if (alive.length === 0) return { killed: [...killed], survivors: [] };
    if (Date.now() > deadline) return { killed: [...killed], survivors: alive };
    for (const pid of alive) {
      killed.add(pid);
      signalGroup(pid, "SIGKILL");
      signalProcess(pid, "SIGKILL");
    }
    // The kernel needs a moment to tear the processes down; re-scan rather than trust the signal.
    await delay(50);
  }
}

// Which ccrepro process a run belongs to, in every process of the run's environment beside the run marker:
// "<pid>:<start time in clock ticks>", so a pid the system has since given to another process is not taken for it.
export const RUN_OWNER_VAR = "CCREPRO_RUN_OWNER";

function environOf(pid: number): Map<string, string> | null {
  try {
    const vars = new Map<string, string>();
    for (const entry of fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")) {
      const at = entry.indexOf("=");
      if (at > 0) vars.set(entry.slice(0, at), entry.slice(at + 1));
    }
    return vars;
  } catch {
    return null;
  }
}

export interface OrphanReap {
  runId: string;
  owner: string;
  killed: number[];
  survivors: number[];
}

// Ends the processes of every run whose ccrepro is gone (killed with SIGKILL, or crashed): each carries the run's
// marker and its owner; a run whose owner is alive, or a process without an owner (runs of older ccrepro versions,
// tests), is left alone.
export async function reapOrphanedRuns(markerName: string): Promise<OrphanReap[]> {
  const orphaned = new Map<string, string>();
  for (const entry of fs.readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const vars = environOf(pid);
    const runId = vars?.get(markerName);
    const owner = vars?.get(RUN_OWNER_VAR);
    if (runId && owner && !orphaned.has(runId) && !ownerAlive(owner) && !isZombie(pid)) orphaned.set(runId, owner);
  }
  const reaped: OrphanReap[] = [];
  for (const [runId, owner] of orphaned) {
    const report = await reapRun({ name: markerName, value: runId }, [], 5_000);
    reaped.push({ runId, owner: ownerPid(owner), ...report });
  }
  return reaped;
}

export function describeOrphanReap(orphan: OrphanReap): string {
  const left = orphan.survivors.length > 0 ? `; still alive: ${orphan.survivors.join(", ")}` : "";
  return `reaped ${orphan.killed.length} process(es) (${orphan.killed.join(", ")}) left running by run ${orphan.runId}, whose ccrepro (pid ${orphan.owner}) is gone${left}`;
}
