// Transcript rows on hand-built files: each field of a parsed, unparsed or off-shape row, file order and line splitting, which file a session owns, and which rows are conversation.
import { describe, expect, it } from "vitest";
import { conversationRows, transcriptOf, transcriptsOf, type TranscriptView } from "../../checker/transcripts.ts";
import { emptyWorkdir, startingProcess, type Recordings, type SessionRecording } from "../../harness/recordings.ts";
import type { TranscriptFile } from "../../harness/transcripts.ts";

const file = (project: string, sessionId: string, text: string): TranscriptFile => ({ path: `/cfg/projects/${project}/${sessionId}.jsonl`, project, sessionId, text });

function recordings(transcripts: TranscriptFile[] | undefined, sessions: SessionRecording[] = []): Recordings {
  return { sessions, requests: [], responseEnds: new Map(), hooks: [], workdir: emptyWorkdir(), transcripts, body: () => Buffer.alloc(0) };
}

const only = (text: string): TranscriptView => transcriptsOf(recordings([file("p", "id", text)]))[0]!;
const row = (value: unknown) => only(`${typeof value === "string" ? value : JSON.stringify(value)}\n`).rows[0]!;

describe("a transcript row", () => {
  it("carries the common fields of a parsed line", () => {
    const value = { type: "assistant", uuid: "u2", parentUuid: "u1", sessionId: "id", timestamp: "2026-12-01T10:00:01.500Z", message: { role: "assistant", content: "hello" }, extra: true };
    expect(row(value)).toEqual({ line: 0, raw: JSON.stringify(value), json: value, type: "assistant", uuid: "u2", parentUuid: "u1", at: Date.parse("2026-12-01T10:00:01.500Z"), text: "hello" });
  });

  it("gives null fields and no text to a line that is not JSON", () => {
    expect(row("{cut off")).toEqual({ line: 0, raw: "{cut off", json: null, type: null, uuid: null, parentUuid: null, at: null, text: "" });
  });

  it("gives null fields to JSON whose common fields have the wrong shape, keeping the raw line", () => {
    for (const value of [{ type: 5, message: { content: "x" } }, { uuid: "u", isMeta: "yes" }, { type: "user", message: { role: 5, content: "x" } }, { type: "user", message: "text" }, ["user"], "just a string", 7]) {
      const raw = JSON.stringify(value);
      expect(row(raw)).toEqual({ line: 0, raw, json: null, type: null, uuid: null, parentUuid: null, at: null, text: "" });
    }
  });

  it("gives null for an absent type, uuid or parent, and for a missing, empty or unreadable timestamp", () => {
    expect(row({})).toMatchObject({ json: {}, type: null, uuid: null, parentUuid: null, at: null, text: "" });
    expect(row({ parentUuid: null }).parentUuid).toBeNull();
    expect(row({ timestamp: "" }).at).toBeNull();
    expect(row({ timestamp: "yesterday" }).at).toBeNull();
    expect(row({ timestamp: "1970-01-01T00:00:00.000Z" }).at).toBe(0);
  });

  it("joins the text blocks of its message and reads nothing else as text", () => {
    const content = [{ type: "text", text: "a" }, { type: "tool_use", id: "t", input: { text: "not text" } }, null, "loose", { type: "text", text: 5 }, { type: "text", text: "b" }];
    expect(row({ type: "user", message: { role: "user", content } }).text).toBe("ab");
    expect(row({ type: "user", message: { role: "user", content: { text: "an object" } } }).text).toBe("");
    expect(row({ type: "user", message: { role: "user" } }).text).toBe("");
    expect(row({ type: "summary", summary: "no message" }).text).toBe("");
  });
});

