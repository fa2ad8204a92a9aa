// hook-decision-enforced's check on both sides of its bisected boundary, recorded from real releases
// (test/fixtures/runs README): a PreToolUse hook that answers `ask` under -p with bypassed permissions let the Bash
// write run up to 2.1.84; from 2.1.85 the call is refused and the model is told the hook's reason. In the interactive
// UI (hook-ask-ui-2.1.332, recorded with --param ui=terminal --param how=ask) the UI asks and sends no result; edits
// of that recording show what the check does with a UI that died, and with a write that ran.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editBody, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("hook-decision-enforced")!;
const check = (name: string) => {
  const result = scenario.check(loadRecordings(recordedRun(name)), scenario.params.parse({ how: "ask" }));
  return { ...result, ids: result.findings.map((f) => f.id) };
};

describe("hook-decision-enforced's check", () => {
  it("2.1.84: RED denied-write-ran — the hook answered ask, the write ran anyway (sentinel.txt in the working directory)", () => {
    const result = check("hook-ask-ran-2.1.84");
    expect(result).toMatchObject({ verdict: "RED", ids: ["denied-write-ran"] });
    expect(result.notes?.[0]).toContain("(Bash completed with no output)");
  });

  it("2.1.85: GREEN — no sentinel, and the tool result carries the hook's reason", () => {
    const result = check("hook-ask-denied-2.1.85");
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes?.[0]).toContain("writes are not allowed here");
  });

  const inUi = (dir: string) => {
    const result = scenario.check(loadRecordings(dir), scenario.params.parse({ how: "ask", ui: "terminal" }));
    return { ...result, ids: result.findings.map((f) => f.id) };
  };

  it("in the UI, 2.1.332: GREEN — the UI asked (no result sent), was still running when the run ended it, wrote nothing", () => {
    const result = inUi(recordedRun("hook-ask-ui-2.1.332"));
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes?.[0]).toBe("the UI sent no result for the call (it waits for an answer to the ask)");
  });

  it("in the UI: INCONCLUSIVE when the UI had exited by itself (its silence proves nothing)", () => {
    const dir = copyRun(recordedRun("hook-ask-ui-2.1.332"));
    editFile(dir, path.join("sessions", "s1", "session.json"), (text) => text.replace('"signal": "SIGKILL"', '"signal": null').replace('"exitCode": null', '"exitCode": 1'));
    expect(inUi(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the UI exited by itself after the hook answered ask" });
  });

  it("in the UI: RED when the write ran although no result was sent", () => {
    const dir = copyRun(recordedRun("hook-ask-ui-2.1.332"));
    const snapshot = path.join(dir, "workdir-at-end.json");
    const at = JSON.parse(fs.readFileSync(snapshot, "utf8")) as { files: { path: string }[] };
    expect(at.files.some((f) => f.path === "sentinel.txt")).toBe(false);
    editFile(dir, "workdir-at-end.json", (text) => {
      const value = JSON.parse(text) as { files: object[] };
      value.files.push({ path: "sentinel.txt", size: 8, sha256: "0".repeat(64), text: "written\n" });
      return JSON.stringify(value);
    });
    expect(inUi(dir)).toMatchObject({ verdict: "RED", ids: ["denied-write-ran"] });
  });
});

