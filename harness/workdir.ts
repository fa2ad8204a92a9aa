// Snapshots of the run's working directory (every regular file with size, sha256 and small UTF-8 text), taken and written.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { WorkdirFile, WorkdirLink, WorkdirSnapshot } from "./recordings.ts";
import { clockNow } from "../core/time.ts";

// A file's text is kept only up to this many bytes: enough for what a bug writes (a config, a log line, a marker),
// small enough that a snapshot stays readable.
export const WORKDIR_TEXT_LIMIT = 64 * 1024;
// Text kept per snapshot, in all: a session that writes a thousand 60 KiB files (or one of 1 GB) must not fill the run
// directory with copies, once per session. Files past the budget are still listed with size and sha256, text null.
export const WORKDIR_TEXT_BUDGET = 4 * 1024 * 1024;

// The `.git` the harness creates in the working directory (isolation.ts, ownRepository); only the top-level one.
const HARNESS_GIT = ".git";
const CHUNK = 1024 * 1024;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export interface SnapshotLimits {
  textLimit: number;
  textBudget: number;
}

const DEFAULT_LIMITS: SnapshotLimits = { textLimit: WORKDIR_TEXT_LIMIT, textBudget: WORKDIR_TEXT_BUDGET };

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

// Reads a regular file without following a link (O_NOFOLLOW: a process still running may swap a file for a link
// between the walk and the read; O_NONBLOCK: nor hang on a FIFO swapped in). Size is the bytes actually hashed, so size and sha256 always agree; the bytes are
// kept only while they fit the text limit. null when the file vanished or stopped being a regular file.
function readFile(file: string, textLimit: number): { size: number; sha256: string; bytes: Buffer | null } | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    if (code(error) === "ENOENT" || code(error) === "ELOOP") return null;
    throw error;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return null;
    const hash = crypto.createHash("sha256");
    const kept: Buffer[] = [];
    let size = 0;
    const buffer = Buffer.alloc(CHUNK);
    for (;;) {
      const n = fs.readSync(fd, buffer, 0, CHUNK, null);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
      size += n;
      if (size <= textLimit) kept.push(Buffer.from(buffer.subarray(0, n)));
    }
    return { size, sha256: hash.digest("hex"), bytes: size <= textLimit ? Buffer.concat(kept) : null };
  } finally {
    fs.closeSync(fd);
  }
}

function decodeUtf8(bytes: Buffer): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

// Every entry under `dir`, as paths relative to it with "/", without descending into links. Entries that vanish
// while the walk runs (a background task still at work) are left out.
function walk(dir: string, rel: string, found: { files: string[]; links: string[] }): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(dir, rel), { withFileTypes: true });
  } catch (error) {
    if (code(error) === "ENOENT" || code(error) === "ENOTDIR") return;
    throw error;
  }
  for (const entry of entries) {
    const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
    if (child === HARNESS_GIT) continue;
    if (entry.isSymbolicLink()) found.links.push(child);
    else if (entry.isDirectory()) walk(dir, child, found);
    else if (entry.isFile()) found.files.push(child);
    // FIFOs, sockets and devices hold no content to compare: left out.
  }
}

// Code-unit order, not the locale's: the same tree gives the same list on every machine.
const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// What `dir` holds now: its regular files (sorted by path) with size, sha256 and their text when they are valid UTF-8
// of at most textLimit bytes and the snapshot's text budget still has room (given out in path order; a file that
// does not fit gets null, a smaller one after it may still fit). Symbolic links are listed apart with their target,
// never followed. Empty directories, FIFOs, sockets and devices are not recorded. A directory that does not exist
// holds nothing.
export function snapshotWorkdir(dir: string, limits: SnapshotLimits = DEFAULT_LIMITS): WorkdirSnapshot {
  const t = clockNow();
  const found = { files: [] as string[], links: [] as string[] };
  walk(dir, "", found);
  let budget = limits.textBudget;
  const files: WorkdirFile[] = [];
  for (const rel of found.files.sort(byPath)) {
    const read = readFile(path.join(dir, rel), limits.textLimit);
    if (!read) continue;
    const text = read.bytes && read.size <= budget ? decodeUtf8(read.bytes) : null;
    if (text !== null) budget -= read.size;
    files.push({ path: rel, size: read.size, sha256: read.sha256, text });
  }
  const links: WorkdirLink[] = [];
  for (const rel of found.links.sort(byPath)) {
    try {
      links.push({ path: rel, target: fs.readlinkSync(path.join(dir, rel)) });
    } catch (error) {
      if (code(error) !== "ENOENT" && code(error) !== "EINVAL") throw error;
    }
  }
  return { t, files, links };
}

export function writeWorkdirSnapshot(file: string, snapshot: WorkdirSnapshot): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(snapshot, null, 2)}\n`);
}
