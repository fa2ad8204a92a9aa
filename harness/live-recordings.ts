// The run's recordings while it is still going: sessions in memory, request and hook logs re-read when they grow,
// the working directory snapshotted as each session ends.
import fs from "node:fs";
import { emptyWorkdir, loadHooks, loadRequestLog, type HookRecord, type WorkdirRecord, type WorkdirSnapshot, type Recordings, type SessionRecording } from "./recordings.ts";
import path from "node:path";
import { requestIndexOf } from "../mock-api/log-entry.ts";
import { runLayout, sessionLayout } from "./run-layout.ts";
import { snapshotWorkdir, writeWorkdirSnapshot } from "./workdir.ts";

export type WaitEnd = "ok" | "timeout" | "aborted";

export class LiveRecordings implements Recordings {
  sessions: SessionRecording[] = [];
  requests: Recordings["requests"] = [];
  responseEnds: Recordings["responseEnds"] = new Map();
  hooks: HookRecord[] = [];
  workdir: WorkdirRecord = emptyWorkdir();
  // Why a snapshot of the working directory could not be taken or written: the run reports it as a harness error.
  readonly workdirErrors: string[] = [];
  body: Recordings["body"] = () => {
    throw new Error("no request recorded yet");
  };
  private readonly listeners = new Set<() => void>();
  private readonly sizes = new Map<string, number>();
  private readonly bodies = new Map<string, Buffer>();
  private readonly watchers: fs.FSWatcher[] = [];
  private readonly poll: NodeJS.Timeout;

  constructor(
    readonly runDir: string,
    private readonly mockLogDir: string,
  ) {
    // inotify wakes waiters at once; the slow poll only covers events a watcher can miss.
    for (const dir of [runDir, mockLogDir]) {
      fs.mkdirSync(dir, { recursive: true });
      this.watchers.push(fs.watch(dir, () => this.changed()));
    }
    this.poll = setInterval(() => this.changed(), 250);
  }

  // A session of the run (headless, sdk, terminal, print): its recording joins the others, and once its process has
  // ended (its `exited` settled) the working directory is snapshotted into its session directory. Hooked here, as the
  // session starts, so the snapshot is in place before any step awaiting the same `exited` goes on.
  addSession(recording: SessionRecording, exited: Promise<void>): void {
    this.sessions.push(recording);
    const snapshot = () => {
      this.snapshotInto(sessionLayout(runLayout(this.runDir), recording.label).workdir, (taken) => {
        this.workdir.afterSession[recording.label] = taken;
      });
      this.changed();
    };
    void exited.then(snapshot, snapshot);
  }

  // The last snapshot, once every process of the run is gone.
  snapshotAtEnd(): void {
    this.snapshotInto(runLayout(this.runDir).workdirAtEnd, (taken) => {
      this.workdir.atEnd = taken;
    });
  }

  private snapshotInto(file: string, keep: (taken: WorkdirSnapshot) => void): void {
    try {
      const taken = snapshotWorkdir(runLayout(this.runDir).work);
      writeWorkdirSnapshot(file, taken);
      keep(taken);
    } catch (error) {
      this.workdirErrors.push(`${path.relative(this.runDir, file)}: ${(error as Error).message}`);
    }
  }

  // Called by sessions on every stdout line, and by the watchers.
  changed(): void {
    try {
      this.refreshFiles();
    } catch {
      // A log line that does not parse yet is read again on the next change; the checker reports a damaged log.
    }
    for (const listener of this.listeners) listener();
  }

  // Rejects when the predicate throws: that is a bug in a scenario, and it must end the wait (and so the run, with
  // its cleanup) rather than escape from a watcher callback and leave the binary running.
  waitUntil(predicate: (rec: Recordings) => boolean, timeoutMs: number, abort: AbortSignal): Promise<WaitEnd> {
    try {
      this.refreshFiles();
      if (predicate(this)) return Promise.resolve("ok");
    } catch (error) {
      return Promise.reject(error);
    }
    // An abort that already happened fires no event: without this the wait would sit out its whole timeout.
    if (abort.aborted) return Promise.resolve("aborted");
    return new Promise((resolve, reject) => {
      const stop = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
        abort.removeEventListener("abort", onAbort);
      };
      const finish = (outcome: WaitEnd) => {
        stop();
        resolve(outcome);
      };
      const check = () => {
        try {
          if (predicate(this)) finish("ok");
        } catch (error) {
          stop();
          reject(error);
        }
      };
      const onAbort = () => finish("aborted");
      const timer = setTimeout(() => finish("timeout"), timeoutMs);
      this.listeners.add(check);
      abort.addEventListener("abort", onAbort);
    });
  }

  close(): void {
    clearInterval(this.poll);
    for (const watcher of this.watchers) watcher.close();
    this.listeners.clear();
    this.refreshFiles();
  }

  private grew(file: string): boolean {
    const size = fs.existsSync(file) ? fs.statSync(file).size : 0;
    if (size === (this.sizes.get(file) ?? 0)) return false;
    this.sizes.set(file, size);
    return true;
  }

  private refreshFiles(): void {
    if (this.grew(requestIndexOf(this.mockLogDir))) {
      const log = loadRequestLog(this.mockLogDir, this.mockLogDir, this.bodies);
      this.requests = log.requests;
      this.responseEnds = log.responseEnds;
      this.body = log.body;
    }
    if (this.grew(runLayout(this.runDir).hooksLog)) this.hooks = loadHooks(this.runDir);
  }
}