// A UserPromptSubmit hook that blocks the first prompt (how=prompt-block), recorded on 2.1.332 under -p
// (hook-prompt-blocked-2.1.332: no request, a success result) and in the UI (hook-prompt-blocked-ui-2.1.332: the
// control prompt typed next is answered; its two requests hold it and never the blocked text). Edits put the blocked
// text into a request, alone (the bug) or beside the control prompt (an input the run failed to empty).
describe("hook-decision-enforced's check of a blocked prompt", () => {
  const SECRET = "BLOCKED_PROMPT_TEXT_9Q";
  const CONTROL = "ALLOWED_PROMPT_TEXT_4W";
  const judge = (dir: string, params: Record<string, string>) => {
    const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
    return { ...result, ids: result.findings.map((f) => f.id) };
  };
  const PRINT = "hook-prompt-blocked-2.1.332";
  const UI = "hook-prompt-blocked-ui-2.1.332";
  const editRequest = (dir: string, seq: number, edit: (text: string) => string) => editFile(dir, path.join("mock", "requests", `00000${seq}.body`), edit);

  it.each(["prompt-block", "prompt-exit2"])("-p, 2.1.332 (how=%s): GREEN — the hook blocked the prompt, claude sent no request and printed a result", (how) => {
    expect(judge(recordedRun(PRINT), { how })).toMatchObject({ verdict: "GREEN", ids: [], notes: ["0 requests; result: success"] });
  });

  it("-p: INCONCLUSIVE when claude neither answered nor sent a request", () => {
    const dir = copyRun(recordedRun(PRINT));
    editFile(dir, path.join("sessions", "s1", "stdout.jsonl"), (text) => text.split("\n").filter((line) => !line.includes('\\"type\\":\\"result\\"')).join("\n"));
    expect(judge(dir, { how: "prompt-block" })).toMatchObject({ verdict: "INCONCLUSIVE", reason: "claude -p neither answered nor sent a request" });
  });

  it("INCONCLUSIVE when the UserPromptSubmit hook never ran (and with how=ask the PreToolUse hook)", () => {
    const dir = copyRun(recordedRun(PRINT));
    editFile(dir, "hooks.jsonl", () => "");
    expect(judge(dir, { how: "prompt-block" })).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the UserPromptSubmit hook never ran" });
    const ask = copyRun(recordedRun("hook-ask-denied-2.1.85"));
    editFile(ask, "hooks.jsonl", () => "");
    expect(judge(ask, { how: "ask" })).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the PreToolUse hook never ran" });
  });

  it("the PreToolUse hook's calls do not stand in for the UserPromptSubmit hook's", () => {
    expect(judge(recordedRun("hook-ask-denied-2.1.85"), { how: "prompt-block" })).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the UserPromptSubmit hook never ran" });
  });

  it("in the UI, 2.1.332: GREEN — the control prompt is answered, no request carries the blocked text", () => {
    expect(judge(recordedRun(UI), { how: "prompt-block", ui: "terminal" })).toMatchObject({ verdict: "GREEN", ids: [], notes: ["2 requests; result: none"] });
  });

  it("in the UI: INCONCLUSIVE when the control prompt was never answered (its request got no reply's end)", () => {
    const dir = copyRun(recordedRun(UI));
    editJsonLines(dir, path.join("mock", "index.jsonl"), (lines) => lines.filter((line) => line.kind !== "response-end"));
    expect(judge(dir, { how: "prompt-block", ui: "terminal" })).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the prompt typed after the blocked one was never answered" });
    // Under -p the same run is judged by its requests: the control prompt's wait is the UI's alone.
    expect(judge(dir, { how: "prompt-block" })).toMatchObject({ verdict: "GREEN" });
  });

  it("RED blocked-prompt-sent when a request carries the blocked text without the control prompt", () => {
    const dir = copyRun(recordedRun(UI));
    editRequest(dir, 2, (text) => text.replaceAll(CONTROL, SECRET));
    const result = judge(dir, { how: "prompt-block", ui: "terminal" });
    expect(result).toMatchObject({ verdict: "RED", ids: ["blocked-prompt-sent"] });
    expect(result.findings[0]).toMatchObject({ title: "the prompt the UserPromptSubmit hook blocked was sent to the model", where: "request #2 (main)" });
  });

  it("INCONCLUSIVE, not RED, when the blocked text sits beside the control prompt (the input was not emptied)", () => {
    const dir = copyRun(recordedRun(UI));
    editRequest(dir, 2, (text) => text.replace(`${CONTROL} say ok`, `${SECRET} ${CONTROL} say ok`));
    expect(judge(dir, { how: "prompt-block", ui: "terminal" })).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the UI's input still held the blocked prompt when the next one was typed", ids: [] });
  });
});

