// A recording (`ccrepro record`, `ccrepro run --record-api`) as a scenario uses it: the mock script that replays its
// replies, and the recorded requests a replay-fidelity check compares against. `ccrepro import` writes files that use it.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { RecordedRequest } from "../checker/replay-fidelity.ts";
import { bodyBytes, readRecording, type Recording } from "../mock-api/recording.ts";
import { replayScriptOf, type ReplayScript } from "../mock-api/replay-script.ts";
import type { MockScriptInput } from "../mock-api/script.ts";
import { noteScenarioDataFile } from "../core/scenario-data.ts";

/** A recording loaded by `recording(file)`: the file, its contents, and what a replaying scenario needs of it. */
export interface LoadedRecording {
  /** The recording's path. */
  readonly file: string;
  /** The recording as written (validated; secrets were never in it). */
  readonly recording: Recording;
  /** Its Messages requests in recorded order, bodies as sent: what `replayFidelity` compares the replay against. */
  readonly requests: readonly RecordedRequest[];
  /**
   * The mock script that serves the recorded replies, each matched to a request by content; `speed`: "instant" (the
   * default), or a factor on the recorded event timings (1 = as recorded).
   *
   * @example mockScript: () => recorded.mockScript({ speed: 1 })
   */
  mockScript(options?: { speed?: ReplayScript["speed"] }): MockScriptInput;
}

/**
 * Loads a recording, typically the one beside the scenario file; a missing, corrupted or unknown-version file is
 * refused with the file, the place and what to do.
 *
 * @example const recorded = recording(new URL("./my-bug.recording.json", import.meta.url));
 */
export function recording(file: string | URL): LoadedRecording {
  const path = typeof file === "string" ? file : fileURLToPath(file);
  const loaded = readRecording(path);
  // A run directory keeps a copy beside its copy of the scenario file, so the run is judged again without this one.
  noteScenarioDataFile(resolve(path));
  const messages = loaded.exchanges.filter((e) => e.request.path.endsWith("/v1/messages") && e.response !== null);
  return {
    file: path,
    recording: loaded,
    requests: messages.map((e) => ({ seq: e.seq, label: e.label, body: bodyBytes(e.request.body).toString("utf8") })),
    mockScript: (options = {}) => ({ replay: replayScriptOf(loaded.exchanges, options.speed ?? "instant") }),
  };
}
