// unparseable-request-body end to end: a long emoji tool output is cut in the middle of a surrogate pair up to 2.1.190
// (every later body refused "no low surrogate in string"), not from 2.1.191; /compact with a URL parses on 2.1.332.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "unparseable-request-body";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it.each([
    ["2.1.190", "split-surrogate", "RED"],
    ["2.1.191", "split-surrogate", "GREEN"],
    ["2.1.332", "compact-url", "GREEN"],
  ])("on %s with how=%s is %s", async (release, how, verdict) => {
    const run = await runOnRelease(SCENARIO, release, { how });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe(verdict);
    if (verdict === "RED") {
      const found = run.record.result!.findings.find((f) => f.id === "request-body-unparseable");
      expect(found?.title).toContain("no low surrogate in string");
    }
  });
});
