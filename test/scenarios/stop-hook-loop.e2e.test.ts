// stop-hook-loop on real releases: 2.1.332 ends a Stop hook's loop after 9 blocks and says so with a
// stop-hook-block-cap notification, caps a SubagentStop loop the same way without saying so, and ends the turn on a
// hook that exits 0 silently; 2.1.112 (cli.js) never caps the loop.
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS, runOnRelease, verdictMessage } from "../e2e-run.ts";

const SCENARIO = "stop-hook-loop";

describe(SCENARIO, { timeout: E2E_TIMEOUT_MS }, () => {
  it.each([
    ["2.1.332", { hook: "exit2" }, "GREEN", [], "Stop calls: 9, continuations: 8; result: success; cap notice: line"],
    ["2.1.332", { hook: "silent" }, "GREEN", [], "Stop calls: 1, continuations: 0; result: success; cap notice: none"],
    ["2.1.332", { event: "SubagentStop" }, "RED", ["stop-cap-unreported"], "SubagentStop calls: 9, continuations: 8; result: success; cap notice: none"],
    // Uncapped, the count depends on where the watch ends against the next continuation (11 or 12 seen).
    ["2.1.112", { hook: "block" }, "RED", ["stop-loop-uncapped"], /^Stop calls: 1[12], continuations: 1[12]; result: none/],
  ])("on %s with %o: %s", async (release, params, verdict, ids, note) => {
    const run = await runOnRelease(SCENARIO, release, params);
    expect(run.record.harnessError).toBeNull();
    expect(run.record.result?.verdict, verdictMessage(run)).toBe(verdict);
    expect(run.record.result?.findings.map((f) => f.id)).toEqual(ids);
    expect(run.record.result?.notes[0]).toMatch(note);
  });
});
