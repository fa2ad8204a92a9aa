// thinking-changed-on-replay on 2.1.332: the signed thinking blocks come back as served after a kill and --resume,
// and the half-streamed one of an interrupted reply is not sent back unsigned.
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
});
