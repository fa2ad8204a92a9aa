// api-failure-reported-as-success's check on runs recorded from real releases (test/fixtures/runs/README.md), and on
// edited copies of them for the cases no release gave: a failed `claude -p` turn whose result says subtype "success"
// (#79500), one whose result says is_error false, exit 0, and the runs that never reached the point.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("api-failure-reported-as-success")!;

function check(dir: string, params: Record<string, unknown> = {}) {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id), text: (result.notes ?? []).join("\n") };
}
const recorded = (name: string, params: Record<string, unknown> = {}) => check(recordedRun(name), params);

// A copy of a recorded run with its one result line rewritten.
function withResult(name: string, edit: (line: Record<string, unknown>) => void): string {
  const dir = copyRun(recordedRun(name));
  editJsonLines(dir, path.join("sessions", "s1", "stdout.jsonl"), (lines) =>
    lines.map((line) => {
      const event = JSON.parse(String(line.raw)) as Record<string, unknown>;
      if (event.type !== "result") return line;
      edit(event);
      return { ...line, raw: JSON.stringify(event) };
    }),
  );
  return dir;
}
const withExit = (name: string, exitCode: number | null) => {
  const dir = copyRun(recordedRun(name));
  editFile(dir, path.join("sessions", "s1", "session.json"), (text) => text.replace(/"exitCode": \d+/, `"exitCode": ${String(exitCode)}`));
  return dir;
};

describe("api-failure-reported-as-success's check on recorded runs", () => {
  it("2.1.233, a 403 (the #79500 comment's trigger and release): RED result-subtype-success, is_error true, exit 1", () => {
    const red = recorded("apifail-403-subtype-success-2.1.233", { fault: "403" });
    expect(red.verdict).toBe("RED");
    expect(red.ids).toEqual(["result-subtype-success"]);
    expect(red.findings[0]!.title).toBe('the failed turn\'s result line says subtype "success" (is_error true)');
    expect(red.findings[0]!.where).toBe("s1 stdout line 2");
    expect(red.findings[0]!.detail?.[0]).toBe("1 request(s) of the turn, each answered with http-error 403 (#1)");
    expect(red.findings[0]!.detail?.[1]).toMatch(/^result: Failed to authenticate\. API Error: 403/);
    expect(red.notes?.[0]).toBe("fault 403, --output-format stream-json: 1 request(s) of the turn, each answered with http-error 403 (#1)");
    expect(red.notes?.[1]).toMatch(/^result success is_error=true terminal_reason=api_error "Failed to authenticate\. API Error: 403 .*"; exit 1$/);
  });

  it("2.1.49, a 429 on all 11 tries with --output-format json (the report's trigger and release): RED result-subtype-success", () => {
    const red = recorded("apifail-429-json-2.1.49", { fault: "429", output: "json" });
    expect(red.verdict).toBe("RED");
    expect(red.ids).toEqual(["result-subtype-success"]);
    expect(red.findings[0]!.detail?.[0]).toBe("11 request(s) of the turn, each answered with http-error 429 (#1, #2, #3, #4, #5, #6, #7, #8, #9, #10, #11)");
    expect(red.notes?.[1]).toBe('result success is_error=true terminal_reason=none "API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit fo"; exit 1');
  });

  it("2.1.49, a 400 with --output-format text: GREEN, no result line to read and exit 1", () => {
    const green = recorded("apifail-text-exit1-2.1.49", { fault: "400", output: "text" });
    expect(green.verdict).toBe("GREEN");
    expect(green.ids).toEqual([]);
    expect(green.notes?.[1]).toBe('text on stdout: "API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"messages.0.content: this request was r"; exit 1');
  });

  it("2.1.332, a stream cut after a tool_use block: RED on all three, the cut message's tool ran", () => {
    const red = recorded("apifail-cut-acted-on-2.1.332", { fault: "cut-after-tool-use" });
    expect(red.verdict).toBe("RED");
    expect(red.ids).toEqual(["result-subtype-success", "result-is-error-false", "failure-exits-zero"]);
    expect(red.findings[1]!.title).toBe("the failed turn's result line says is_error false");
    expect(red.findings[1]!.detail).toEqual(["1 request(s) of the turn, each answered with drop after 1 blocks (#1)"]);
    expect(red.findings[2]!.title).toBe("claude -p exited 0 after the turn failed");
    expect(red.findings[2]!.where).toBe("s1 exit code");
    expect(red.notes?.[1]).toBe('result success is_error=false terminal_reason=completed "done"; exit 0; 1 later request(s): claude went on past the failed call, and ran the cut stream\'s tool (cut.txt written)');
  });
});

