// stop-hook-loop's check on both sides of its two bisected boundaries, recorded from real releases (test/fixtures/runs
// README): no cap up to 2.1.142; a cap of 9 blocks from 2.1.143, silent until 2.1.280; reported from 2.1.281.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecordings } from "../../harness/recordings.ts";
import { findScenario } from "../../scenarios/index.ts";
import { copyRun, editFile, editJsonLines, recordedRun } from "../fixtures/runs/edit-run.ts";

const scenario = findScenario("stop-hook-loop")!;
const check = (dir: string) => {
  const result = scenario.check(loadRecordings(dir), scenario.params.parse({}));
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
    expect(check(dir).ids).toContain("stop-hook-active-missing");
  });
});
