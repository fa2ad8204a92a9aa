// A stalled run's ERROR says what its recordings show. The outbound log mirrors a 1.0.72 run recorded before the trap
// tunnelled to the mock (8 refused CONNECTs to the mock's port, one refused elsewhere); the session's exit is 0.2.126's.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runLayout, sessionLayout } from "../../harness/run-layout.ts";
import { writeRunRecord, type RunRecord } from "../../harness/run-record.ts";
import { checkRecordedRun } from "../../pipeline/check-recorded-run.ts";
import { explainFailure } from "../../pipeline/diagnose-run.ts";
import { scenarioByName } from "../../pipeline/scenario-registry.ts";

function stalledRun(): { dir: string; record: RunRecord } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-diagnose-"));
  const layout = runLayout(dir);
  const lines = [
    ...Array.from({ length: 8 }, (_, i) => ({ t: i, request: "CONNECT 127.0.0.1:40123 HTTP/1.1" })),
    { t: 9, request: "CONNECT api.anthropic.com:443 HTTP/1.1" },
  ];
  fs.writeFileSync(layout.outboundLog, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const s1 = sessionLayout(layout, "s1");
  fs.mkdirSync(s1.dir, { recursive: true });
  fs.writeFileSync(s1.stderr, "error: unknown option '--input-format'\n(Did you mean --output-format?)\n");
  fs.writeFileSync(s1.sessionJson, JSON.stringify({ stoppedBy: [] }));
  const record: RunRecord = {
    format: 2, id: "x", scenario: "resume-orphaned-background-task", source: { kind: "builtin", name: "resume-orphaned-background-task" }, params: {},
    claude: { requested: "1.0.72", era: "js", reportedVersion: "1.0.72", executable: "cli.js", command: "node", args: [], sha256: "0", package: "@anthropic-ai/claude-code@1.0.72" },
    mock: { url: "http://127.0.0.1:40123", script: null }, hookEvents: [], startedAt: "", endedAt: "", wallMs: 1, floorMs: null,
    steps: [], stepsSkipped: [], sessions: [{ label: "s1", pid: 1, sessionId: null, exitCode: 1, signal: null }],
    outbound: { attempts: 9, forwardedToMock: 0 }, processes: { killedAtEnd: 0, survivors: [], outsideRemoved: [], orphansReaped: [] },
    hooks: { calls: 0, medianMs: null, maxMs: null }, harnessError: "timed out after 60000 ms waiting for: session 1 settled its first turn",
    recordingComplete: true, result: null, checkMs: null, driver: "headless", sdk: null,
  };
  writeRunRecord(layout.runJson, record);
  return { dir, record };
}

describe("explainFailure", () => {
  it("adds the refused attempts to reach the mock, the other connections, and how the session ended", () => {
    const { dir, record } = stalledRun();
    const message = explainFailure(record.harnessError!, dir, record);
    expect(message).toContain("timed out after 60000 ms waiting for: session 1 settled its first turn; the recordings show:");
    expect(message).toContain("the binary tried to reach the mock through the proxy 8 times and was refused");
    expect(message).toContain("refused 1 other connection (first: CONNECT api.anthropic.com:443 HTTP/1.1)");
    expect(message).toContain("claude (session s1) exited with code 1: (Did you mean --output-format?)");
    expect(checkRecordedRun(dir, scenarioByName).reason).toBe(message);
  });

  it("gives UNSUPPORTED from run.json alone", () => {
    const { dir, record } = stalledRun();
    writeRunRecord(runLayout(dir).runJson, { ...record, harnessError: null, unsupported: { missing: ["stream-json-input"], message: "needs `--input-format stream-json`, which this release lacks" } });
    expect(checkRecordedRun(dir, scenarioByName)).toMatchObject({ verdict: "UNSUPPORTED", reason: "needs `--input-format stream-json`, which this release lacks" });
  });
});
