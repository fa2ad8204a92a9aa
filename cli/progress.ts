// Progress of every long wait (sweep, bisect, nightly): a cli-progress bar with done/total and an ETA on a terminal,
// one plain line per event otherwise (CI logs, pipes). Event lines are the same either way.
import cliProgress from "cli-progress";

export interface Progress {
  // Announces the amount of work; `done` counts work finished before (a resumed sweep).
  start(total: number, done?: number): void;
  // A line about one event (a download, a finished run); `advance` moves the count by that much.
  event(line: string, advance?: number): void;
  stop(): void;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${(ms / 1000).toFixed(1)} s`;
  return s < 3600 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

// "downloaded 2.1.283: 118.2 MB in 8.1 s (14.6 MB/s)"
export function downloadLine(version: string, bytes: number, ms: number): string {
  const rate = ms > 0 ? ` (${formatBytes((bytes * 1000) / ms)}/s)` : "";
  return `downloaded ${version}: ${formatBytes(bytes)} in ${formatDuration(ms)}${rate}`;
}

// The estimate from this invocation's own pace: work done earlier (resumed) took no time here.
export function etaMs(elapsedMs: number, doneHere: number, remaining: number): number | null {
  return doneHere === 0 ? null : (elapsedMs / doneHere) * remaining;
}

export interface ProgressOptions {
  stream?: NodeJS.WriteStream;
  now?: () => number;
  // The caller's event lines already say how far along it is ("[3/8] …", the nightly's): off a terminal they are
  // written as they are, without a second counter.
  linesCarryCount?: boolean;
}

export function createProgress(label: string, options: ProgressOptions = {}): Progress {
  const { stream = process.stderr, now = Date.now, linesCarryCount = false } = options;
  let total = 0;
  let done = 0;
  let doneHere = 0;
  let startedAt = now();
  const tty = stream.isTTY === true;
  let bars: cliProgress.MultiBar | null = null;
  let bar: cliProgress.SingleBar | null = null;
  const counter = () => {
    const eta = etaMs(now() - startedAt, doneHere, total - done);
    return `[${done}/${total}${eta === null || done === total ? "" : `, ETA ${formatDuration(eta)}`}]`;
  };
  return {
    start(count, already = 0) {
      total = count;
      done = already;
      doneHere = 0;
      startedAt = now();
      if (tty) {
        bars = new cliProgress.MultiBar(
          { stream, format: `${label} {bar} {value}/{total} | ETA {eta_formatted} | {last}`, hideCursor: true, clearOnComplete: false, etaBuffer: 4 },
          cliProgress.Presets.shades_classic,
        );
        bar = bars.create(total, done, { last: "" });
      } else {
        stream.write(`${label} ${counter()} starting\n`);
      }
    },
    event(line, advance = 0) {
      done += advance;
      doneHere += advance;
      if (bars && bar) {
        bars.log(`${line}\n`);
        bar.update(done, { last: line.slice(0, 60) });
      } else {
        stream.write(linesCarryCount ? `${line}\n` : `${label} ${counter()} ${line}\n`);
      }
    },
    stop() {
      bars?.stop();
      bars = null;
      bar = null;
    },
  };
}
