// Every reporter renders the recorded nightly from its files alone: Markdown, JUnit (parsed back), HTML and JSON.
import fs from "node:fs";
import path from "node:path";
import { parse, type TestSuite, type TestSuites } from "junit2json";
import { describe, expect, it } from "vitest";
import { summarySchema, type Summary } from "../../nightly/summary.ts";
import { renderHtml } from "../../report/html.ts";
import { renderJunit } from "../../report/junit.ts";
import { renderMarkdown } from "../../report/markdown.ts";
import { reporterFor } from "../../report/reporters.ts";
import { FIXTURE_DIR, fixtureSummary, tempDir } from "../nightly/fixture.ts";

const summary = fixtureSummary();
const input = { summary, baseDir: FIXTURE_DIR };
const ORPHAN_281 = "resume-orphaned-background-task[grace=1000]@2.1.281";

// The recorded summary with one cell turned into each other outcome a report must show.
function varied(): Summary {
  const cells = summary.cells.map((c) => ({ ...c }));
  cells[1] = { ...cells[1]!, verdict: "INCONCLUSIVE", status: "unexpected", reason: "session 2 never answered the pushed prompt", redFindings: [] };
  cells[3] = { ...cells[3]!, verdict: "ERROR", status: "error", reason: "processes of this run survived cleanup: 4242 <&>", redFindings: [] };
  return { ...summary, cells, exitCode: 3 };
}

