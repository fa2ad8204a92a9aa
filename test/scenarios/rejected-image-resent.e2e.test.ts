// rejected-image-resent end to end, on both sides of both boundaries: an image the API refused is sent again with the
// next turn up to 2.1.141 (read by the Read tool) and up to 2.1.165 (in the user's own message); not after.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "rejected-image-resent";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it.each([
    ["2.1.141", "read", "RED"],
    ["2.1.142", "read", "GREEN"],
    ["2.1.165", "prompt", "RED"],
    ["2.1.166", "prompt", "GREEN"],
  ])("on %s with the image via %s is %s", async (release, via, verdict) => {
    const run = await runOnRelease(SCENARIO, release, { via });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe(verdict);
    if (verdict === "RED") expect(run.record.result?.findings.map((f) => f.id)).toEqual(["rejected-block-resent"]);
  });
});
