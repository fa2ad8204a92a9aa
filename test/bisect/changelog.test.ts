// Changelog links and the reachability check.
import { describe, expect, it } from "vitest";
import { changelogLinks, checkChangelog } from "../../bisect/changelog.ts";

describe("changelogLinks", () => {
  it("points at the release's heading, with dots dropped as GitHub does", () => {
    expect(changelogLinks("2.1.281")).toEqual({
      entry: "https://github.com/anthropics/claude-code/blob/main/CHANGELOG.md#21281",
      raw: "https://raw.githubusercontent.com/anthropics/claude-code/main/CHANGELOG.md",
    });
    expect(changelogLinks("1.0.0-beta.2").entry).toMatch(/#100-beta2$/);
  });
});

describe("checkChangelog", () => {
  it("without a fetcher the links are given and flagged unverified", async () => {
    const report = await checkChangelog(["2.1.3"], undefined);
    expect(report.status).toBe("unchecked");
    expect(report.entries).toEqual([{ version: "2.1.3", url: changelogLinks("2.1.3").entry }]);
  });

  it("a fetch that fails says so and keeps the links", async () => {
    const report = await checkChangelog(["2.1.3"], () => Promise.reject(new Error("ENETUNREACH")));
    expect(report).toEqual({
      status: "unreachable",
      note: "changelog not reachable from here (ENETUNREACH); the links are unverified, open them where GitHub is reachable",
      entries: [{ version: "2.1.3", url: changelogLinks("2.1.3").entry }],
    });
  });

  it("matches whole headings only (2.1.3 is not 2.1.30)", async () => {
    const report = await checkChangelog(["2.1.3", "2.1.4"], async () => "# Changelog\n\n## 2.1.30\n\n## 2.1.4\n- x\n");
    expect(report.entries.map((e) => e.found)).toEqual([false, true]);
    expect(report.note).toBe("changelog checked: no entry for 2.1.3");
  });
});
