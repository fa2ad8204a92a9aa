// Transcript moves: a step that edits the transcript claude wrote for a session (a corrupt line, a cut-off tail), as a
// user's disk or a killed process would leave it.
import type { Step as RawStep } from "../harness/plan.ts";
import type { Session } from "./session.ts";
import type { Step } from "./steps.ts";

/** What `editTranscript` does to the file: its whole text in, the new text out. */
export interface TranscriptEdit<S extends string> {
  /** The session whose transcript (`<config>/projects/<project>/<its session id>.jsonl`) is edited; it must have ended. */
  of: Session<S>;
  edit: (text: string) => string;
}

/**
 * Rewrite the transcript of an ended session, recorded as a step of run.json (the file, and its lines, bytes and
 * sha256 before and after). The run is an ERROR when the session still runs or wrote no transcript.
 *
 * @example editTranscript("a corrupt line after the first turn", { of: s1, edit: (text) => text.replace(/\n/, "\n{not json\n") })
 */
export function editTranscript<S extends string>(label: string, options: TranscriptEdit<S>): Step<S> {
  const raw: RawStep = { kind: "edit-transcript", label, session: options.of.name, edit: options.edit };
  return raw as unknown as Step<S>;
}
