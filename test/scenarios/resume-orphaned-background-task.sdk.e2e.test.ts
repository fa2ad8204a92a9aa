// Seed 000 the way it was reported: CLI 2.1.234 driven through Agent SDK 0.3.197, phase 1 ended by the graceful
// close (end the input on the result, abort 4 s later), phase 2 resuming the same session id with one prompt.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "resume-orphaned-background-task";
const CLI = "2.1.234";
const SDK = "0.3.197";
const drive = { driver: "sdk" as const, sdk: SDK };

const sdkSummary = (runDir: string, session: string) =>
  JSON.parse(fs.readFileSync(path.join(runDir, "sessions", session, "sdk.json"), "utf8")) as {
    cli: { pid: number; argv: string[] } | null;
    difference: { droppedBySdk: { type: string }[]; onlyInSdk: unknown[] };
  };

describe(`${SCENARIO} through Agent SDK ${SDK} on ${CLI}`, { timeout: E2E_TIMEOUT_MS }, () => {
  it("is RED: the resumed session settles the pushed prompt with a zero-work task-notification result first", async () => {
    const run = await runOnRelease(SCENARIO, CLI, {}, drive);
    const { runDir, record } = run;
    expect(record.driver).toBe("sdk");
    expect(record.claude.reportedVersion).toBe(CLI);
    expect(record.sdk).toMatchObject({ requested: SDK, version: SDK });
    expect(record.result.verdict, verdictMessage(run)).toBe("RED");
    const extra = record.result.findings.find((f) => f.id === "prompt-settled-by-extra-result");
    expect(extra?.data).toMatchObject({ origin: "task-notification", numTurns: 0 });
    // Phase 2 resumed phase 1's session id; phase 1 was ended by the graceful close, not a signal from us.
    expect(record.sessions[1]!.sessionId).toBe(record.sessions[0]!.sessionId);
    expect(record.steps.find((s) => s.kind === "stop")?.detail).toContain("close-then-abort");
    // The CLI ran under the SDK with the SDK's own flags (no -p), and the SDK's view dropped only control lines.
    const s1 = sdkSummary(runDir, "s1");
    expect(s1.cli?.argv).toContain("--input-format");
    expect(s1.cli?.argv).not.toContain("-p");
    expect(s1.difference.onlyInSdk).toEqual([]);
    expect(s1.difference.droppedBySdk.map((d) => d.type)).toEqual(["control_response"]);
  });

  it("is GREEN in the control variant without a background task", async () => {
    const run = await runOnRelease(SCENARIO, CLI, { background: false }, drive);
    const { record } = run;
    expect(record.sdk).toMatchObject({ requested: SDK, version: SDK });
    expect(record.claude.reportedVersion).toBe(CLI);
    expect(record.result.verdict, verdictMessage(run)).toBe("GREEN");
    expect(record.result.findings.filter((f) => f.red)).toEqual([]);
  });
});
