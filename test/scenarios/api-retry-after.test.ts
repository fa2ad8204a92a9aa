// api-retry-after's check on the recorded runs of both sides of its boundary (test/fixtures/runs/README.md):
// 2.1.92 waits out a 429's retry-after: 61 and succeeds; 2.1.94 gives up at once and exits 1.
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import fs from "node:fs";
import path from "node:path";
import { copyRun, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

function check(dir: string, params: Record<string, unknown>) {
  const scenario = findScenario("api-retry-after")!;
  const result = scenario.check(loadRecordings(path.isAbsolute(dir) ? dir : recordedRun(dir)), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id) };
}

describe("api-retry-after's check at the 2.1.92 → 2.1.94 boundary (retry-after: 61)", () => {
  it("2.1.92: GREEN, the retry came about 61 s after the 429", () => {
    const green = check("retry-after-61-waited-2.1.92", { retryAfter: 61 });
    expect(green.verdict).toBe("GREEN");
    expect(green.ids).toEqual([]);
    const gap = Number(/gaps ([\d.]+) s/.exec(green.notes?.join(" ") ?? "")?.[1]);
    expect(gap).toBeGreaterThan(60.5);
    expect(gap).toBeLessThan(70);
  });

  it("2.1.94: RED, claude exited 1 after the one 429 without a retry", () => {
    const red = check("retry-after-61-gave-up-2.1.94", { retryAfter: 61 });
    expect(red.verdict).toBe("RED");
    expect(red.ids).toEqual(["retryable-error-not-retried"]);
    expect(red.findings[0]!.where).toMatch(/exit 1/);
  });

  it("reads the 2.1.92 run as not honouring a longer retry-after than it waited", () => {
    expect(check("retry-after-61-waited-2.1.92", { retryAfter: 90 }).ids).toEqual(["retry-after-not-honoured"]);
  });
});

describe("api-retry-after's check: what it reports, and when it cannot judge", () => {
  it("names the tries, the gaps, the api_retry lines and the result in its notes", () => {
    expect(check("retry-after-61-waited-2.1.92", { retryAfter: 61 }).notes).toEqual([
      "2 tries; gaps 61.21 s",
      "api_retry: #1 61000 ms (429)",
      "result success is_error=false; exit 0",
    ]);
    const red = check("retry-after-61-gave-up-2.1.94", { retryAfter: 61 });
    expect(red.notes).toEqual(["1 tries; gaps none", "api_retry: none", "result success is_error=true; exit 1"]);
    expect(red.findings[0]!.title).toBe("claude gave up after 1 try of a 429 the next try would have passed");
    expect(red.findings[0]!.where).toBe("requests #1; exit 1");
    expect(red.findings[0]!.detail?.[0]).toMatch(/^result: /);
  });

  it("says where a retry came too soon", () => {
    const early = check("retry-after-61-waited-2.1.92", { retryAfter: 90 });
    expect(early.findings[0]!.title).toBe("a retry came 61.2 s after a 429 with retry-after: 90");
    expect(early.findings[0]!.where).toBe("requests #1 → #2");
    // 0.5 s of slack: a retry-after of 61.5 s is met by a gap of 61.21 s, one of 62 s is not.
    expect(check("retry-after-61-waited-2.1.92", { retryAfter: 61 }).ids).toEqual([]);
    expect(check("retry-after-61-waited-2.1.92", { retryAfter: 62 }).ids).toEqual(["retry-after-not-honoured"]);
  });

  it("does not hold a 5xx to a retry-after (it carries none), and counts tries in the plural", () => {
    const green = check("retry-after-61-waited-2.1.92", { status: "529", retryAfter: 90 });
    expect(green.verdict).toBe("GREEN");
    const dir = copyRun(recordedRun("retry-after-61-waited-2.1.92"));
    editFile(dir, path.join("mock", "index.jsonl"), (text) => text.replace(/("seq":2,.*?"fault":)null/, '$1"http-error 429"'));
    const red = check(dir, { retryAfter: 61 });
    expect(red.ids).toEqual(["retryable-error-not-retried"]);
    expect(red.findings[0]!.title).toBe("claude gave up after 2 tries of a 429 the next try would have passed");
    expect(red.findings[0]!.where).toBe("requests #1, #2; exit 0");
  });

  it("is INCONCLUSIVE when the turn's first request was not answered with the fault", () => {
    const dir = copyRun(recordedRun("retry-after-61-gave-up-2.1.94"));
    editFile(dir, path.join("mock", "index.jsonl"), (text) => text.replace('"fault":"http-error 429"', '"fault":null'));
    const run = check(dir, { retryAfter: 61 });
    expect(run.verdict).toBe("INCONCLUSIVE");
    expect(run.reason).toBe("the turn's first request was not answered with the fault");
  });

  it("is INCONCLUSIVE when claude did not exit by itself", () => {
    const dir = copyRun(recordedRun("retry-after-61-gave-up-2.1.94"));
    editFile(dir, path.join("sessions", "s1", "session.json"), (text) => text.replace(/"exitCode": \d+/, '"exitCode": null'));
    const run = check(dir, { retryAfter: 61 });
    expect(run.verdict).toBe("INCONCLUSIVE");
    expect(run.reason).toBe("claude -p did not exit by itself");
  });

  it("is INCONCLUSIVE with no request of the turn, or no session record", () => {
    const none = copyRun(recordedRun("retry-after-61-gave-up-2.1.94"));
    editFile(none, path.join("mock", "index.jsonl"), (text) => text.replace('"step":0', '"step":1'));
    expect(check(none, { retryAfter: 61 }).reason).toBe("the turn's first request was not answered with the fault");
    const gone = copyRun(recordedRun("retry-after-61-gave-up-2.1.94"));
    fs.rmSync(path.join(gone, "sessions", "s1"), { recursive: true });
    expect(check(gone, { retryAfter: 61 }).reason).toBe("claude -p did not exit by itself");
  });

  it("reads the main stream only, and cuts the result text to 200 characters", () => {
    const dir = copyRun(recordedRun("retry-after-61-gave-up-2.1.94"));
    editJsonLines(dir, path.join("mock", "index.jsonl"), (lines) => [...lines, { ...lines[0]!, seq: 2, stream: "side", reply: { ...(lines[0]!.reply as object), status: 200, fault: null } }]);
    editJsonLines(dir, path.join("sessions", "s1", "stdout.jsonl"), (lines) =>
      lines.map((line) => (String(line.raw).includes('"type":"result"') ? { ...line, raw: JSON.stringify({ ...JSON.parse(String(line.raw)), result: "x".repeat(300) }) } : line)),
    );
    const red = check(dir, { retryAfter: 61 });
    expect(red.ids).toEqual(["retryable-error-not-retried"]);
    expect(red.notes?.[0]).toBe("1 tries; gaps none");
    expect(red.findings[0]!.detail).toEqual([`result: ${"x".repeat(200)}`]);
  });

  it("notes a run that printed no result line", () => {
    const dir = copyRun(recordedRun("retry-after-61-gave-up-2.1.94"));
    editJsonLines(dir, path.join("sessions", "s1", "stdout.jsonl"), (lines) => lines.filter((line) => !String(line.raw).includes('"type":"result"')));
    const red = check(dir, { retryAfter: 61 });
    expect(red.notes?.[2]).toBe("result none; exit 1");
    expect(red.findings[0]!.detail).toEqual(["result: none"]);
  });
});
