// Typed views of the transcripts claude wrote (the run directory's `transcripts/` copy): one file per session id, one
// row per line, parsed where the line is JSON and left as raw text where it is not (a corrupt or truncated line).
import { z } from "zod";
import type { Recordings } from "../harness/recordings.ts";
import { sessionOf, type SessionName } from "./views.ts";

const rowSchema = z.looseObject({
  type: z.string().optional(),
  uuid: z.string().optional(),
  parentUuid: z.string().nullable().optional(),
  sessionId: z.string().optional(),
  timestamp: z.string().optional(),
  isMeta: z.boolean().optional(),
  isSidechain: z.boolean().optional(),
  isCompactSummary: z.boolean().optional(),
  message: z.looseObject({ role: z.string().optional(), content: z.unknown() }).optional(),
});

/** One line of a transcript: parsed (`json` and its common fields) or not (`json` null: a corrupt or cut line). */
export interface TranscriptRow {
  /** The line's index in the file (0-based). */
  line: number;
  raw: string;
  json: z.infer<typeof rowSchema> | null;
  /** "user", "assistant", "system", "summary", … (null for a line that is not JSON). */
  type: string | null;
  uuid: string | null;
  parentUuid: string | null;
  /** When claude wrote the row, in ms (null when it carries no timestamp). */
  at: number | null;
  /** The text of the row's message content joined ("" for rows without a message). */
  text: string;
}

/** One transcript file: the session id it is named by, its path under `transcripts/`, and its rows. */
export interface TranscriptView {
  sessionId: string;
  /** `<project folder>/<session id>.jsonl`. */
  path: string;
  rows: TranscriptRow[];
  /** Whether the file ends with a newline (false: its last line was cut off, or is being written). */
  endsWithNewline: boolean;
}

const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((block) => (block && typeof block === "object" && typeof (block as { text?: unknown }).text === "string" ? (block as { text: string }).text : "")).join("")
      : "";

function viewRow(raw: string, line: number): TranscriptRow {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { line, raw, json: null, type: null, uuid: null, parentUuid: null, at: null, text: "" };
  }
  const parsed = rowSchema.safeParse(value);
  const json = parsed.success ? parsed.data : null;
  const at = json?.timestamp ? Date.parse(json.timestamp) : NaN;
  return { line, raw, json, type: json?.type ?? null, uuid: json?.uuid ?? null, parentUuid: json?.parentUuid ?? null, at: Number.isNaN(at) ? null : at, text: textOf(json?.message?.content) };
}

/** Every transcript the run copied out of its config dir, in file-name order; [] when it copied none (or live). */
export function transcriptsOf(rec: Recordings): TranscriptView[] {
  return (rec.transcripts ?? [])
    .map((file) => {
      const lines = file.text.split("\n");
      if (lines.at(-1) === "") lines.pop();
      return { sessionId: file.sessionId, path: `${file.project}/${file.sessionId}.jsonl`, rows: lines.map(viewRow), endsWithNewline: file.text.endsWith("\n") };
    })
    .sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * The transcript named by session `s`'s session id (as its process reported it), or null when there is none.
 *
 * @example const rows = transcriptOf(rec, s1)?.rows.filter((r) => r.type === "user") ?? [];
 */
export function transcriptOf(rec: Recordings, s: SessionName): TranscriptView | null {
  const id = sessionOf(rec, s)?.process?.sessionId;
  return id ? (transcriptsOf(rec).find((t) => t.sessionId === id) ?? null) : null;
}

/**
 * The conversation rows of a transcript: user and assistant messages that are not meta rows, in file order. Sidechain
 * rows (a subagent's, or the "Warmup" exchange 2.0.19–2.0.27 write into the session's own file) are another
 * conversation's, never sent back as this one's history.
 */
export const conversationRows = (view: TranscriptView): TranscriptRow[] =>
  view.rows.filter((row) => (row.type === "user" || row.type === "assistant") && row.json?.isMeta !== true && row.json?.isSidechain !== true && row.json?.message !== undefined);
