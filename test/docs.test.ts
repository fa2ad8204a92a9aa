// The front door and the pages behind it: the README links every page under docs/, and no relative link in the
// README or a page points at a file that is not there.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "..");
const pages = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? pages(path.join(dir, e.name)) : e.name.endsWith(".md") ? [path.join(dir, e.name)] : []));
const relativeLinks = (file: string) =>
  [...fs.readFileSync(file, "utf8").matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((link) => !/^(https?:|#|mailto:)/.test(link)).map((link) => link.split("#")[0]!);

describe("the README and docs/", () => {
  it("links every page of docs/ from the README", () => {
    const linked = new Set(relativeLinks(path.join(ROOT, "README.md")).map((link) => path.resolve(ROOT, link)));
    const top = fs.readdirSync(path.join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => path.join(ROOT, "docs", name));
    expect(top.filter((page) => !linked.has(page)).map((page) => path.relative(ROOT, page))).toEqual([]);
  });

  it("has no relative link to a missing file", () => {
    const broken = [path.join(ROOT, "README.md"), ...pages(path.join(ROOT, "docs"))].flatMap((file) =>
      relativeLinks(file).filter((link) => !fs.existsSync(path.resolve(path.dirname(file), link))).map((link) => `${path.relative(ROOT, file)} → ${link}`),
    );
    expect(broken).toEqual([]);
  });

  it("gives every built-in scenario its page, listed in docs/scenarios/README.md and linked from docs/scenarios.md", async () => {
    const { SCENARIOS } = await import("../scenarios/index.ts");
    const dir = path.join(ROOT, "docs", "scenarios");
    const listed = new Set(relativeLinks(path.join(dir, "README.md")).map((link) => path.resolve(dir, link)));
    const overview = new Set(relativeLinks(path.join(ROOT, "docs", "scenarios.md")).map((link) => path.resolve(ROOT, "docs", link)));
    const pagesOf = fs.readdirSync(dir).filter((name) => name.endsWith(".md") && name !== "README.md").map((name) => path.join(dir, name));
    expect(pagesOf.filter((page) => !listed.has(page) || !overview.has(page)).map((page) => path.relative(ROOT, page))).toEqual([]);
    // The six the project started with are described in docs/scenarios.md itself; every later one has a page.
    const described = fs.readFileSync(path.join(ROOT, "docs", "scenarios.md"), "utf8");
    expect(SCENARIOS.filter((s) => !fs.existsSync(path.join(dir, `${s.name}.md`)) && !described.includes(`\`${s.name}\``)).map((s) => s.name)).toEqual([]);
  });

  it("keeps the front page to one screen of a newcomer's reading (about 150 lines)", () => {
    expect(fs.readFileSync(path.join(ROOT, "README.md"), "utf8").split("\n").length).toBeLessThanOrEqual(175);
  });
});
