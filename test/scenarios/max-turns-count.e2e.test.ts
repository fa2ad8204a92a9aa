// max-turns-count on real releases: `claude -p --max-turns N` makes N main requests and ends with error_max_turns,
// is_error true and num_turns N + 1, on 2.1.332 (native binary) and 2.1.112 (cli.js); both cached in CI's usual runs.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "max-turns-count";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it.each([
    ["2.1.332", 1],
    ["2.1.332", 5],
    ["2.1.112", 2],
  ])("on %s with --max-turns %i: GREEN, N requests, error_max_turns flagged is_error", async (release, maxTurns) => {
    const run = await runOnRelease(SCENARIO, release, { maxTurns });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("GREEN");
    expect(run.record.result?.notes[0]).toContain(`${maxTurns} main requests; result error_max_turns is_error=true num_turns=${maxTurns + 1}`);
    // A scenario of `-p` turns alone, with no wait, reaches its point when its last turn exits: the bench's floor is
    // that time, and no more than the run's whole wall.
    expect(run.record.floorMs).not.toBeNull();
    expect(run.record.floorMs!).toBeGreaterThan(0);
    expect(run.record.floorMs!).toBeLessThanOrEqual(run.record.wallMs!);
  });

  it("on 2.1.72 (the report's release) with a compaction after call 2 of 5: compacts, still no overrun, RED max-turns-not-flagged only", async () => {
    const run = await runOnRelease(SCENARIO, "2.1.72", { maxTurns: 5, compactAt: 2 });
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe("RED");
    expect(run.record.result?.findings.filter((f) => f.red).map((f) => f.id)).toEqual(["max-turns-not-flagged"]);
    expect(run.record.result?.notes[0]).toContain("5 main requests (1 summary requests besides); result error_max_turns is_error=false num_turns=6");
  });
});
