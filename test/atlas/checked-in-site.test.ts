// The checked-in atlas's site (docs/atlas/site/, the README's answer to "which release carries which bug") is what
// the atlas and the scenarios give now (issue 45, item 6): written afresh beside a copy of the atlas and its proofs,
// it equals the checked-in one file for file. `node --import tsx scripts/atlas-site.ts` writes it again.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CHECKED_IN_ATLAS, readAtlasFile } from "../../atlas/atlas-file.ts";
import { ATLAS_SITE_DIR, checkedInSite } from "../../report/atlas-site.ts";

const ATLAS_DIR = path.dirname(CHECKED_IN_ATLAS);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-site-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe("the checked-in atlas site", () => {
  it("is current: written afresh it is the same, page for page", () => {
    fs.cpSync(ATLAS_DIR, scratch, { recursive: true, filter: (source) => !source.startsWith(path.join(ATLAS_DIR, ATLAS_SITE_DIR)) });
    checkedInSite(readAtlasFile(CHECKED_IN_ATLAS), scratch);
    const pages = (dir: string) => fs.readdirSync(path.join(dir, ATLAS_SITE_DIR)).sort();
    expect(pages(scratch)).toEqual(pages(ATLAS_DIR));
    for (const page of pages(ATLAS_DIR)) {
      expect(fs.readFileSync(path.join(scratch, ATLAS_SITE_DIR, page), "utf8"), `${page} differs: run node --import tsx scripts/atlas-site.ts`).toBe(fs.readFileSync(path.join(ATLAS_DIR, ATLAS_SITE_DIR, page), "utf8"));
    }
  });

  it("links only what the repository holds", () => {
    for (const page of fs.readdirSync(path.join(ATLAS_DIR, ATLAS_SITE_DIR))) {
      const html = fs.readFileSync(path.join(ATLAS_DIR, ATLAS_SITE_DIR, page), "utf8");
      for (const [, href] of html.matchAll(/href="([^"#]+)"/g)) {
        if (/^[a-z]+:/.test(href!)) continue;
        expect(fs.existsSync(path.resolve(ATLAS_DIR, ATLAS_SITE_DIR, decodeURIComponent(href!))), `${page}: ${href}`).toBe(true);
      }
    }
  });
});
