// unparseable-request-body's check on runs recorded from real releases (test/fixtures/runs/README.md): split-surrogate
// on both sides of its boundary (2.1.190 sends half an emoji and is refused, 2.1.191 keeps whole characters) and
// compact-url on 2.1.332 (GREEN); edited copies give the runs that never reached the point.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editBody, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("unparseable-request-body")!;
const RED_SPLIT = "unparseable-split-red-2.1.190";
const GREEN_SPLIT = "unparseable-split-green-2.1.191";
const GREEN_COMPACT = "unparseable-compact-green-2.1.332";
const SPLIT = { how: "split-surrogate" };

function check(dir: string, params: Record<string, unknown> = {}) {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id) };
}
// A copy whose session printed only its first `keep` result lines.
function keepResults(name: string, keep: number): string {
  const dir = copyRun(recordedRun(name));
  let seen = 0;
  editJsonLines(dir, path.join("sessions", "s1", "stdout.jsonl"), (lines) => lines.filter((line) => !(String(line.raw).includes('"type":"result"') && ++seen > keep)));
  return dir;
}
const NOT_JSON = "The request body is not valid JSON";

describe("unparseable-request-body's check on recorded runs", () => {
  it("2.1.190, split-surrogate: RED, the body after the Bash call ends in half an emoji and is refused, the follow-up too", () => {
    const red = check(recordedRun(RED_SPLIT), SPLIT);
    expect(red.verdict).toBe("RED");
    expect(red.ids).toEqual(["request-body-unparseable"]);
    expect(red.findings[0]!.title).toMatch(/^claude sent a body the API cannot parse: The request body is not valid JSON: no low surrogate in string: line 1 column \d+ \(char \d+\)$/);
    expect(red.findings[0]!.where).toBe("request #2 (? stream)");
    // The 32 UTF-16 units before and after the position the API's message names: 16 emoji.
    expect(red.findings[0]!.detail).toEqual([`#2: 11819 bytes, at the error: "${"😀".repeat(16)}"`, `#3: 11885 bytes, at the error: "${"😀".repeat(16)}"`]);
    expect(red.notes).toEqual(["3 requests; follow-up: #3 null → 400"]);
  });

  it("2.1.191, split-surrogate: GREEN, the follow-up parses", () => {
    const green = check(recordedRun(GREEN_SPLIT), SPLIT);
    expect(green.verdict).toBe("GREEN");
    expect(green.ids).toEqual([]);
    expect(green.notes).toEqual(["3 requests; follow-up: #3 main → 200"]);
  });

  it("2.1.332, compact-url: GREEN, the follow-up after /compact starts from the summary and parses", () => {
    const green = check(recordedRun(GREEN_COMPACT));
    expect(green.verdict).toBe("GREEN");
    expect(green.notes).toEqual(["5 requests; follow-up: #5 side → 200"]);
  });
});

describe("unparseable-request-body's check on edited runs", () => {
  it("a 400 that is not about the body's JSON is no finding", () => {
    const dir = copyRun(recordedRun(RED_SPLIT));
    editFile(dir, path.join("mock", "index.jsonl"), (text) => text.replaceAll(NOT_JSON, "messages.1: something else"));
    const green = check(dir, SPLIT);
    expect(green.verdict).toBe("GREEN");
    expect(green.notes).toEqual(["3 requests; follow-up: #3 null → 400"]);
  });

  it("the API's text on a 200 is no finding either", () => {
    const dir = copyRun(recordedRun(RED_SPLIT));
    editFile(dir, path.join("mock", "index.jsonl"), (text) => text.replaceAll('"status":400', '"status":200'));
    expect(check(dir, SPLIT).ids).toEqual([]);
  });

  it("split-surrogate is INCONCLUSIVE when no request followed the Bash call", () => {
    const run = check(recordedRun(GREEN_COMPACT), SPLIT);
    expect(run.verdict).toBe("INCONCLUSIVE");
    expect(run.reason).toBe("no request after the Bash call");
  });

  it("an unparseable body counts as a request after the Bash call", () => {
    const dir = copyRun(recordedRun(RED_SPLIT));
    editBody(dir, 3, (body) => void (body.messages = [{ role: "user", content: "what did it say?" }]));
    expect(check(dir, SPLIT).verdict).toBe("RED");
  });

  it("is RED on a refused body even when no request carried the follow-up", () => {
    const dir = copyRun(recordedRun(RED_SPLIT));
    editBody(dir, 3, (body) => void (body.messages = [{ role: "user", content: "something else" }]));
    const red = check(dir, SPLIT);
    expect(red.verdict).toBe("RED");
    expect(red.notes).toEqual(["3 requests; follow-up: none"]);
  });

  it("is INCONCLUSIVE when the follow-up's result was not printed (2 results for split-surrogate, 4 for compact-url)", () => {
    const split = check(keepResults(GREEN_SPLIT, 1), SPLIT);
    expect(split.verdict).toBe("INCONCLUSIVE");
    expect(split.reason).toBe("the session did not print the follow-up's result");
    expect(check(keepResults(GREEN_COMPACT, 3)).reason).toBe("the session did not print the follow-up's result");
  });

  it("is INCONCLUSIVE when no request carried the follow-up and none was refused", () => {
    const dir = copyRun(recordedRun(GREEN_SPLIT));
    editFile(dir, path.join("mock", "requests", "000003.body"), (text) => text.replace("what did it say?", "something else"));
    const run = check(dir, SPLIT);
    expect(run.verdict).toBe("INCONCLUSIVE");
    expect(run.reason).toBe("no request of the follow-up was made");
  });

  it("compact-url is INCONCLUSIVE when the follow-up still carries the first prompt", () => {
    const dir = copyRun(recordedRun(GREEN_COMPACT));
    editBody(dir, 5, (body) => void body.messages.unshift({ role: "user", content: "CCREPRO_UNPARSEABLE_8D can you read this document" }));
    const run = check(dir);
    expect(run.verdict).toBe("INCONCLUSIVE");
    expect(run.reason).toBe("the follow-up still carries the first prompt: /compact did not replace the history");
  });

  it("compact-url with a refused body is RED even when the follow-up still carries the first prompt", () => {
    const dir = copyRun(recordedRun(GREEN_COMPACT));
    editBody(dir, 5, (body) => void body.messages.unshift({ role: "user", content: "CCREPRO_UNPARSEABLE_8D can you read this document" }));
    editJsonLines(dir, path.join("mock", "index.jsonl"), (lines) =>
      lines.map((line) =>
        line.kind === "request" && line.seq === 5
          ? { ...line, reply: { ...(line.reply as object), status: 400, kind: "error", summary: `invalid_request_error: ${NOT_JSON}: unexpected character: line 1 column 1 (char 0)` } }
          : line,
      ),
    );
    const red = check(dir);
    expect(red.verdict).toBe("RED");
    expect(red.findings[0]!.title).toBe("claude sent a body the API cannot parse: The request body is not valid JSON: unexpected character: line 1 column 1 (char 0)");
    expect(red.findings[0]!.where).toBe("request #5 (side stream)");
    // "(char 0)": the body's first 8 characters.
    expect(red.findings[0]!.detail).toHaveLength(1);
    expect(red.findings[0]!.detail?.[0]).toBe('#5: 13099 bytes, at the error: "{\\"messag"');
  });
});
