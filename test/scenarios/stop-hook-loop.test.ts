// stop-hook-loop's check on both sides of its two bisected boundaries, recorded from real releases (test/fixtures/runs
// README): no cap up to 2.1.142; a cap of 9 blocks from 2.1.143, silent until 2.1.280; reported from 2.1.281.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("stop-hook-loop")!;
const check = (dir: string, params: Record<string, string> = {}) => {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse(params));
  return { ...result, ids: result.findings.map((f) => f.id) };
};

describe("stop-hook-loop's check", () => {
  it("2.1.142: RED stop-loop-uncapped — still continuing at the 12th Stop call, no result", () => {
    const result = check(recordedRun("stop-uncapped-2.1.142"));
    expect(result).toMatchObject({ verdict: "RED", ids: ["stop-loop-uncapped"] });
    expect(result.notes?.[0]).toContain("Stop calls: 12, continuations: 11; result: none");
  });

  it.each(["2.1.143", "2.1.280"])("%s: RED stop-cap-unreported — the turn ends after 9 blocks with no notification", (release) => {
    const result = check(recordedRun(`stop-capped-silently-${release}`));
    expect(result).toMatchObject({ verdict: "RED", ids: ["stop-cap-unreported"] });
    expect(result.notes?.[0]).toContain("Stop calls: 9, continuations: 8; result: success; cap notice: none");
  });

  it("2.1.281: GREEN — 9 blocks, then the stop-hook-block-cap notification; every later call says stop_hook_active", () => {
    const result = check(recordedRun("stop-cap-reported-2.1.281"));
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes?.[0]).toMatch(/Stop calls: 9, continuations: 8; result: success; cap notice: line \d+/);
  });

  it("reads the cap's report from the notification's key, not its wording", () => {
    const dir = copyRun(recordedRun("stop-cap-reported-2.1.281"));
    editJsonLines(dir, "sessions/s1/stdout.jsonl", (lines) =>
      lines.map((line) => ({ ...line, raw: String(line.raw).replace('"key":"stop-hook-block-cap"', '"key":"something-else"') })),
    );
    expect(check(dir)).toMatchObject({ verdict: "RED", ids: ["stop-cap-unreported"] });
  });

  it("reports a later Stop call that was not told stop_hook_active", () => {
    const dir = copyRun(recordedRun("stop-cap-reported-2.1.281"));
    const fourth = fs.readFileSync(path.join(dir, "hooks.jsonl"), "utf8").split("\n")[3]!;
    editFile(dir, (JSON.parse(fourth) as { payloadFile: string }).payloadFile, (text) => text.replace(/"stop_hook_active":\s*true/, '"stop_hook_active":false'));
    const result = check(dir);
    expect(result.ids).toContain("stop-hook-active-missing");
    expect(result.findings.find((f) => f.id === "stop-hook-active-missing")).toMatchObject({ red: true, title: "a Stop hook called again after a block was not told stop_hook_active", where: "1 of 8 later calls" });
  });

  // Recorded 2026-12-06 on 2.1.332 with --param hook=silent (stop-silent-2.1.332) and --param event=SubagentStop
  // (subagent-stop-capped-silently-2.1.332); the rest are parameters and edits of the recordings above.
  it("2.1.332, hook=silent: GREEN — one call, no continuation; a silent hook is owed neither a cap nor stop_hook_active", () => {
    const result = check(recordedRun("stop-silent-2.1.332"), { hook: "silent" });
    expect(result).toMatchObject({ verdict: "GREEN", ids: [] });
    expect(result.notes?.[0]).toBe("Stop calls: 1, continuations: 0; result: success; cap notice: none");
  });

  it("RED stop-continued-unblocked when claude goes on after a hook the run declared silent (the 2.1.143 run judged as one)", () => {
    const result = check(recordedRun("stop-capped-silently-2.1.143"), { hook: "silent" });
    expect(result).toMatchObject({ verdict: "RED", ids: ["stop-continued-unblocked"] });
    expect(result.findings[0]).toMatchObject({ title: "claude continued 8 times for a Stop hook that exited 0 silently" });
    expect(result.findings[0]!.where).toBe("requests #3–#10");
  });

  it("2.1.332, event=SubagentStop: RED stop-cap-unreported — the subagent's 8 continuations are counted on its own stream", () => {
    const result = check(recordedRun("subagent-stop-capped-silently-2.1.332"), { event: "SubagentStop" });
    expect(result).toMatchObject({ verdict: "RED", ids: ["stop-cap-unreported"] });
    expect(result.notes?.[0]).toBe("SubagentStop calls: 9, continuations: 8; result: success; cap notice: none");
    expect(result.findings[0]!.title).toBe("the loop ended after 8 continuations with no stop-hook-block-cap notification");
  });

  it("the cap is a bound: 8 continuations pass a cap of 8 and overrun a cap of 7", () => {
    expect(check(recordedRun("stop-capped-silently-2.1.143"), { cap: "8" }).ids).toEqual(["stop-cap-unreported"]);
    const over = check(recordedRun("stop-capped-silently-2.1.143"), { cap: "7" });
    expect(over.ids).toEqual(["stop-loop-uncapped"]);
    expect(over.findings[0]).toMatchObject({ title: "claude continued 8 times for a Stop hook that always blocks", where: "requests #3–#10" });
  });

  it("INCONCLUSIVE when the loop, still going with no result, has not passed the cap yet", () => {
    // 2.1.142's run stopped watching after 11 continuations: with a cap of 11 it proves nothing either way.
    expect(check(recordedRun("stop-uncapped-2.1.142"), { cap: "11" })).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the turn neither ended nor passed the cap", ids: [] });
    expect(check(recordedRun("stop-uncapped-2.1.142"), { cap: "10" }).ids).toEqual(["stop-loop-uncapped"]);
  });

  it("INCONCLUSIVE when the hook never ran", () => {
    const dir = copyRun(recordedRun("stop-cap-reported-2.1.281"));
    editFile(dir, "hooks.jsonl", () => "");
    expect(check(dir)).toMatchObject({ verdict: "INCONCLUSIVE", reason: "the Stop hook never ran", ids: [] });
  });

  it("counts only requests after the hook's first call", () => {
    const dir = copyRun(recordedRun("stop-capped-silently-2.1.143"));
    // The first call moved to the very time request #3 arrived: #3 is no longer after it.
    editFile(dir, "hooks.jsonl", (text) => text.replace('"t":1796164032836.776', '"t":1796164033016.1504'));
    expect(check(dir).notes?.[0]).toContain("continuations: 7;");
  });
});
