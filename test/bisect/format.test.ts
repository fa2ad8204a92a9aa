// The human rendering: progress lines and the summary of a finished bisection.
import { describe, expect, it } from "vitest";
import { formatProgress, formatSummary } from "../../bisect/format.ts";
import { outcomeFor } from "../../bisect/outcome.ts";
import { runBisect } from "../../bisect/run-bisect.ts";
import type { BisectResult } from "../../bisect/types.ts";
import { candidates, monotone, NEW, OLD, tableRunner, type Table } from "./tables.ts";

async function summary(table: Table, list: string[], extra: { finding?: string; repeat?: number } = {}): Promise<BisectResult> {
  return runBisect({
    scenario: "bg-notify",
    old: OLD,
    new: NEW,
    candidates: list,
    outcomeOf: outcomeFor(extra.finding),
    runOnce: tableRunner(table).runOnce,
    now: () => 0,
    ...extra,
  });
}

describe("formatProgress", () => {
  it("renders each event kind on one line", () => {
    expect(formatProgress({ kind: "step", index: 3, estimatedTotal: 7, version: "2.1.270", role: "candidate", outcome: "RED", ms: 14_200, reusedFrom: [], measured: 1 })).toBe(
      "step 3/≈7: 2.1.270 → RED (14.2 s)",
    );
    expect(formatProgress({ kind: "start", index: 1, estimatedTotal: 9, version: "2.1.100", role: "old endpoint", reused: false })).toBe(
      "step 1/≈9: running 2.1.100 (old endpoint) …",
    );
    expect(formatProgress({ kind: "download", version: "2.1.270", bytes: 101_234_567, ms: 8_050, fromCache: false })).toBe(
      "  downloaded 2.1.270 (101.2 MB in 8.1 s)",
    );
    expect(formatProgress({ kind: "skip", version: "2.1.5", reason: { kind: "neither", outcome: "INCONCLUSIVE" } })).toBe(
      "  skipping 2.1.5: outcome INCONCLUSIVE matches neither endpoint",
    );
  });
});

describe("formatSummary", () => {
  it("a clean answer: the pair, the steps table, the budget; no skips or downloads sections", async () => {
    const list = candidates(7);
    const text = formatSummary(await summary(monotone(list, 2), list));
    const lines = text.split("\n");
    expect(lines[0]).toBe(`bisect bg-notify: ${OLD} → GREEN (old), ${NEW} → RED (new)`);
    expect(lines[1]).toBe("first new release: 2.1.2 (last old: 2.1.1)");
    expect(lines[2]).toMatch(/^changelog not checked/);
    expect(lines[3]).toBe("  2.1.2  https://github.com/anthropics/claude-code/blob/main/CHANGELOG.md#212");
    expect(lines).toContain("  3  2.1.3    candidate     RED         new    measured  0.0 s  runs/2.1.3-1");
    expect(text).not.toContain("skipped:");
    expect(text).not.toContain("downloads:");
    expect(lines.at(-1)).toBe("5 steps of at most 5 (⌈log2(7+1)⌉ = 3, + 0 skipped, + 2 endpoints); 5 runs");
  });

  it("an ambiguous answer names every release that may hold the change, and lists the skips with reasons", async () => {
    const list = candidates(7);
    const table = monotone(list, 2, { "2.1.2": "install-fails", "2.1.3": ["RED", "GREEN"] });
    const text = formatSummary(await summary(table, list, { repeat: 2 }));
    expect(text).toContain(
      "ambiguous: the change is in one of 2.1.2, 2.1.3, 2.1.4 (last old: 2.1.1); only skipped releases lie between 2.1.1 and 2.1.4",
    );
    expect(text).toContain("skipped:\n  2.1.2: cannot install: no package for 2.1.2\n  2.1.3: flaky: repeats disagree (RED, GREEN)");
    expect(text).toMatch(/\+ 2 skipped, \+ 2 endpoints\); \d+ runs \(--repeat 2\)$/);
  });

  it("names the finding and shows download time hidden and waited", async () => {
    const list = candidates(1);
    const result = await summary(monotone(list, 1, { [NEW]: { verdict: "RED", findings: ["B"] }, "2.1.0": "GREEN" }), list, { finding: "B" });
    const text = formatSummary({ ...result, download: { fetched: [OLD, NEW, "2.1.0"], hiddenMs: 12_300, waitedMs: 2_100, unused: [], cached: [] } });
    expect(text.split("\n")[0]).toBe(`bisect bg-notify on finding B: ${OLD} → lacks:B (old), ${NEW} → has:B (new)`);
    expect(text).toContain("downloads: 3 fetched, 12.3 s hidden behind runs, 2.1 s waited");
  });
});
