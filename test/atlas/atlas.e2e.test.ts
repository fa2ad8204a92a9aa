// A real atlas across the last boundary of subagent-resume-notification-header: 2.1.282 and 2.1.283 flip the
// absorbed notification's header, 2.1.284 keeps it. Three releases from npm, three runs; then the same atlas again
// (resumed from atlas.json) and a fresh one reusing the first one's run directories run nothing, and advise reads it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS } from "../e2e-run.ts";
import { findScenario } from "../../scenarios/index.ts";
import { runAtlas } from "../../atlas/run-atlas.ts";
import { readAtlasFile } from "../../atlas/atlas-file.ts";
import { advise } from "../../atlas/advise.ts";

const OUT = path.join(import.meta.dirname, "..", "..", "test-output", "atlas-e2e");

describe("atlas on real releases", () => {
  it(
    "bisects 2.1.282–2.1.284 to 2.1.283 → 2.1.284 in three runs; a resumed atlas and one reusing its runs run nothing",
    async () => {
      fs.rmSync(OUT, { recursive: true, force: true });
      const scenario = findScenario("subagent-resume-notification-header")!;
      const options = { subjects: [{ scenario, params: scenario.params.parse({}) }], drive: {}, versions: ["2.1.282", "2.1.283", "2.1.284"], stride: 2, verify: 0, repeat: 1, reuse: [] };
      const first = await runAtlas({ ...options, outDir: path.join(OUT, "a") });
      expect(first.runs).toBe(3);
      const entry = readAtlasFile(path.join(OUT, "a")).entries[0]!;
      expect(entry.cells.map((c) => [c.version, c.why, c.verdict, c.red])).toEqual([
        ["2.1.282", "sample", "RED", ["notification-changed"]],
        ["2.1.283", "bisect", "RED", ["notification-changed"]],
        ["2.1.284", "sample", "GREEN", []],
      ]);
      expect(entry.boundaries.map((b) => [b.before, b.after, b.from, b.to, b.between])).toEqual([["2.1.283", "2.1.284", "RED notification-changed", "GREEN", []]]);
      expect(entry.complete).toBe(true);

      const resumed = await runAtlas({ ...options, outDir: path.join(OUT, "a") });
      expect(resumed.runs).toBe(0);
      const reusing = await runAtlas({ ...options, outDir: path.join(OUT, "b"), reuse: [path.join(OUT, "a", "runs")] });
      expect([reusing.runs, reusing.reused]).toEqual([0, 3]);
      expect(readAtlasFile(path.join(OUT, "b")).entries[0]!.boundaries.map((b) => b.after)).toEqual(["2.1.284"]);

      const advice = advise(readAtlasFile(path.join(OUT, "a")), { current: "2.1.282" });
      expect(advice.newest).toBe("2.1.284");
      expect(advice.current!.carries.map((c) => [c.scenario, c.red])).toEqual([["subagent-resume-notification-header", ["notification-changed"]]]);
    },
    4 * E2E_TIMEOUT_MS,
  );
});
