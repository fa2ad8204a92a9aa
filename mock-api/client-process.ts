// Which local process holds the client end of a loopback connection, read from /proc (Linux): TCP table → socket inode → fd.
import { argvOf } from "../core/proc.ts";
import fs from "node:fs";

export interface ClientProcess {
  pid: number;
  // The process's argv joined by spaces, cut to a readable length.
  command: string;
}

const COMMAND_CHARS = 200;

// The inode of the socket whose local port is `clientPort` and remote port `serverPort`, from /proc/net/tcp{,6}.
function socketInode(clientPort: number, serverPort: number): string | null {
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = fs.readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
      const fields = line.trim().split(/\s+/);
      const local = fields[1]?.split(":")[1];
      const remote = fields[2]?.split(":")[1];
      if (local === undefined || remote === undefined) continue;
      if (Number.parseInt(local, 16) === clientPort && Number.parseInt(remote, 16) === serverPort && fields[9] !== "0") return fields[9] ?? null;
    }
  }
  return null;
}

function holderOf(inode: string): number | null {
  const link = `socket:[${inode}]`;
  // Lowest pid first, and the first holder wins: a child claude starts inherits the API socket, so two processes can
  // hold it, and the client is the older one. (Newest-first is cheaper and names the child: docs/startup.md.)
  // readdir lists /proc as text ("10012" before "9876"): sorted as numbers here.
  const pids = fs.readdirSync("/proc").map(Number).filter((pid) => Number.isInteger(pid) && pid !== process.pid);
  for (const pid of pids.sort((a, b) => a - b)) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or not ours to look at
    }
    for (const fd of fds) {
      try {
        if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === link) return pid;
      } catch {
        // The fd closed while we looked.
      }
    }
  }
  return null;
}

// null when the connection is gone, not on this host's loopback, or /proc is unavailable.
export function findClientProcess(clientPort: number, serverPort: number): ClientProcess | null {
  const inode = socketInode(clientPort, serverPort);
  const pid = inode === null ? null : holderOf(inode);
  if (pid === null) return null;
  // Exited between the two reads: the pid is still the answer, with no command.
  return { pid, command: argvOf(pid).join(" ").slice(0, COMMAND_CHARS) };
}
