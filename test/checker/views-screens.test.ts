// The typed views of what an interactive session showed and what a session printed: screensOf reads the indexed
// screens (screens/index.jsonl) of one session in capture order; stdoutOf gives a session's stdout as text.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadScreens, toStdoutRecord, type Recordings } from "../../harness/recordings.ts";
import { screensOf, stdoutOf } from "../../checker/views.ts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-screens-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const recordings = (over: Partial<Recordings>): Recordings => ({ sessions: [], requests: [], responseEnds: new Map(), hooks: [], workdir: { afterSession: {}, atEnd: null }, body: () => Buffer.alloc(0), ...over });

describe("screensOf", () => {
  it("gives one session's screens in capture order, each with its text and the step that took it", () => {
    fs.mkdirSync(path.join(root, "screens"));
    fs.writeFileSync(path.join(root, "screens", "001-ui-start.txt"), "> \n");
    fs.writeFileSync(path.join(root, "screens", "002-other-start.txt"), "other\n");
    fs.writeFileSync(path.join(root, "screens", "003-ui-end.txt"), "bye\nsecond line\n");
    const index = [
      { t: 1, session: "ui", what: "start", file: "screens/001-ui-start.txt" },
      { t: 2, session: "other", what: "start", file: "screens/002-other-start.txt" },
      { t: 3, session: "ui", what: "end", file: "screens/003-ui-end.txt" },
    ];
    fs.writeFileSync(path.join(root, "screens", "index.jsonl"), index.map((line) => JSON.stringify(line)).join("\n") + "\n");
    const rec = recordings({ screens: loadScreens(root) });
    expect(screensOf(rec, "ui")).toEqual([
      { t: 1, session: "ui", what: "start", text: "> " },
      { t: 3, session: "ui", what: "end", text: "bye\nsecond line" },
    ]);
    expect(screensOf(rec, { name: "other" }).map((s) => s.text)).toEqual(["other"]);
    expect(screensOf(rec, "nobody")).toEqual([]);
    expect(screensOf(recordings({}), "ui")).toEqual([]);
  });

  it("loads no screens from a run without an index", () => {
    expect(loadScreens(path.join(root, "no-such-run"))).toEqual([]);
  });
});

describe("stdoutOf", () => {
  it("joins a session's stdout lines as text, and is empty for a session that printed nothing or none at all", () => {
    const stdout = ["FIRST line", "second"].map((raw, i) => toStdoutRecord(i, i, raw));
    const rec = recordings({ sessions: [{ label: "s1", stdout, stdin: [], process: null }, { label: "s2", stdout: [], stdin: [], process: null }] });
    expect(stdoutOf(rec, "s1")).toBe("FIRST line\nsecond");
    expect(stdoutOf(rec, "s2")).toBe("");
    expect(stdoutOf(rec, "s3")).toBe("");
  });
});
