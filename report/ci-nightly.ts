// The GitHub Action's steps over a nightly directory: `ccrepro ci pack` packs every run of a RED, changed or failed
// cell into <dir>/packs/ for a bug report; `ccrepro ci summary` writes the job summary and gives the step outputs.
import fs from "node:fs";
import path from "node:path";
import { readSummary } from "../nightly/summary.ts";
import { ciOutputs, packPathOf, renderCiSummary, runsToPack, type CiArtefact } from "./ci-summary.ts";
import { packRun } from "./pack.ts";

// `note` hears one line per pack written; returns how many were.
export async function packNightly(dir: string, note: (line: string) => void): Promise<number> {
  let packed = 0;
  for (const runDir of runsToPack(readSummary(dir))) {
    const out = path.join(dir, packPathOf(runDir));
    fs.mkdirSync(path.dirname(out), { recursive: true });
    const result = await packRun(path.join(dir, runDir), out);
    note(`packed ${runDir} into ${out}${result.judgedSame ? "" : ` (it no longer judges as recorded: ${result.rejudged.verdict})`}`);
    packed += 1;
  }
  return packed;
}

// The job summary's Markdown and the step outputs, naming the packs `packNightly` left in the directory.
export function summariseNightly(dir: string, artefact: CiArtefact): { markdown: string; outputs: Record<string, string> } {
  const summary = readSummary(dir);
  const packed = runsToPack(summary)
    .map(packPathOf)
    .filter((pack) => fs.existsSync(path.join(dir, pack)));
  return { markdown: renderCiSummary(summary, artefact, packed), outputs: ciOutputs(summary, path.resolve(dir), packed) };
}
