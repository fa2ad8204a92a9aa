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

// A process's environment as it started (NAME=value entries); empty when it has exited or is not ours to read.
export function environOf(pid: number): Record<string, string> {
  try {
    const entries = fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
    return Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]));
  } catch {
    return {};
  }
}

// The fields of /proc/PID/stat after the parenthesised command name (which may hold spaces and parentheses itself):
// [0] state, [1] ppid, [2] pgrp, [3] session, … [19] starttime; null when the process is gone (or /proc is not there).
export function statFields(pid: number | "self"): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}
