// `ccrepro report`: renders a recorded nightly or run directory from files, and merges shards through the CLI.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../../cli/main.ts";
import { runNightly } from "../../nightly/run-nightly.ts";
import { readSummary } from "../../nightly/summary.ts";
import { summaryOfRun } from "../../nightly/run-summary.ts";
import { FIXTURE_DIR, fixtureIndex, fixtureRunner, fixtureSummary, tempDir } from "../nightly/fixture.ts";

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    const code = await main(argv);
    return { code, stdout, stderr };
  } finally {
    vi.restoreAllMocks();
  }
}

afterEach(() => vi.restoreAllMocks());

const recorded = fixtureSummary();
const headerRun = path.resolve(FIXTURE_DIR, recorded.cells.find((c) => c.key === "subagent-resume-notification-header@2.1.281")!.runs[0]!.dir!);

describe("ccrepro report DIR", () => {
  it("refuses --out and --previous without --merge, and --format with it, saying why and what to do (issue 41, item 8)", async () => {
    const out = tempDir("report-out");
    const page = await cli("report", FIXTURE_DIR, "--format", "html", "--out", out);
    expect(page.code).toBe(3);
    expect(page.stdout).toBe("");
    expect(page.stderr).toMatch(/--out goes with --merge .*prints to stdout: redirect it, e.g\. ccrepro report .* --format html > report\.html/);
    expect(fs.readdirSync(out)).toEqual([]);
    expect((await cli("report", FIXTURE_DIR, "--previous", FIXTURE_DIR)).stderr).toMatch(/--previous goes with --merge/);
    expect((await cli("report", "--merge", FIXTURE_DIR, "--format", "junit", "--out", path.join(out, "m"))).stderr).toMatch(/--merge writes every report .* drop --format/);
  });

  it("prints a nightly directory's Markdown by default and any other format on request", async () => {
    const md = await cli("report", FIXTURE_DIR);
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(/^# ccrepro nightly — 2026-11-30 16:21 UTC\n/);
    const junit = await cli("report", FIXTURE_DIR, "--format", "junit");
    expect(junit.stdout).toMatch(/^<\?xml version="1.0"/);
    expect((await cli("report", FIXTURE_DIR, "--format", "html")).stdout).toMatch(/^<!doctype html>/);
    expect(JSON.parse((await cli("report", FIXTURE_DIR, "--format", "json")).stdout)).toEqual(recorded);
  });

  it("shows one run directory as a one-cell summary judged by the scenario's known list", async () => {
    const { summary, baseDir } = summaryOfRun(headerRun);
    expect(baseDir).toBe(path.dirname(headerRun));
    expect(summary).toMatchObject({ kind: "run", config: null, exitCode: 0, totals: { cells: 1, RED: 1, expected: 1 } });
    expect(summary.cells[0]).toMatchObject({ key: "subagent-resume-notification-header@2.1.281", params: {}, expectation: { source: "scenario", finding: "notification-changed" } });
    const md = await cli("report", headerRun);
    expect(md.stdout).toContain("# ccrepro run subagent-resume-notification-header@2.1.281");
  });

  it("keys a run driven in the UI by its driver, and judges it by the scenario's rows for that driver", () => {
    // Recorded from 2.1.226 in the UI (test/fixtures/runs/README.md); headless runs of that release are GREEN.
    const { summary } = summaryOfRun(path.resolve(FIXTURE_DIR, "..", "..", "runs", "bg-ui-never-notified-2.1.226"));
    expect(summary.cells[0]).toMatchObject({ key: "subagent-background-task-notified[driver=terminal]@2.1.226", drive: { driver: "terminal" }, verdict: "RED", expectation: { source: "scenario", verdict: "RED" } });
  });

  it("keys a file scenario's run with its own driver as the nightly keys it: no driver in the key", () => {
    // Recorded from 2.1.332 with a file scenario (test/fixtures/runs/README.md); it is not loaded here.
    const { summary } = summaryOfRun(path.resolve(FIXTURE_DIR, "..", "..", "runs", "continuations-2.1.332"));
    expect(summary.cells[0]!.key).toBe("many-continuations@2.1.332");
    expect(summary.cells[0]!.drive).toBeUndefined();
  });

  it("says what a directory must hold when it is neither", async () => {
    const { code, stderr } = await cli("report", tempDir("neither"));
    expect(code).toBe(3);
    expect(stderr).toMatch(/is neither a nightly directory \(no summary\.json\) nor a run directory \(no run\.json\)/);
  });
});

describe("ccrepro report --merge", () => {
  it("joins shard directories into one nightly, writes every report and exits by the ledger", async () => {
    const root = tempDir("cli-merge");
    for (const index of [1, 2]) {
      const outDir = path.join(root, `shard-${index}`);
      const summary = await runNightly({ config: recorded.config!, outDir, previous: null, shard: { index, count: 2 }, index: fixtureIndex(), runCell: fixtureRunner().runCell });
      fs.mkdirSync(outDir, { recursive: true });
      fs.writeFileSync(path.join(outDir, "summary.json"), JSON.stringify(summary));
    }
    const out = path.join(root, "merged");
    const { code, stdout } = await cli("report", "--merge", path.join(root, "shard-1"), path.join(root, "shard-2"), "--out", out);
    expect(code).toBe(1);
    expect(stdout).toContain(`open ${path.join(out, "index.html")}`);
    const merged = readSummary(out);
    expect(merged.cells.map((c) => [c.key, c.verdict, c.status])).toEqual(recorded.cells.map((c) => [c.key, c.verdict, c.status]));
    expect(merged.mergedFrom).toEqual([path.join("..", "shard-1"), path.join("..", "shard-2")]);
    for (const file of ["summary.md", "junit.xml", "index.html"]) expect(fs.existsSync(path.join(out, file))).toBe(true);
    // The merged page reaches the runs through the rebased paths.
    expect(fs.readFileSync(path.join(out, "index.html"), "utf8")).not.toContain("is not here");
  });
});
