// Reading another process's facts from /proc, where a process may vanish between two reads.
import fs from "node:fs";

// A process's argv; empty when it has exited (or /proc is unavailable).
export function argvOf(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
  } catch {
    return [];
  }
}