describe("markdown", () => {
  it("leads with the headline and what is not as expected, then the matrix", () => {
    const md = renderMarkdown(input);
    expect(md.split("\n")[0]).toBe("# ccrepro nightly — 2026-11-30 16:21 UTC");
    expect(md).toContain("**❌ 1 not as expected (exit 1)**");
    expect(md.indexOf("## Not as expected")).toBeLessThan(md.indexOf("## Matrix"));
    expect(md).toContain(`| \`${ORPHAN_281}\` | 🔴 RED prompt-settled-by-extra-result | GREEN | no ledger entry: GREEN by default |`);
    expect(md).toContain("| scenario | 2.1.281 | 2.1.332 |");
    expect(md).toContain("| subagent-resume-notification-header | 🔴 RED notification-changed ✓ | 🟢 GREEN ✓ |");
    expect(md).not.toContain("## Changes since the previous nightly");
  });

  it("lists each expected failure once with the releases it covers, its reason and link, tags escaped", () => {
    const cells = summary.cells.map((c) => (c.scenario === "resume-orphaned-background-task" ? { ...c, expectation: { verdict: "RED" as const, finding: null, reason: "absorbs a <task-notification>", link: null, versions: "*", source: "config" as const } } : c));
    const md = renderMarkdown({ summary: { ...summary, cells }, baseDir: FIXTURE_DIR });
    const section = md.slice(md.indexOf("## Expected failures (ledger)"), md.indexOf("## Releases"));
    expect(section.trim().split("\n").slice(2)).toEqual([
      "- `resume-orphaned-background-task grace=1000` on 2.1.281, 2.1.332: RED — absorbs a &lt;task-notification>",
      expect.stringMatching(/^- `subagent-resume-notification-header` on 2\.1\.281: RED notification-changed — header flips .* — seed 002 \(/),
    ]);
  });

  it("lists changes first when there was a previous nightly", () => {
    const withChanges: Summary = {
      ...summary,
      previous: { path: "/p/summary.json", startedAt: "2026-11-29T16:00:00.000Z" },
      changes: [{ kind: "fixed", key: "k|pipe", before: { verdict: "RED", redFindings: ["x"] }, after: { verdict: "GREEN", redFindings: [] }, regression: false }],
    };
    const md = renderMarkdown({ summary: withChanges, baseDir: FIXTURE_DIR });
    expect(md.indexOf("## Changes since the previous nightly")).toBeLessThan(md.indexOf("## Not as expected"));
    expect(md).toContain("| fixed | `k\\|pipe` | RED x → GREEN |  |");
  });
});

describe("junit", () => {
  it("has one testcase per cell: unexpected RED fails, expected RED passes", async () => {
    const parsed = (await parse(renderJunit(input))) as TestSuites;
    const cases = parsed.testsuite!.flatMap((s: TestSuite) => s.testcase ?? []);
    expect(cases.map((c) => c.name).sort()).toEqual(summary.cells.map((c) => c.key).sort());
    expect(parsed).toMatchObject({ tests: 4, failures: 1, errors: 0 });
    const failed = cases.filter((c) => c.failure);
    expect(failed.map((c) => c.name)).toEqual([ORPHAN_281]);
    expect(failed[0]!.failure![0]!.message).toMatch(/^RED prompt-settled-by-extra-result, expected GREEN/);
    expect(failed[0]!.failure![0]!.inner).toContain("prompt-settled-by-extra-result");
  });

  it("skips INCONCLUSIVE with its reason and reports ERROR as an error, escaping what needs it", async () => {
    const parsed = (await parse(renderJunit({ summary: varied(), baseDir: FIXTURE_DIR }))) as TestSuites;
    const cases = parsed.testsuite!.flatMap((s: TestSuite) => s.testcase ?? []);
    expect(cases.find((c) => c.skipped)?.skipped![0]!.message).toBe("INCONCLUSIVE: session 2 never answered the pushed prompt");
    expect(cases.find((c) => c.error)?.error![0]!.message).toBe("processes of this run survived cleanup: 4242 <&>");
    expect(parsed).toMatchObject({ tests: 4, failures: 1, errors: 1 });
  });

  it("skips UNSUPPORTED with the missing need, and marks it grey in Markdown", async () => {
    const s = varied();
    s.cells[1] = { ...s.cells[1]!, verdict: "UNSUPPORTED", status: "expected", reason: "needs `--input-format stream-json`, which this release lacks", redFindings: [] };
    const parsed = (await parse(renderJunit({ summary: s, baseDir: FIXTURE_DIR }))) as TestSuites;
    const cases = parsed.testsuite!.flatMap((suite: TestSuite) => suite.testcase ?? []);
    expect(cases.find((c) => c.skipped)?.skipped![0]!.message).toBe("UNSUPPORTED: needs `--input-format stream-json`, which this release lacks");
    expect(renderMarkdown({ summary: s, baseDir: FIXTURE_DIR })).toContain("⚪");
  });

  it("fails an expected cell whose finding changed since the previous nightly", async () => {
    const key = "subagent-resume-notification-header@2.1.281";
    const changed: Summary = { ...summary, changes: [{ kind: "finding-changed", key, before: { verdict: "RED", redFindings: ["notification-dropped"] }, after: { verdict: "RED", redFindings: ["notification-changed"] }, regression: true }] };
    const parsed = (await parse(renderJunit({ summary: changed, baseDir: FIXTURE_DIR }))) as TestSuites;
    const failure = parsed.testsuite!.flatMap((s: TestSuite) => s.testcase ?? []).find((c) => c.name === key)?.failure?.[0];
    expect(failure).toMatchObject({ type: "finding-changed", message: "finding-changed since the previous nightly: RED notification-dropped → RED notification-changed" });
  });
});

describe("html", () => {
  const html = renderHtml(input);

  it("is one self-contained page: inline style and script, nothing fetched", () => {
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<(link|img|iframe)\b|\bsrc=|url\(/i);
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it("has one matrix cell per cell, linked to its details, with each run's timelines and the finding diffs", () => {
    expect(html.match(/<td class="cell /g)).toHaveLength(summary.cells.length);
    for (let i = 0; i < summary.cells.length; i++) expect(html).toContain(`<details class="cell-detail" id="cell-${i}"`);
    expect(html.match(/class="timeline turns"/g)!.length).toBe(6); // s1 + s2 twice, s1 twice
    expect(html).toContain("requests — stream sub — 1 boundary");
    expect(html).toContain('<span class="boundary">  ── continuation 1 (sub, task notification): req 6 → req 8 ──</span>');
    expect(html).toContain('<span class="add">+[MESSAGE FROM NON-USER SOURCE - NOT USER INPUT]</span>');
    expect(html).toContain("&lt;task-notification&gt;");
    // The cache bars of each run's streams (report/cache-bar.ts).
    expect(html).toContain('<details class="cache-bars" data-stream="sub">');
    expect(html).toMatch(/<figure class="cache-bar" data-seq="8" data-stop="no-breakpoint-before-change">/);
  });

  it("still renders when the run directories are gone or damaged", () => {
    const gone = renderHtml({ summary, baseDir: tempDir("gone") });
    expect(gone.match(/timelines: .* is not here \(only the summary was kept\)/g)).toHaveLength(4);
    expect(gone).toContain('<pre class="diff">');
    const copy = tempDir("damaged");
    fs.cpSync(FIXTURE_DIR, copy, { recursive: true });
    fs.appendFileSync(path.join(copy, summary.cells[0]!.runs[0]!.dir!, "mock", "index.jsonl"), '{"kind":"request","seq":"x"}\n');
    const damaged = renderHtml({ summary, baseDir: copy });
    expect(damaged.match(/timelines: .* could not be read: /g)).toHaveLength(1);
    expect(damaged.match(/class="timeline requests"/g)).toHaveLength(5); // main of the other orphan run, main and sub of both header runs
  });
});

describe("json", () => {
  it("writes the summary back unchanged", () => {
    const text = reporterFor("json").render(input);
    expect(summarySchema.parse(JSON.parse(text))).toEqual(summary);
    expect(text).toBe(`${JSON.stringify(JSON.parse(fs.readFileSync(path.join(FIXTURE_DIR, "summary.json"), "utf8")), null, 2)}\n`);
  });
});
