// A run's watchdog: a small process of its own (its own session, no run marker) that holds a pipe from ccrepro and,
// when the pipe closes, ends every process carrying the run's marker. ccrepro closes it after its own cleanup; a
// SIGKILL of ccrepro closes it too, so nothing of the run outlives ccrepro by more than the reap takes (issue 27).
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const ENTRY = fileURLToPath(new URL("./watchdog-main.mjs", import.meta.url));

export interface Watchdog {
  // Closes the pipe: the watchdog reaps what is left of the run (nothing, after ccrepro's own cleanup) and exits.
  release(): void;
}

export function startWatchdog(marker: { name: string; value: string }): Watchdog {
  let child: ChildProcess | null = null;
  try {
    child = spawn(process.execPath, [ENTRY, marker.name, marker.value], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
    // ccrepro does not wait for it: it outlives ccrepro by design.
    child.unref();
    child.on("error", () => {
      // No watchdog: ccrepro's own cleanup and the next run's orphan sweep still end the run's processes.
    });
    (child.stdin as unknown as { unref?: () => void }).unref?.();
  } catch {
    child = null;
  }
  return {
    release: () => {
      child?.stdin?.end();
    },
  };
}
