// nonstreaming-fallback-replay end to end: on 2.1.332 a stream dropped right after its tool_use block is retried and
// the tool runs once; on 2.1.19, the release the reports name, neither their trigger (a plain tool call) nor the
// non-streaming fallback answering with the cut stream's tool_use id sends an id twice.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

describe("nonstreaming-fallback-replay", { timeout: E2E_TIMEOUT_MS }, () => {
  it.each([
    // 2.1.332 keeps the cut message (2026-12-01) or retries the cut call streamed, step 0 again (8 of 8 on 2026-12-06).
    ["2.1.332", { cut: "drop" }, /^cut #\d+ \(drop after 1 blocks\); later: (#\d+ step 0, )?#\d+ step 1; tool ran 1×; exit 0$/],
    ["2.1.19", { cut: "none" }, /^first #1 \(no fault\); later: #\d+ step 1; tool ran 1×; exit 0$/],
    ["2.1.19", { cut: "drop", toolId: "same" }, /^cut #1 \(drop after 1 blocks\); later: #\d+ step 0 NOT streamed, #\d+ step 1; tool ran 1×; exit 0$/],
  ])("is GREEN on %s with %j: one run of the tool, no duplicate ids", async (release, params, note) => {
    const run = await runOnRelease("nonstreaming-fallback-replay", release, params);
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result?.notes[0]).toMatch(note);
  });
});
