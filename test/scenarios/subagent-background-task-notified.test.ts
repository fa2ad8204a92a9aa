// subagent-background-task-notified's check on both sides of its bisected boundary, recorded from real releases
// (test/fixtures/runs README): up to 2.1.224 the subagent is never woken by its finished background command
// (2.1.112 may kill it instead); from 2.1.225 a request of the subagent carries the <task-notification>.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editBody, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("subagent-background-task-notified")!;
const judge = (dir: string) => {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse({}));
  return { ...result, ids: result.findings.map((f) => f.id), wheres: result.findings.map((f) => f.where) };
};
const check = (name: string) => judge(recordedRun(name));
// A copy of a recorded run whose working directory at the end lacks `file` (as if it was never written).
const without = (name: string, file: string) => {
  const dir = copyRun(recordedRun(name));
  editFile(dir, "workdir-at-end.json", (text) => {
    const snapshot = JSON.parse(text) as { files: { path: string }[] };
    return JSON.stringify({ ...snapshot, files: snapshot.files.filter((f) => f.path !== file) });
  });
  return dir;
};

describe("subagent-background-task-notified's check", () => {
  it("2.1.224: RED subagent-never-notified — bg-done.txt written, no subagent request carries the notification", () => {
    expect(check("bg-never-notified-2.1.224")).toMatchObject({ verdict: "RED", ids: ["subagent-never-notified"] });
  });

  it("2.1.225: GREEN — the subagent's request #6 carries the notification", () => {
    expect(check("bg-notified-2.1.225")).toMatchObject({ verdict: "GREEN", ids: [], notes: expect.arrayContaining(["notified in subagent request #6"]) });
  });

  it("2.1.112: RED subagent-task-killed — the command started (bg-started.txt) and never finished", () => {
    expect(check("bg-task-killed-2.1.112")).toMatchObject({ verdict: "RED", ids: ["subagent-task-killed"] });
  });
  it("2.1.226 in the interactive UI: RED subagent-never-notified — the command finished, no subagent request followed its turn", () => {
    expect(check("bg-ui-never-notified-2.1.226")).toMatchObject({ verdict: "RED", ids: ["subagent-never-notified"], wheres: ["0 subagent requests after its turn ended; main requests quoting the output: none"], notes: ["never notified"] });
  });

  it("2.1.258 in the interactive UI: GREEN — the subagent's request #7 carries the notification", () => {
    expect(check("bg-ui-notified-2.1.258")).toMatchObject({ verdict: "GREEN", ids: [], notes: ["notified in subagent request #7"] });
  });

  it("names the main requests, after the subagent's turn, that quote the command's output instead", () => {
    const dir = copyRun(recordedRun("bg-ui-never-notified-2.1.226"));
    editBody(dir, 6, (body) => body.messages.unshift({ role: "user", content: "BG-done" }));
    expect(judge(dir)).toMatchObject({ verdict: "RED", wheres: ["0 subagent requests after its turn ended; main requests quoting the output: #6"] });
  });

  // In the 2.1.226 run the subagent's turn ended with request #5 (at 1796537177905.1768); #1 is a side request, #4 main.
  const at = (dir: string, seq: number, receivedAt: number) =>
    editJsonLines(dir, "mock/index.jsonl", (lines) => lines.map((l) => (l.kind === "request" && l.seq === seq ? { ...l, receivedAt } : l)));
  const quote = (dir: string, ...seqs: number[]) => seqs.forEach((seq) => editBody(dir, seq, (body) => body.messages.unshift({ role: "user", content: "BG-done" })));

  it("names only main requests after the subagent's turn ended: not one at that instant, not a side request", () => {
    const dir = copyRun(recordedRun("bg-ui-never-notified-2.1.226"));
    quote(dir, 1, 4, 6);
    at(dir, 4, 1796537177905.1768);
    at(dir, 1, 1796537178000);
    expect(judge(dir)).toMatchObject({ verdict: "RED", wheres: ["0 subagent requests after its turn ended; main requests quoting the output: #6"] });
  });

  it("lists every main request quoting the output", () => {
    const dir = copyRun(recordedRun("bg-ui-never-notified-2.1.226"));
    quote(dir, 4, 6);
    at(dir, 4, 1796537178000);
    expect(judge(dir)).toMatchObject({ verdict: "RED", wheres: ["0 subagent requests after its turn ended; main requests quoting the output: #4, #6"] });
  });

  it("INCONCLUSIVE when the command never started (no bg-started.txt)", () => {
    expect(judge(without("bg-ui-never-notified-2.1.226", "bg-started.txt"))).toMatchObject({ verdict: "INCONCLUSIVE", ids: [], reason: "the background command never started (no bg-started.txt)" });
  });

  it("RED subagent-task-killed when the command started and bg-done.txt never appeared", () => {
    expect(judge(without("bg-ui-never-notified-2.1.226", "bg-done.txt"))).toMatchObject({ verdict: "RED", ids: ["subagent-task-killed"], wheres: ["bg-started.txt without bg-done.txt in the working directory at the end"], notes: ["killed"] });
  });

  it("GREEN when the notification was delivered, even with bg-done.txt missing", () => {
    expect(judge(without("bg-ui-notified-2.1.258", "bg-done.txt"))).toMatchObject({ verdict: "GREEN", ids: [], notes: ["notified in subagent request #7"] });
  });

  it("INCONCLUSIVE when the subagent made fewer than two requests (it never ended its first turn)", () => {
    const dir = copyRun(recordedRun("bg-ui-never-notified-2.1.226"));
    editFile(dir, "mock/index.jsonl", (text) => text.replace(/"stream":"sub"(?=[^\n]*"seq":5\b)|("seq":5\b[^\n]*)"stream":"sub"/, (m, pre) => (pre ? `${pre}"stream":"side"` : '"stream":"side"')));
    expect(judge(dir)).toMatchObject({ verdict: "INCONCLUSIVE", ids: [], reason: "the subagent never ended its first turn" });
  });

  it("a notification only in the subagent's first two requests does not count: RED", () => {
    const dir = copyRun(recordedRun("bg-ui-never-notified-2.1.226"));
    editBody(dir, 5, (body) => body.messages.unshift({ role: "user", content: "<task-notification>early</task-notification>" }));
    expect(judge(dir)).toMatchObject({ verdict: "RED", ids: ["subagent-never-notified"] });
  });
});
