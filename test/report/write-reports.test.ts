// Writing every report: one that throws is recorded and the others are still written.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPORTERS, type Reporter } from "../../report/reporters.ts";
import { writeReports } from "../../report/write-reports.ts";
import { FIXTURE_DIR, fixtureSummary, tempDir } from "../nightly/fixture.ts";

const input = { summary: fixtureSummary(), baseDir: FIXTURE_DIR };

describe("writeReports", () => {
  it("writes summary.json, summary.md, junit.xml, index.html, and a page per cell that index.html links to", () => {
    const out = path.join(tempDir("reports"), "nightly");
    const result = writeReports(input, out);
    expect(result.failed).toEqual([]);
    const pages = input.summary.cells.map((c) => `cells/${c.key.replace(/[^A-Za-z0-9._-]+/g, "_")}.html`);
    expect(result.written.map((f) => path.relative(out, f))).toEqual(["summary.json", "summary.md", "junit.xml", "index.html", ...pages]);
    for (const file of result.written) expect(fs.statSync(file).size).toBeGreaterThan(500);
    const index = fs.readFileSync(path.join(out, "index.html"), "utf8");
    for (const page of pages) expect(index).toContain(`href="${page}"`);
  });

  it("keeps going when one reporter fails", () => {
    const out = tempDir("reports-broken");
    const broken: Reporter = { format: "md", file: "broken.md", render: () => { throw new Error("renderer bug"); } };
    const result = writeReports(input, out, [REPORTERS[0]!, broken, ...REPORTERS.slice(2)]);
    expect(result.failed).toEqual([{ file: path.join(out, "broken.md"), error: expect.stringContaining("renderer bug") }]);
    expect(result.written.map((f) => path.basename(f)).slice(0, 3)).toEqual(["summary.json", "junit.xml", "index.html"]);
    expect(fs.existsSync(path.join(out, "broken.md"))).toBe(false);
  });
});