describe("api-failure-reported-as-success's check on edited runs", () => {
  it("is GREEN when the failed turn's result says an error subtype and is_error true, and claude exits 1", () => {
    const green = check(withResult("apifail-403-subtype-success-2.1.233", (r) => void (r.subtype = "error_during_execution")), { fault: "403" });
    expect(green.verdict).toBe("GREEN");
    expect(green.ids).toEqual([]);
    expect(green.notes?.[1]).toMatch(/^result error_during_execution is_error=true/);
  });

  it("cuts the result text to 200 characters in the finding and 120 in the notes", () => {
    const red = check(withResult("apifail-403-subtype-success-2.1.233", (r) => void (r.result = "x".repeat(300))), { fault: "403" });
    expect(red.findings[0]!.detail?.[1]).toBe(`result: ${"x".repeat(200)}`);
    expect(red.notes?.[1]).toBe(`result success is_error=true terminal_reason=api_error "${"x".repeat(120)}"; exit 1`);
  });

  it("reads the main stream only: a side request without the fault changes nothing", () => {
    const dir = copyRun(recordedRun("apifail-403-subtype-success-2.1.233"));
    editJsonLines(dir, path.join("mock", "index.jsonl"), (lines) => [...lines, { ...lines[0]!, seq: 2, stream: "side", reply: { ...(lines[0]!.reply as object), status: 200, fault: null } }]);
    const red = check(dir, { fault: "403" });
    expect(red.ids).toEqual(["result-subtype-success"]);
    expect(red.notes?.[1]).toMatch(/"; exit 1$/);
  });

  it("says when claude went past the cut call without running its tool", () => {
    const dir = copyRun(recordedRun("apifail-cut-acted-on-2.1.332"));
    editFile(dir, "workdir-at-end.json", (text) => text.replace('"path": "cut.txt"', '"path": "other.txt"'));
    expect(check(dir, { fault: "cut-after-tool-use" }).notes?.[1]).toBe('result success is_error=false terminal_reason=completed "done"; exit 0; 1 later request(s): claude went on past the failed call');
  });

  it("names is_error false alone when the subtype says an error", () => {
    const red = check(withResult("apifail-403-subtype-success-2.1.233", (r) => Object.assign(r, { subtype: "error_during_execution", is_error: false, terminal_reason: undefined })), { fault: "403" });
    expect(red.ids).toEqual(["result-is-error-false"]);
    expect(red.findings[0]!.where).toBe("s1 stdout line 2");
    expect(red.notes?.[1]).toMatch(/terminal_reason=none/);
  });

  it("names a missing is_error as not true", () => {
    const red = check(withResult("apifail-403-subtype-success-2.1.233", (r) => Object.assign(r, { subtype: "error_during_execution", is_error: undefined })), { fault: "403" });
    expect(red.ids).toEqual(["result-is-error-false"]);
    expect(red.findings[0]!.title).toBe("the failed turn's result line says is_error undefined");
  });

  it("names exit 0 alone in text mode", () => {
    const red = check(withExit("apifail-text-exit1-2.1.49", 0), { fault: "400", output: "text" });
    expect(red.verdict).toBe("RED");
    expect(red.ids).toEqual(["failure-exits-zero"]);
  });

  it("is INCONCLUSIVE when claude did not exit by itself", () => {
    const run = check(withExit("apifail-403-subtype-success-2.1.233", null), { fault: "403" });
    expect(run.verdict).toBe("INCONCLUSIVE");
    expect(run.reason).toBe("claude -p did not exit by itself");
  });

  it("is INCONCLUSIVE when the session left no record at all", () => {
    const dir = copyRun(recordedRun("apifail-403-subtype-success-2.1.233"));
    fs.rmSync(path.join(dir, "sessions", "s1"), { recursive: true });
    const run = check(dir, { fault: "403" });
    expect(run.verdict).toBe("INCONCLUSIVE");
    expect(run.reason).toBe("claude -p did not exit by itself");
  });

  it("is INCONCLUSIVE when a json or stream-json run printed no result line", () => {
    const dir = copyRun(recordedRun("apifail-403-subtype-success-2.1.233"));
    editJsonLines(dir, path.join("sessions", "s1", "stdout.jsonl"), (lines) => lines.filter((line) => !String(line.raw).includes('"type":"result"')));
    const run = check(dir, { fault: "403", output: "json" });
    expect(run.verdict).toBe("INCONCLUSIVE");
    expect(run.reason).toBe("claude -p --output-format json printed no result line");
  });

  it("is INCONCLUSIVE when a request of the turn was answered without the fault, or none was sent", () => {
    const answered = copyRun(recordedRun("apifail-429-json-2.1.49"));
    editFile(answered, path.join("mock", "index.jsonl"), (text) => text.replace('"seq":11,', '"seq":11,"x":0,').replace(/("seq":11,"x":0,.*?"fault":)"http-error 429"/, "$1null"));
    const partly = check(answered, { fault: "429", output: "json" });
    expect(partly.verdict).toBe("INCONCLUSIVE");
    expect(partly.reason).toBe("a request of the turn was answered without the fault");

    const none = copyRun(recordedRun("apifail-403-subtype-success-2.1.233"));
    editFile(none, path.join("mock", "index.jsonl"), (text) => text.replace('"step":0', '"step":1'));
    const nothing = check(none, { fault: "403" });
    expect(nothing.verdict).toBe("INCONCLUSIVE");
    expect(nothing.reason).toBe("claude sent no request of the turn");
  });
});
