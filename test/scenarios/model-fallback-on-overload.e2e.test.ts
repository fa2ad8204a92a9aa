// model-fallback-on-overload on 2.1.332: three 529s for --model, then --fallback-model answers, in each of two turns.
// With the main model answered 404 "model: …" (#8413's invalid model): 2.1.150 never asks the fallback, 2.1.152 does
// (CHANGELOG 2.1.152).
import { describe, expect, it } from "vitest";
import { requestsOf } from "../../checker/views.ts";
import { loadRecordings } from "../../harness/recordings.ts";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

describe("model-fallback-on-overload", { timeout: E2E_TIMEOUT_MS }, () => {
  it("is GREEN on 2.1.332: the fallback answers, and only the two models are asked", async () => {
    const run = await runOnRelease("model-fallback-on-overload", "2.1.332");
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
    const models = requestsOf(loadRecordings(run.runDir), { stream: "main" }).map((r) => r.model);
    expect(new Set(models)).toEqual(new Set(["claude-opus-4-5", "claude-haiku-4-5"]));
  });

  it("is RED on 2.1.150 with fault=404: the fallback is never asked", async () => {
    const run = await runOnRelease("model-fallback-on-overload", "2.1.150", { fault: "404" });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("RED");
    expect(run.record.result?.findings.map((f) => f.id)).toEqual(["fallback-not-used"]);
  });

  it("is GREEN on 2.1.152 with fault=404: one 404, then the fallback", async () => {
    const run = await runOnRelease("model-fallback-on-overload", "2.1.152", { fault: "404" });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
  });
});
