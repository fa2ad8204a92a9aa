// A run's watchdog: a small process of its own (its own session, no run marker) that holds a pipe from ccrepro and,
// when the pipe closes, ends every process carrying the run's marker. ccrepro closes it after its own cleanup; a
// SIGKILL of ccrepro closes it too, so nothing of the run outlives ccrepro by more than the reap takes (issue 27).
// It waits as a shell reading one line, and starts node to reap only when the pipe closes without ccrepro's word
// that its own reap left nothing: a node process per run cost 60–80 ms of CPU for a scan that finds nothing.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const ENTRY = fileURLToPath(new URL("./watchdog-main.mjs", import.meta.url));

export interface Watchdog {
  // Closes the pipe. With nothingLeft (ccrepro's own reap had no survivors) the watchdog just exits; otherwise it
  // reaps what is left of the run and exits.
  release(nothingLeft: boolean): void;
}

// The word on the pipe that lets the shell exit without a reap.
const NOTHING_LEFT = "nothing-left";
// $0 is node, $1… the reaper's arguments. The shell ignores a terminal's signals while it waits; node resets them
// at its start, and watchdog-main.mjs ignores them again first thing (the gap is node's start-up, as before).
const WAIT_SCRIPT = `trap '' INT HUP TERM; read -r word; [ "$word" = ${NOTHING_LEFT} ] && exit 0; exec "$0" "$@"`;

export function startWatchdog(marker: { name: string; value: string }): Watchdog {
  let child: ChildProcess | null = null;
  try {
    child = spawn("/bin/sh", ["-c", WAIT_SCRIPT, process.execPath, ENTRY, marker.name, marker.value], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
    // ccrepro does not wait for it: it outlives ccrepro by design.
    child.unref();
    child.on("error", () => {
      // No watchdog: ccrepro's own cleanup and the next run's orphan sweep still end the run's processes.
    });
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    // A watchdog killed from outside turns the release's write into EPIPE: nothing is lost, the run reaped itself.
    child.stdin?.on("error", () => {});
  } catch {
    child = null;
  }
  return {
    release: (nothingLeft) => {
      child?.stdin?.end(nothingLeft ? `${NOTHING_LEFT}\n` : undefined);
    },
  };
}
