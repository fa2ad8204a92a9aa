// A run's footprint outside its directory: the /background daemon's processes and socket directory under /tmp, and the
// per-process sockets that a killed claude leaves behind there.
import { argvOf } from "../core/proc.ts";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { findMarkedProcesses } from "./processes.ts";

// The releases put daemon sockets in /tmp/cc-daemon-<uid>/<first 8 hex of sha256(resolved config dir)>/, whatever
// TMPDIR says (read from the 2.1.150 and 2.1.332 bundles, checked against the directories they create). The hash
// keeps runs with different config dirs apart, and names the one directory a run may remove.
export function daemonSocketDir(configDir: string, uid = process.getuid?.() ?? 0): string {
  const hash = crypto.createHash("sha256").update(path.resolve(configDir)).digest("hex").slice(0, 8);
  return path.join("/tmp", `cc-daemon-${uid}`, hash);
}

// Marked processes that are the daemon itself (`claude daemon run …`), not its session hosts.
export function daemonPids(marker: { name: string; value: string }): number[] {
  return findMarkedProcesses(marker.name, marker.value).filter((pid) => {
    const argv = argvOf(pid);
    const at = argv.indexOf("daemon");
    return at !== -1 && argv[at + 1] === "run";
  });
}

export interface DaemonDirCleanup {
  dir: string;
  // Whether the run's daemon had created its directory at all.
  existed: boolean;
  // Still there after the removal (a failure the run reports).
  leftover: boolean;
}

// Removes the socket directory of the daemon that served `configDir`. Call it after the run's processes are gone:
// a live daemon would re-create it. The shared per-user parent stays, since other runs' daemons live in it.
export function removeDaemonDir(configDir: string): DaemonDirCleanup {
  const dir = daemonSocketDir(configDir);
  const existed = fs.existsSync(dir);
  if (existed) fs.rmSync(dir, { recursive: true, force: true });
  return { dir, existed, leftover: fs.existsSync(dir) };
}

// Some releases open /tmp/cc-socks-<uid>/<pid>.sock per process, whatever TMPDIR says, and remove it only on a clean
// exit; a SIGKILLed session leaves it behind. Removes those of the given (ended) processes of this run.
export function removeProcessSockets(pids: readonly number[], uid = process.getuid?.() ?? 0): string[] {
  const removed: string[] = [];
  for (const pid of new Set(pids)) {
    const socket = path.join("/tmp", `cc-socks-${uid}`, `${pid}.sock`);
    if (!fs.existsSync(socket)) continue;
    fs.rmSync(socket, { force: true });
    removed.push(socket);
  }
  return removed;
}
