// Each built-in's page sets the releases its cited report and the changelog name beside what its own `known` list
// measures there, equal to what the scenario's data gives; a reproduction is RED on a release a reporter names.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SCENARIOS } from "../../scenarios/index.ts";
import { publicRecordRows, publicRecordSection } from "../../report/public-record.ts";
import { withSection } from "../../scripts/public-record.ts";

const PAGES = path.join(import.meta.dirname, "..", "..", "docs", "scenarios");

describe("the public record of the built-ins", () => {
  it("is given by every built-in", () => {
    expect(SCENARIOS.filter((s) => !s.publicRecord || s.publicRecord.releases.length === 0).map((s) => s.name)).toEqual([]);
  });

  it("is on every built-in's page exactly as its data makes it (node --import tsx scripts/public-record.ts rewrites them)", () => {
    const differing = SCENARIOS.filter((s) => {
      const file = path.join(PAGES, `${s.name}.md`);
      const section = publicRecordSection(s);
      return section === null || !fs.existsSync(file) || !fs.readFileSync(file, "utf8").includes(section);
    });
    expect(differing.map((s) => s.name)).toEqual([]);
  });

  it("has a measured verdict for every release it names", () => {
    const unmeasured = SCENARIOS.flatMap((s) => publicRecordRows(s).filter((row) => row.measured === null).map((row) => `${s.name} ${row.version}`));
    expect(unmeasured).toEqual([]);
  });

  it("makes a reproduction RED on a release a reporter names; a guard says why it is not one", () => {
    const unreproduced = SCENARIOS.filter((s) => s.publicRecord?.role === "reproduction" && !publicRecordRows(s).some((row) => row.says === "reported" && row.measured?.verdict === "RED"));
    expect(unreproduced.map((s) => s.name)).toEqual([]);
    for (const s of SCENARIOS.filter((s) => s.publicRecord?.role === "guard")) expect(s.publicRecord!.guard!.length, s.name).toBeGreaterThan(20);
  });
});

describe("the README's table of built-ins", () => {
  it("lists every reproduction under reproduced and every guard under guards", () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, "..", "..", "README.md"), "utf8");
    const table = readme.slice(readme.indexOf("| class | reproduced"), readme.indexOf("\n\n", readme.indexOf("| class | reproduced")));
    const column = (index: number) => table.split("\n").slice(2).flatMap((row) => [...(row.split(" | ")[index] ?? "").matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]!));
    expect(column(1).sort()).toEqual(SCENARIOS.filter((s) => s.publicRecord?.role === "reproduction").map((s) => s.name).sort());
    expect(column(2).sort()).toEqual(SCENARIOS.filter((s) => s.publicRecord?.role === "guard").map((s) => s.name).sort());
  });
});

describe("withSection", () => {
  const section = "## Public record\n\nnew table";

  it("replaces the section up to the next heading and keeps what follows", () => {
    const page = "# x\n\ntext\n\n## Public record\n\nold table\nold line\n\n## Reproduce\n\ncmd\n";
    expect(withSection(page, section)).toBe("# x\n\ntext\n\n## Public record\n\nnew table\n\n## Reproduce\n\ncmd\n");
  });

  it("replaces a section that ends the page", () => {
    expect(withSection("# x\n\n## Public record\n\nold\n", section)).toBe("# x\n\n## Public record\n\nnew table\n");
  });

  it("inserts before ## Reproduce, else at the end", () => {
    expect(withSection("# x\n\n## Reproduce\ncmd\n", section)).toBe("# x\n\n## Public record\n\nnew table\n\n## Reproduce\ncmd\n");
    expect(withSection("# x\n\ntext\n\n", section)).toBe("# x\n\ntext\n\n## Public record\n\nnew table\n");
  });
});
