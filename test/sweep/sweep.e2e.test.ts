// A real sweep across seed 002's last boundary: 2.1.283 still flips the notification header, 2.1.284 keeps it.
// Both releases come from npm and run through the one join, as `ccrepro sweep` runs them.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS } from "../e2e-run.ts";
import { findScenario } from "../../scenarios/index.ts";
import { runSweep } from "../../sweep/run-sweep.ts";
import { readSweepFile } from "../../sweep/sweep-file.ts";

const OUT = path.join(import.meta.dirname, "..", "..", "test-output", "sweep-e2e");

describe("sweep on real releases", () => {
  it(
    "names 2.1.283 → 2.1.284 as the changed → GREEN boundary",
    async () => {
      fs.rmSync(OUT, { recursive: true, force: true });
      const scenario = findScenario("subagent-resume-notification-header")!;
      const versions = ["2.1.283", "2.1.284"];
      const outcome = await runSweep({ scenario, params: scenario.params.parse({}), versionsWord: versions.join(","), versions, repeat: 1, concurrency: 1, outDir: OUT });
      expect(outcome.file.results.map((r) => [r.version, r.verdict, r.red])).toEqual([
        ["2.1.283", "RED", ["notification-changed"]],
        ["2.1.284", "GREEN", []],
      ]);
      expect(readSweepFile(OUT).boundaries).toEqual([{ before: "2.1.283", after: "2.1.284", from: "RED notification-changed", to: "GREEN", unknownBetween: [], unjudgedBetween: [] }]);
    },
    2 * E2E_TIMEOUT_MS,
  );
});
