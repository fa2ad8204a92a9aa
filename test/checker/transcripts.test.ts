// The transcript views: rows parsed or kept raw, the session's own file by its session id, conversation rows only.
import { describe, expect, it } from "vitest";
import { conversationRows, transcriptOf, transcriptsOf } from "../../checker/transcripts.ts";
import { emptyWorkdir, startingProcess, type Recordings } from "../../harness/recordings.ts";

const ID = "11111111-2222-3333-4444-555555555555";
const rows = [
  { type: "queue-operation" },
  { type: "user", uuid: "u1", parentUuid: null, timestamp: "2026-12-01T10:00:00.000Z", message: { role: "user", content: "one" } },
  { type: "assistant", uuid: "a1", parentUuid: "u1", timestamp: "2026-12-01T10:00:01.000Z", message: { role: "assistant", content: [{ type: "text", text: "answer" }] } },
  { type: "user", uuid: "m1", isMeta: true, message: { role: "user", content: "meta" } },
].map((row) => JSON.stringify(row));
const text = `${rows[0]}\n${rows[1]}\n{not json\n${rows[2]}\n${rows[3]}\n{"type":"user","mess`;

function recordings(): Recordings {
  const process = { ...startingProcess("s1", [], null), sessionId: ID };
  return {
    sessions: [{ label: "s1", stdout: [], stdin: [], process }],
    requests: [],
    responseEnds: new Map(),
    hooks: [],
    workdir: emptyWorkdir(),
    transcripts: [{ path: `/x/proj/${ID}.jsonl`, project: "proj", sessionId: ID, text }],
    body: () => Buffer.alloc(0),
  };
}

describe("transcript views", () => {
  it("keeps every line, parsed or not, and says the file was cut off", () => {
    const [view] = transcriptsOf(recordings());
    expect(view!.path).toBe(`proj/${ID}.jsonl`);
    expect(view!.endsWithNewline).toBe(false);
    expect(view!.rows.map((r) => r.type)).toEqual(["queue-operation", "user", null, "assistant", "user", null]);
    expect(view!.rows[2]).toMatchObject({ line: 2, raw: "{not json", json: null });
  });

  it("finds a session's transcript by its session id, and its conversation rows with their texts and times", () => {
    const view = transcriptOf(recordings(), "s1")!;
    expect(conversationRows(view).map((r) => [r.uuid, r.parentUuid, r.text, r.at])).toEqual([
      ["u1", null, "one", Date.parse("2026-12-01T10:00:00.000Z")],
      ["a1", "u1", "answer", Date.parse("2026-12-01T10:00:01.000Z")],
    ]);
    expect(transcriptOf(recordings(), "s2")).toBeNull();
    expect(transcriptsOf({ ...recordings(), transcripts: undefined })).toEqual([]);
  });
});
