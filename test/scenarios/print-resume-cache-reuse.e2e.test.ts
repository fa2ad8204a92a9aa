// print-resume-cache-reuse on real releases: 2.1.69 (anthropics/claude-code#34629) reads no more than the system prompt
// from the cache on each `claude -p --resume`; 2.1.68 (#34629's working release) loses a little but its reads grow;
// 2.1.332 reads all the previous turn cached, with the prompt on stdin.
import { describe, expect, it } from "vitest";
import { auditCache } from "../../checker/cache-audit.ts";
import { loadRecordings } from "../../harness/recordings.ts";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "print-resume-cache-reuse";

// Each resumed request of the main conversation: where its cache read ends, and what the request before it wrote.
function resumedReads(runDir: string) {
  const main = auditCache(loadRecordings(runDir)).streams.find((s) => s.stream === "main")!;
  return main.boundaries.map((b) => {
    const after = main.requests.find((r) => r.seq === b.boundary.after)!.cache;
    const before = main.requests.find((r) => r.seq === b.boundary.before)!.cache;
    return { kind: b.boundary.kind, readEnd: after.read.end?.path, read: after.read.tokens, beforeWrote: before.written.tokens };
  });
}

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it("is RED on 2.1.69: every resumed turn reads the cache only up to the system prompt", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.69", { tool: false });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("RED");
    expect(run.record.result?.findings.filter((f) => f.id === "resume-reads-less-than-readable")).toHaveLength(2);
    // #34629's own symptom: the reads never grow.
    expect(run.record.result?.findings.filter((f) => f.id === "resume-reads-never-grow")).toHaveLength(1);
    const reads = resumedReads(run.runDir);
    expect(reads.map((r) => [r.kind, r.readEnd])).toEqual([
      ["stop", "system[2]"],
      ["stop", "system[2]"],
    ]);
    // The reads do not grow with the conversation: the second resume reads what the first did.
    expect(reads[1]!.read).toBe(reads[0]!.read);
    for (const r of reads) expect(r.read).toBeLessThan(r.beforeWrote);
  });

  it("is RED on 2.1.68, which #34629 calls working, with a small loss only: its reads grow", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.68");
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("RED");
    expect(run.record.result?.findings.map((f) => f.id)).toEqual(["resume-reads-less-than-readable", "resume-reads-less-than-readable"]);
    const reads = resumedReads(run.runDir);
    expect(reads[1]!.read).toBeGreaterThan(reads[0]!.read);
  });

  // Both sides of the fix, as bisected.
  it.each([
    ["2.1.92", "RED"],
    ["2.1.94", "GREEN"],
  ])("on %s is %s at the boundary of the fix", async (release, verdict) => {
    const run = await runOnRelease(SCENARIO, release);
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe(verdict);
  });

  it("is GREEN on 2.1.332 with the prompts on stdin: each resumed turn reads all the previous one wrote", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.332", { tool: false, prompt: "stdin" });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
    const reads = resumedReads(run.runDir);
    expect(reads).toHaveLength(2);
    for (const r of reads) expect(r.read).toBe(r.beforeWrote);
    expect(reads[1]!.read).toBeGreaterThan(reads[0]!.read);
  });
});
