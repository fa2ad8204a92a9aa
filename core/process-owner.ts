// Who owns something (a run, a lock): a pid with its start time, the pid namespace that pid is counted in, and the
// boot it was seen in. A pid means nothing outside its namespace (a container's pid 79 is another process, or none,
// from the host), so an owner is only ever judged gone from inside the namespace and boot that wrote its token;
// from anywhere else its state is unknown, and whatever it owns is left alone (issue 41).
import fs from "node:fs";
import { statFields } from "./proc.ts";

// "alive": the owner runs; "gone": provably ended (same namespace, same boot, that pid is another process or none);
// "unknown": not provable from here (another namespace or boot, a token of an older ccrepro, no /proc).
export type OwnerState = "alive" | "gone" | "unknown";

// Field 22 (starttime).
const startTimeOf = (pid: number | "self"): string | null => statFields(pid)?.[19] ?? null;

// The inode of a process's pid namespace ("4026531836"), or null where it cannot be read.
export function pidNamespaceOf(pid: number | "self"): string | null {
  try {
    return /\[(\d+)\]/.exec(fs.readlinkSync(`/proc/${pid}/ns/pid`))?.[1] ?? null;
  } catch {
    return null;
  }
}

let bootIdCache: string | null | undefined;
function bootId(): string | null {
  if (bootIdCache === undefined) {
    try {
      bootIdCache = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || null;
    } catch {
      bootIdCache = null;
    }
  }
  return bootIdCache;
}

// Whether /proc shows this process's own pid namespace. Under `unshare --pid --fork` without `--mount-proc`, it shows
// the parent's: /proc/self is then not process.pid, and no pid read from /proc means what the tokens mean.
function procIsOwnNamespace(): boolean {
  try {
    return fs.readlinkSync("/proc/self") === String(process.pid);
  } catch {
    return false;
  }
}

// "<pid>:<start time in clock ticks>:<pid namespace inode>:<boot id>", this process's; fields that cannot be read are "?".
// The start time is read through /proc/self, which is this process whatever namespace /proc shows.
export function ownerToken(): string {
  return [process.pid, startTimeOf("self") ?? "?", pidNamespaceOf("self") ?? "?", bootId() ?? "?"].join(":");
}

export interface OwnerIdentity {
  pid: number;
  start: string;
  pidNamespace: string;
  boot: string;
}

// The four fields of a token, or null for one that is not whole (an older ccrepro's "<pid>:<start>", a hand-made one).
export function parseOwnerToken(token: string): OwnerIdentity | null {
  const [pid, start, pidNamespace, boot, ...rest] = token.split(":");
  if (rest.length > 0 || !pid || !/^\d+$/.test(pid) || !start || !pidNamespace || !boot || [start, pidNamespace, boot].includes("?")) return null;
  return { pid: Number(pid), start, pidNamespace, boot };
}

// Why an owner's state is not provable from here, or null when it is (see ownerState).
export function whyOwnerUnknown(token: string): string | null {
  const owner = parseOwnerToken(token);
  if (!owner) return "its owner token is not one this ccrepro can judge (an older ccrepro's, or incomplete)";
  if (owner.boot !== bootId()) return "its owner was seen in another boot or on another machine";
  if (owner.pidNamespace !== pidNamespaceOf("self")) return "its owner is in another pid namespace (a container, or unshare)";
  if (!procIsOwnNamespace()) return "/proc here shows another pid namespace than this process's";
  return null;
}

export function ownerState(token: string): OwnerState {
  if (whyOwnerUnknown(token) !== null) return "unknown";
  const owner = parseOwnerToken(token)!;
  return startTimeOf(owner.pid) === owner.start ? "alive" : "gone";
}

export function ownerPid(token: string): string {
  return token.split(":")[0] ?? token;
}
