// Which nightly this one is compared with: the one given, or the newest earlier whole nightly beside the output directory.
import fs from "node:fs";
import path from "node:path";
import type { PreviousNightly } from "./assemble.ts";
import { readSummary, SUMMARY_FILE, summaryPath, summarySchema } from "./summary.ts";

export function loadPreviousNightly(fileOrDir: string): PreviousNightly {
  return { summary: readSummary(fileOrDir), path: path.resolve(summaryPath(fileOrDir)) };
}

// Shard summaries and unfinished or damaged directories are skipped: only a whole nightly is a baseline.
export function findPreviousNightly(outDir: string, before: Date): PreviousNightly | null {
  const parent = path.dirname(path.resolve(outDir));
  let best: PreviousNightly | null = null;
  for (const name of fs.existsSync(parent) ? fs.readdirSync(parent) : []) {
    const dir = path.join(parent, name);
    const file = path.join(dir, SUMMARY_FILE);
    if (dir === path.resolve(outDir) || !fs.existsSync(file)) continue;
    let parsed;
    try {
      parsed = summarySchema.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
    } catch {
      continue;
    }
    if (!parsed.success) continue;
    const summary = parsed.data;
    if (summary.kind !== "nightly" || summary.shard !== null || Date.parse(summary.startedAt) >= before.getTime()) continue;
    if (!best || Date.parse(summary.startedAt) > Date.parse(best.summary.startedAt)) best = { summary, path: file };
  }
  return best;
}

// What --previous says: a summary to compare with, none at all (--no-previous: a CI job whose ledger has none, where
// a folder beside --out may hold anything), or, unsaid, the newest earlier nightly beside --out.
export function previousNightlyFor(option: string | false | undefined, outDir: string, now: Date): PreviousNightly | null {
  if (option === false) return null;
  return option ? loadPreviousNightly(option) : findPreviousNightly(outDir, now);
}
