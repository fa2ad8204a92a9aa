// Who owns something (a run, a lock): a pid with its start time, so a pid the system has since given to another
// process is not taken for the owner. Linux /proc; elsewhere a token never matches, and its owner counts as alive.
import fs from "node:fs";

function startTimeOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22 (starttime), counted after the parenthesised command name.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

// "<pid>:<start time in clock ticks>".
export function ownerToken(pid = process.pid): string {
  return `${pid}:${startTimeOf(pid) ?? "?"}`;
}

export function ownerAlive(token: string): boolean {
  const [pid, start] = token.split(":");
  if (start === "?" || !fs.existsSync("/proc/self/stat")) return true;
  return startTimeOf(Number(pid)) === start;
}

export function ownerPid(token: string): string {
  return token.split(":")[0] ?? token;
}
