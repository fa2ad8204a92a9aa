// Writes each built-in's "Public record" section into its page under docs/scenarios/ from the scenario's own data
// (report/public-record.ts), replacing the section where the page has one and adding it before "## Reproduce"
// otherwise: `node --import tsx scripts/public-record.ts`. test/report/public-record.test.ts fails while a page differs.
import fs from "node:fs";
import path from "node:path";
import { SCENARIOS } from "../scenarios/index.ts";
import { PUBLIC_RECORD_HEADING, publicRecordSection } from "../report/public-record.ts";

const PAGES = path.join(import.meta.dirname, "..", "docs", "scenarios");

// The page with its section replaced (up to the next "## " heading) or inserted before "## Reproduce", else at the end.
export function withSection(page: string, section: string): string {
  const lines = page.replace(/\n+$/, "").split("\n");
  const start = lines.indexOf(PUBLIC_RECORD_HEADING);
  if (start !== -1) {
    const next = lines.findIndex((line, i) => i > start && line.startsWith("## "));
    const end = next === -1 ? lines.length : next;
    return [...lines.slice(0, start), ...section.split("\n"), ...(next === -1 ? [] : [""]), ...lines.slice(end)].join("\n") + "\n";
  }
  const reproduce = lines.indexOf("## Reproduce");
  if (reproduce === -1) return [...lines, "", section].join("\n") + "\n";
  return [...lines.slice(0, reproduce), ...section.split("\n"), "", ...lines.slice(reproduce)].join("\n") + "\n";
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  for (const scenario of SCENARIOS) {
    const section = publicRecordSection(scenario);
    const file = path.join(PAGES, `${scenario.name}.md`);
    if (section === null || !fs.existsSync(file)) {
      console.log(`${scenario.name}: ${section === null ? "no publicRecord in its file" : "no page"}; skipped`);
      continue;
    }
    const before = fs.readFileSync(file, "utf8");
    const after = withSection(before, section);
    if (after !== before) fs.writeFileSync(file, after);
    console.log(`${scenario.name}: ${after === before ? "unchanged" : "written"}`);
  }
}
