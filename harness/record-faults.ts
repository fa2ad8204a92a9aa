// ccrepro's own failures to record (issue 27, item 5): a full disk, a quota, a file-size limit or a read-only file
// system mid-run becomes the run's harness error, naming the path and what filled, instead of a crash with exit 1
// (the RED code). While a run records, an exception nobody caught (a write in an event handler) aborts the run, so
// its cleanup still reaps every process.
import fs from "node:fs";
import path from "node:path";

const DISK_FAULTS: Record<string, string> = {
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  EFBIG: "a file reached the file-size limit",
  EROFS: "the file system is read-only",
};

export function isDiskFault(error: unknown): error is NodeJS.ErrnoException {
  return typeof error === "object" && error !== null && (error as NodeJS.ErrnoException).code !== undefined && (error as NodeJS.ErrnoException).code! in DISK_FAULTS;
}

// What filled and where: the file being written, and how much the file system holding `runDir` has left.
export function describeDiskFault(error: NodeJS.ErrnoException, runDir: string): string {
  const where = error.path ? `writing ${error.path}` : `writing a recording file under ${runDir}`;
  let room = "";
  try {
    let dir = runDir;
    while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    const stats = fs.statfsSync(dir);
    room = `; the file system of ${dir} has ${Math.round((stats.bavail * stats.bsize) / 1024)} KiB of ${Math.round((stats.blocks * stats.bsize) / 1024)} KiB free`;
  } catch {
    // The numbers are a bonus; the code and path say enough.
  }
  return `could not record the run: ${DISK_FAULTS[error.code!]} (${error.code}) ${where}${room}; free some space (or point --runs-dir elsewhere) and run again`;
}

// Sync writes that may meet a full disk, where a failure costs that file but must not cost the run's cleanup.
export function tolerateDiskFault<T>(act: () => T, runDir: string, onFault: (message: string) => void): T | undefined {
  try {
    return act();
  } catch (error) {
    if (!isDiskFault(error)) throw error;
    onFault(describeDiskFault(error, runDir));
    return undefined;
  }
}

// Until the returned function is called, an uncaught exception or unhandled rejection ends the run instead of the
// process: `abort` gets the message (a disk fault described, anything else with its stack).
export function abortOnUncaught(runDir: string, abort: (message: string) => void): () => void {
  const onError = (error: unknown) => {
    abort(isDiskFault(error) ? describeDiskFault(error, runDir) : `ccrepro failed while recording: ${(error as Error)?.stack ?? String(error)}`);
  };
  process.on("uncaughtException", onError);
  process.on("unhandledRejection", onError);
  return () => {
    process.removeListener("uncaughtException", onError);
    process.removeListener("unhandledRejection", onError);
  };
}
