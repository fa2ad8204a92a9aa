// thinking-changed-on-replay: on 2.1.332 the signed thinking blocks come back as served after a kill and --resume, and
// the half-streamed one of an interrupted reply is not sent back unsigned; on a switch to --fallback-model mid tool
// loop they come back up to 2.1.150 and are stripped from 2.1.152.
import { describe, expect, it } from "vitest";
import { requestsOf } from "../../checker/views.ts";
import { loadRecordings } from "../../harness/recordings.ts";
import { blocksOf } from "../../kit/api-views.ts";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "thinking-changed-on-replay";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it.each(["kill-resume", "interrupt"])("is GREEN on 2.1.332 with how=%s", async (how) => {
    const run = await runOnRelease(SCENARIO, "2.1.332", { how });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
    // The mock checked signatures on blocks that came back: the last request carries the served thinking.
    const last = requestsOf(loadRecordings(run.runDir), { stream: "main" }).at(-1)!;
    expect(blocksOf(last, "thinking").map((b) => String(b.block.signature)).every((sig) => sig.startsWith("ccrepro-signed."))).toBe(true);
    expect(blocksOf(last, "thinking").length).toBeGreaterThan(0);
  });

  it.each([
    ["2.1.150", "GREEN"],
    ["2.1.152", "RED"],
  ])("with how=fallback on %s is %s", async (release, verdict) => {
    const run = await runOnRelease(SCENARIO, release, { how: "fallback" });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe(verdict);
    if (verdict === "RED") expect(run.record.result?.findings.map((f) => f.id)).toContain("thinking-changed-on-replay");
  });

  it("is GREEN on 2.1.154 (a release the Opus 4.8 reports name) with --model claude-opus-4-8 and interleaved thinking", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.154", { how: "interleaved", model: "claude-opus-4-8" });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
    const main = requestsOf(loadRecordings(run.runDir), { stream: "main" });
    // The resumed request sends back the interleaved message's two blocks (and the last reply's, when it was written
    // before the kill), each as the mock signed it.
    const last = main.at(-1)!;
    expect(last.model).toBe("claude-opus-4-8");
    expect(blocksOf(last, "thinking").length).toBeGreaterThanOrEqual(2);
    expect(blocksOf(last, "thinking").every((b) => String(b.block.signature).startsWith("ccrepro-signed."))).toBe(true);
  });
});
