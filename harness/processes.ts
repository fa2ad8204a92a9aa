// Finding and ending every process a run started: by process group, and by the run marker in their environment.
import fs from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { statFields } from "../core/proc.ts";
import { ownerPid, ownerState, ownerToken, pidNamespaceOf, whyOwnerUnknown } from "../core/process-owner.ts";
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
  const fields = statFields(pid);
  return fields === null || fields[1] === "2";
}

function isZombie(pid: number): boolean {
  const fields = statFields(pid);
  return fields === null || fields[0] === "Z";
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
// `only` narrows the marked processes it may end (the orphan reap: this user's, in this pid namespace).
export async function reapRun(marker: { name: string; value: string }, groups: number[], deadlineMs = 10_000, only?: (pid: number) => boolean): Promise<ReapReport> {
  const narrowed = only !== undefined;
  const passes = only ?? (() => true);
  for (const pid of groups) signalGroup(pid, "SIGKILL");
  const killed = new Set<number>();
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const scan = scanMarked(marker.name, marker.value);
    let alive = scan.marked.filter(passes);
    if (alive.length === 0 && scan.unsure.length > 0) {
      // Look again at the ones that read empty: one that was exec'ing now shows its environment.
      await delay(20);
      alive = scanMarked(marker.name, marker.value, scan.unsure).marked.filter(passes);
    }
    if (alive.length === 0) return { killed: [...killed], survivors: [] };
    if (Date.now() > deadline) return { killed: [...killed], survivors: alive };
    for (const pid of alive) {
      killed.add(pid);
      // A group holds processes no filter looked at (another namespace's, another user's): with `only`, each
      // process is ended on its own, once it passed.
      if (!narrowed) signalGroup(pid, "SIGKILL");
      signalProcess(pid, "SIGKILL");
    }
    // The kernel needs a moment to tear the processes down; re-scan rather than trust the signal.
    await delay(50);
  }
}

// Which ccrepro process a run belongs to, in every process of the run's environment beside the run marker: its owner
// token (core/process-owner.ts: pid, start time, pid namespace, boot id), so a pid the system has since given to
// another process, or a pid of another namespace, is not taken for it.
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
  // The dead owner's pid, and why it counts as dead.
  owner: string;
  why: string;
  killed: number[];
  survivors: number[];
}

// Marked processes the orphan reap leaves alone, whatever their marker says, and why (for doctor's listing).
export interface LeftAlone {
  runId: string;
  pids: number[];
  why: string;
}

export interface OrphanScan {
  // Runs whose every process here is provably this user's and whose owner is provably gone.
  orphans: { runId: string; owner: string; why: string; pids: number[] }[];
  leftAlone: LeftAlone[];
}

// The automatic reap before each run is off with CCREPRO_NO_REAP=1 (the top-level `--no-reap` sets it);
// `ccrepro doctor` still reaps when asked.
export const NO_REAP_VAR = "CCREPRO_NO_REAP";
export function automaticReapEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env[NO_REAP_VAR];
  return value === undefined || value === "" || value === "0";
}

function uidOf(pid: number): number | null {
  try {
    return fs.statSync(`/proc/${pid}`).uid;
  } catch {
    return null;
  }
}

// Why a marked process is not this ccrepro's to end, or null when it may be: it must be of this uid and in this
// pid namespace, seen through a /proc of this namespace.
function whyNotOurs(pid: number): string | null {
  const uid = process.getuid?.();
  if (uid === undefined || uidOf(pid) !== uid) return "it belongs to another user";
  const own = pidNamespaceOf("self");
  if (own === null || pidNamespaceOf(pid) !== own) return "it is in another pid namespace (a container, or unshare)";
  return null;
}

// Which runs left processes behind when their ccrepro died, and which marked processes are not provably ours.
// Reaps nothing.
export function scanOrphanedRuns(markerName: string): OrphanScan {
  const scan: OrphanScan = { orphans: [], leftAlone: [] };
  if (!fs.existsSync("/proc/self/stat")) return scan;
  const byRun = new Map<string, { owner: string; pids: number[]; notOurs: string | null }>();
  for (const entry of fs.readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const vars = environOf(pid);
    const runId = vars?.get(markerName);
    const owner = vars?.get(RUN_OWNER_VAR);
    // A process without an owner (runs of older ccrepro versions, tests) is never a candidate.
    if (!runId || !owner || isZombie(pid)) continue;
    const run = byRun.get(runId) ?? { owner, pids: [], notOurs: null };
    run.pids.push(pid);
    run.notOurs ??= whyNotOurs(pid);
    byRun.set(runId, run);
  }
  for (const [runId, run] of byRun) {
    const unknown = run.notOurs ?? whyOwnerUnknown(run.owner);
    if (unknown !== null) {
      scan.leftAlone.push({ runId, pids: run.pids, why: unknown });
      continue;
    }
    const state = ownerState(run.owner);
    if (state === "gone") scan.orphans.push({ runId, owner: ownerPid(run.owner), why: `its ccrepro (pid ${ownerPid(run.owner)}) is gone from this pid namespace`, pids: run.pids });
  }
  return scan;
}

// Ends the processes of every run whose ccrepro is gone (killed with SIGKILL, or crashed). Only what is provably
// orphaned and provably this user's: see scanOrphanedRuns. A run whose owner is alive, or cannot be judged from
// here, is left alone.
export async function reapOrphanedRuns(markerName: string): Promise<OrphanReap[]> {
  const reaped: OrphanReap[] = [];
  for (const orphan of scanOrphanedRuns(markerName).orphans) {
    const report = await reapRun({ name: markerName, value: orphan.runId }, [], 5_000, (pid) => whyNotOurs(pid) === null);
    reaped.push({ runId: orphan.runId, owner: orphan.owner, why: orphan.why, ...report });
  }
  return reaped;
}

export function describeOrphanReap(orphan: OrphanReap): string {
  const left = orphan.survivors.length > 0 ? `; still alive: ${orphan.survivors.join(", ")}` : "";
  return `reaped ${orphan.killed.length} process(es) (${orphan.killed.join(", ")}) left running by run ${orphan.runId}, whose ccrepro (pid ${orphan.owner}) is gone${left}`;
}