// The PreToolUse paths beyond ask, on edits of the 2.1.85 and UI recordings.
describe("hook-decision-enforced's check of a refused call", () => {
  const judge = (dir: string, params: Record<string, string>) => {
    const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
    return { ...result, ids: result.findings.map((f) => f.id) };
  };
  const DENIED = "hook-ask-denied-2.1.85";
  const editResult = (dir: string, edit: (text: string) => string) => editFile(dir, path.join("mock", "requests", "000002.body"), edit);

  it.each(["deny", "exit2"])("how=%s: GREEN when the tool result carries the hook's reason; RED denial-not-shown when it does not", (how) => {
    expect(judge(recordedRun(DENIED), { how })).toMatchObject({ verdict: "GREEN", ids: [] });
    const dir = copyRun(recordedRun(DENIED));
    editResult(dir, (text) => text.replace('"content": "writes are not allowed here"', '"content": "denied"'));
    const result = judge(dir, { how });
    expect(result).toMatchObject({ verdict: "RED", ids: ["denial-not-shown"] });
    expect(result.findings[0]).toMatchObject({ title: "the tool result does not carry the hook's reason", where: "request #2: denied" });
    // ask promises a question, not the reason: the same result is no finding.
    expect(judge(dir, { how: "ask" }).ids).toEqual([]);
  });

  it("RED denied-write-ran names the decision the write ignored", () => {
    const result = judge(recordedRun("hook-ask-ran-2.1.84"), { how: "ask" });
    expect(result.findings[0]).toMatchObject({ title: "the hook answered ask, but the Bash write ran: sentinel.txt exists", where: "working directory at the end" });
  });

  it("joins several tool results and keeps the first 200 characters in the note", () => {
    const dir = copyRun(recordedRun(DENIED));
    editBody(dir, 2, (body) => {
      const user = body.messages[2] as { content: object[] };
      user.content.push({ type: "tool_result", tool_use_id: "toolu_other", content: "x".repeat(300) });
    });
    const result = judge(dir, { how: "deny" });
    expect(result.notes).toEqual([`tool result: writes are not allowed here | ${"x".repeat(170)}`]);
  });

  it("-p: INCONCLUSIVE when no request of the main conversation carried the Bash call's result", () => {
    const sub = copyRun(recordedRun(DENIED));
    editJsonLines(sub, path.join("mock", "index.jsonl"), (lines) => lines.map((line) => (line.seq === 2 && line.kind === "request" ? { ...line, stream: "sub" } : line)));
    expect(judge(sub, { how: "ask" })).toMatchObject({ verdict: "INCONCLUSIVE", reason: "no request carried the Bash call's result" });
    const none = copyRun(recordedRun(DENIED));
    editBody(none, 2, (body) => {
      body.messages.pop();
    });
    expect(judge(none, { how: "ask" })).toMatchObject({ verdict: "INCONCLUSIVE", reason: "no request carried the Bash call's result" });
  });

  it("in the UI, silence is an answer only to ask: a deny with no result sent is not reached", () => {
    expect(judge(recordedRun("hook-ask-ui-2.1.332"), { how: "deny", ui: "terminal" })).toMatchObject({ verdict: "INCONCLUSIVE", reason: "no request carried the Bash call's result" });
  });

  it("in the UI, a result sent after ask is judged like -p's", () => {
    expect(judge(recordedRun(DENIED), { how: "ask", ui: "terminal" })).toMatchObject({ verdict: "GREEN", notes: ["tool result: writes are not allowed here"] });
  });

  const uiSession = (dir: string, edit: (session: Record<string, unknown>) => Record<string, unknown>) =>
    editFile(dir, path.join("sessions", "s1", "session.json"), (text) => JSON.stringify(edit(JSON.parse(text) as Record<string, unknown>), null, 2));

  it("in the UI: a UI the run stopped (any signal) or that was still running counts as still waiting; one that ended by itself does not", () => {
    const stopped = copyRun(recordedRun("hook-ask-ui-2.1.332"));
    uiSession(stopped, (s) => ({ ...s, signal: "SIGTERM", stoppedBy: ["sigterm"] }));
    expect(judge(stopped, { how: "ask", ui: "terminal" })).toMatchObject({ verdict: "GREEN" });
    const running = copyRun(recordedRun("hook-ask-ui-2.1.332"));
    uiSession(running, (s) => ({ ...s, endedAt: null, signal: null }));
    expect(judge(running, { how: "ask", ui: "terminal" })).toMatchObject({ verdict: "GREEN" });
    const exited = copyRun(recordedRun("hook-ask-ui-2.1.332"));
    uiSession(exited, (s) => ({ ...s, signal: "SIGTERM" }));
    expect(judge(exited, { how: "ask", ui: "terminal" })).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the UI exited by itself after the hook answered ask" });
  });

  it("in the UI: RED denied-write-ran says the UI ran the write unasked", () => {
    const dir = copyRun(recordedRun("hook-ask-ui-2.1.332"));
    editFile(dir, "workdir-at-end.json", (text) => {
      const value = JSON.parse(text) as { files: object[] };
      value.files.push({ path: "sentinel.txt", size: 8, sha256: "0".repeat(64), text: "written\n" });
      return JSON.stringify(value);
    });
    expect(judge(dir, { how: "ask", ui: "terminal" }).findings[0]).toMatchObject({ title: "the hook answered ask, but the UI ran the Bash write unasked: sentinel.txt exists", where: "working directory at the end" });
  });
});
