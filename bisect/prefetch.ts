// Downloads ahead of the bisection: the (at most two) releases that may run next, one download at a time, and how
// much download time the runs hid. One at a time because a download held some 130 MB in the fetch library's buffers
// (a 100 MB native release; measured with pacote 21), and two at once took a cold bisect over 400 MiB; a release
// downloads in a few seconds and a run takes ten or more, so the second still finishes behind the run.
import type { DownloadStats, ProgressEvent } from "./types.ts";

// Fetches a release into the cache the runner installs from; rejecting is fine, the runner then reports install.
// fromCache: it was there already, so nothing was downloaded (a progress line says "cached", not "0 KB").
export type PrefetchFn = (version: string, signal: AbortSignal) => Promise<{ bytes: number; ms: number; fromCache?: boolean }>;

interface Entry {
  started: number;
  finished?: number;
  controller: AbortController;
  done: Promise<void>;
}

export interface Downloads {
  // Before running `version`: its download, started now if nobody asked for it earlier. Resolves with the wait.
  ready(version: string): Promise<number>;
  // The releases that may run next (≤ 2); in-flight downloads of anything else are cancelled.
  ahead(versions: readonly (string | undefined)[]): void;
  // Aborts every download still running, including one a step is waiting for (its wait then ends at once).
  cancelAll(): void;
  stats(): DownloadStats;
}

export function createDownloads(
  prefetch: PrefetchFn | undefined,
  now: () => number,
  emit: (event: ProgressEvent) => void,
): Downloads {
  const entries = new Map<string, Entry>();
  // Wanted next but not started: each starts when the download before it ends.
  let queued: string[] = [];
  const fetched = new Set<string>();
  const cached = new Set<string>();
  const used = new Set<string>();
  let hiddenMs = 0;
  let waitedMs = 0;

  const start = (fetch: PrefetchFn, version: string): Entry => {
    const controller = new AbortController();
    const entry: Entry = {
      started: now(),
      controller,
      done: fetch(version, controller.signal)
        .then(
          ({ bytes, ms, fromCache = false }) => {
            entry.finished = now();
            if (fromCache) cached.add(version);
            if (!controller.signal.aborted) emit({ kind: "download", version, bytes, ms, fromCache });
          },
          () => {
            // The runner tries the install itself and reports why it failed; a second report here would be noise.
            entry.finished = now();
          },
        )
        .then(() => startNext(fetch)),
    };
    entries.set(version, entry);
    fetched.add(version);
    return entry;
  };

  const inFlight = (entry: Entry): boolean => entry.finished === undefined;

  function startNext(fetch: PrefetchFn): void {
    if ([...entries.values()].some(inFlight)) return;
    const next = queued.shift();
    if (next !== undefined) start(fetch, next);
  }

  // Cancelled entries are forgotten, so the release can be fetched again if it is wanted later.
  const cancelUnused = (keep: readonly string[] = []): void => {
    for (const [version, entry] of entries) {
      if (inFlight(entry) && !used.has(version) && !keep.includes(version)) {
        entry.controller.abort();
        entries.delete(version);
      }
    }
  };

  return {
    async ready(version) {
      if (prefetch === undefined || used.has(version)) return 0;
      used.add(version);
      let entry = entries.get(version);
      if (entry === undefined) {
        // The step is blocked on this one download: give it the bandwidth; ahead() restarts what is still wanted.
        cancelUnused();
        queued = [];
        entry = start(prefetch, version);
      }
      const needed = now();
      await entry.done;
      const finished = entry.finished ?? needed;
      // The part of the download before it was needed ran alongside an earlier run; the rest was waited for.
      hiddenMs += Math.max(0, Math.min(finished, needed) - entry.started);
      const waited = Math.max(0, finished - needed);
      waitedMs += waited;
      return waited;
    },

    ahead(versions) {
      if (prefetch === undefined) return;
      const wanted = versions.filter((v): v is string => v !== undefined).slice(0, 2);
      // A download still running for a release that can no longer come next only takes bandwidth from one that can.
      cancelUnused(wanted);
      queued = wanted.filter((version) => !entries.has(version) && !used.has(version));
      startNext(prefetch);
    },

    cancelAll() {
      queued = [];
      for (const entry of entries.values()) if (inFlight(entry)) entry.controller.abort();
    },

    stats() {
      return {
        fetched: [...fetched],
        hiddenMs,
        waitedMs,
        unused: [...fetched].filter((v) => !used.has(v)),
        cached: [...fetched].filter((v) => cached.has(v)),
      };
    },
  };
}
