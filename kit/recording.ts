// A recording (`ccrepro record`, `ccrepro run --record-api`) as a scenario uses it: the mock script that replays its
// replies, and the recorded requests a replay-fidelity check compares against. `ccrepro import` writes files that use it.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { RecordedRequest } from "../checker/replay-fidelity.ts";
import { bodyBytes, readRecording, type Recording } from "../mock-api/recording.ts";
import { recordedStreams, replayScriptOf, servedSeqOf, type ReplayScript } from "../mock-api/replay-script.ts";
import type { MockScriptInput } from "../mock-api/script.ts";
import { noteScenarioDataFile } from "../core/scenario-data.ts";
import { fakeKeyOfKind } from "../harness/isolation.ts";
import type { Condition } from "./waits.ts";

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
  /**
   * A wait condition: the replay has served each of these recorded requests (by their number in the recording; all of
   * them when none is given) and every reply it served them with has ended. An imported interactive session waits on
   * it before it types the next prompt, as the user did.
   *
   * @example wait("prompt 1 was answered as recorded", recorded.served([3, 4]))
   */
  served(seqs?: readonly number[]): Condition;
  /**
   * ccrepro's fake key in the kind of the recorded session's `ANTHROPIC_API_KEY` (claude reads the kind from the key:
   * a Console key `sk-ant-api…` gets other side-request models than ccrepro's own key), for the scenario's `env`;
   * null when the recording names none.
   *
   * @example env: { ANTHROPIC_API_KEY: recorded.apiKey }
   */
  readonly apiKey: string | null;
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
  const kind = loaded.processes.find((p) => p.keyKinds?.["ANTHROPIC_API_KEY"])?.keyKinds?.["ANTHROPIC_API_KEY"];
  const streams = recordedStreams(loaded.exchanges);
  const messages = loaded.exchanges.filter((e) => e.request.path.endsWith("/v1/messages") && e.response !== null);
  return {
    file: path,
    recording: loaded,
    requests: messages.map((e) => ({ seq: e.seq, label: e.label, body: bodyBytes(e.request.body).toString("utf8"), stream: streams.get(e.seq) ?? e.label })),
    apiKey: kind === undefined ? null : fakeKeyOfKind(kind),
    mockScript: (options = {}) => ({ replay: replayScriptOf(loaded.exchanges, options.speed ?? "instant") }),
    // Only what the replay can serve: a recorded request whose body is not text is in no replay script.
    served: (seqs = replayScriptOf(loaded.exchanges).exchanges.map((e) => e.seq)) => (rec) => {
      const answered = new Set<number>();
      for (const entry of rec.requests) {
        const seq = servedSeqOf(entry.reply.summary);
        if (seq !== null && rec.responseEnds.has(entry.seq)) answered.add(seq);
      }
      return seqs.every((seq) => answered.has(seq));
    },
  };
}