describe("transcriptsOf", () => {
  it("splits lines on newlines, dropping only the empty piece after a final newline", () => {
    const view = only('{"type":"a"}\n\n{"type":"b"}\n');
    expect(view.rows.map((r) => [r.line, r.raw, r.type])).toEqual([
      [0, '{"type":"a"}', "a"],
      [1, "", null],
      [2, '{"type":"b"}', "b"],
    ]);
    expect(view.endsWithNewline).toBe(true);
    const cut = only('{"type":"a"}\n{"type":"b"}');
    expect(cut.rows.map((r) => r.type)).toEqual(["a", "b"]);
    expect(cut.endsWithNewline).toBe(false);
    expect(only("").rows).toEqual([]);
    expect(only("").endsWithNewline).toBe(false);
  });

  it("orders the files by their path under transcripts/, and names each by its project and session id", () => {
    const views = transcriptsOf(recordings([file("zeta", "s-1", ""), file("alpha", "s-9", ""), file("alpha", "s-2", "")]));
    expect(views.map((v) => [v.path, v.sessionId])).toEqual([
      ["alpha/s-2.jsonl", "s-2"],
      ["alpha/s-9.jsonl", "s-9"],
      ["zeta/s-1.jsonl", "s-1"],
    ]);
    expect(transcriptsOf(recordings([]))).toEqual([]);
  });
});

describe("transcriptOf", () => {
  const withProcess = (label: string, sessionId: string | null): SessionRecording => ({ label, stdout: [], stdin: [], process: { ...startingProcess(label, [], null), sessionId } });
  const files = [file("p", "id-a", '{"type":"user"}\n'), file("p", "id-b", '{"type":"assistant"}\n')];

  it("is the file named by the session id the session's process reported", () => {
    const rec = recordings(files, [withProcess("s1", "id-b"), withProcess("s2", "id-a")]);
    expect(transcriptOf(rec, "s1")?.rows.map((r) => r.type)).toEqual(["assistant"]);
    expect(transcriptOf(rec, { name: "s2" })?.sessionId).toBe("id-a");
  });

  it("is null for a session without a process, without a reported id, with an id no file has, or for no session", () => {
    const rec = recordings(files, [{ label: "never", stdout: [], stdin: [], process: null }, withProcess("noId", null), withProcess("emptyId", ""), withProcess("other", "id-c")]);
    expect(transcriptOf(rec, "never")).toBeNull();
    expect(transcriptOf(rec, "noId")).toBeNull();
    expect(transcriptOf(rec, "emptyId")).toBeNull();
    expect(transcriptOf(rec, "other")).toBeNull();
    expect(transcriptOf(rec, "nobody")).toBeNull();
    expect(transcriptOf(recordings(undefined, [withProcess("s1", "id-a")]), "s1")).toBeNull();
  });
});

describe("conversationRows", () => {
  it("keeps user and assistant rows with a message that are not meta, in file order", () => {
    const lines = [
      { type: "user", uuid: "1", message: { role: "user", content: "typed" } },
      { type: "system", uuid: "2", message: { role: "system", content: "sys" } },
      { type: "assistant", uuid: "3", isMeta: false, message: { role: "assistant", content: "answer" } },
      { type: "user", uuid: "4", isMeta: true, message: { role: "user", content: "meta" } },
      { type: "user", uuid: "5" },
      { type: "summary", uuid: "6", message: { content: "s" } },
      { type: "assistant", uuid: "7", message: { content: null } },
    ];
    const view = only(`${lines.map((l) => JSON.stringify(l)).join("\n")}\nnot json\n`);
    expect(conversationRows(view).map((r) => r.uuid)).toEqual(["1", "3", "7"]);
  });

  // 2.0.19–2.0.27 write the subagent warm-up into the session's own file (a resume-history-lost run on 2.0.19, rows as
  // recorded there): counted as the conversation, their absence from the resumed request read as history lost.
  it("leaves out sidechain rows, another conversation's", () => {
    const lines = [
      { type: "user", uuid: "1", isSidechain: false, message: { role: "user", content: "CCREPRO_HIST_ONE_6N say one" } },
      { type: "user", uuid: "2", isSidechain: true, message: { role: "user", content: "Warmup" } },
      { type: "assistant", uuid: "3", isSidechain: true, message: { role: "assistant", content: [{ type: "text", text: "ok" }] } },
      { type: "assistant", uuid: "4", isSidechain: false, message: { role: "assistant", content: [{ type: "text", text: "answer 1" }] } },
    ];
    expect(conversationRows(only(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`)).map((r) => r.uuid)).toEqual(["1", "4"]);
  });
});
