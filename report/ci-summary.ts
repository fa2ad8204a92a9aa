// What a CI job shows of a nightly (the GitHub Action's job summary and step outputs): every cell in one table,
// what fails the job first and new REDs first of all, each linked to its scenario's upstream report and to its run's
// place in the uploaded artefact; and which runs to pack for a bug report. Rebuilt from summary.json alone.
import path from "node:path";
import type { Cell, Summary } from "../nightly/summary.ts";
import { code, prose, table, VERDICT_MARK } from "./markdown.ts";
import { reporterFor } from "./reporters.ts";
import { CHANGE_LABEL, cellVerdictText, expectationSource, expectationText, headline, tally } from "./wording.ts";

// Where the job's artefact is: its name, and the address the upload gave (null when there was none, e.g. a local run).
export interface CiArtefact {
  name: string;
  url: string | null;
}

// A cell's place in the table, and the label saying why it is there.
type Standing = { rank: number; label: string };

// The cell's change since the previous nightly, when the summary records one.
const changeOf = (summary: Summary, cell: Cell) => summary.changes.find((c) => "key" in c && c.key === cell.key);

// A GREEN where RED was expected fails, and says what makes it pass: nothing, when only the previous nightly held the
// RED (the next night expects GREEN); an edit of the entry that holds it, when it is written down.
function fixedLabel(expectation: Cell["expectation"]): string {
  if (expectation.source === "previous") return "GREEN that was RED: fails tonight only, expected GREEN from the next night on";
  const where = expectation.source === "config" ? "the nightly config's expectation" : "the scenario's `known` entry";
  return `GREEN that was RED: fails every night until ${where} for ${expectation.versions} leaves this release out`;
}

// Fails the job: a cell not as expected, a change that counts against the nightly, a harness error.
function standing(summary: Summary, cell: Cell): Standing {
  const change = changeOf(summary, cell);
  const counts = change !== undefined && "regression" in change && change.regression;
  if (cell.status === "error") return { rank: 2, label: "⚠️ harness error" };
  // A RED where GREEN (or nothing) was expected; a RED with other findings than expected is "not as expected" below.
  if (cell.verdict === "RED" && ((cell.status === "unexpected" && cell.expectation.verdict !== "RED") || (counts && change?.kind === "new-red"))) return { rank: 0, label: "❌ new RED" };
  if (cell.status === "unexpected" && cell.verdict === "GREEN" && cell.expectation.verdict === "RED") return { rank: 1, label: `❌ ${fixedLabel(cell.expectation)}` };
  if (cell.status === "unexpected" || counts) return { rank: 1, label: `❌ ${change ? CHANGE_LABEL[change.kind] : "not as expected"}` };
  if (cell.verdict === "RED") return { rank: 3, label: cell.expectation.source === "previous" ? "RED, held by the previous nightly" : "known RED" };
  return { rank: 4, label: "as expected" };
}

// Cells in the order the summary lists them: failures (new REDs first), harness errors, held REDs, the rest.
export function cellsForCi(summary: Summary): { cell: Cell; standing: Standing }[] {
  return summary.cells.map((cell) => ({ cell, standing: standing(summary, cell) })).sort((a, b) => a.standing.rank - b.standing.rank);
}

// Run directories (relative to the nightly's) worth a pack: every run of a RED cell or of one that changed or failed.
export function runsToPack(summary: Summary): string[] {
  const wanted = cellsForCi(summary).filter(({ cell, standing }) => cell.verdict === "RED" || standing.rank <= 2);
  return [...new Set(wanted.flatMap(({ cell }) => cell.runs.map((run) => run.dir).filter((dir): dir is string => dir !== null)))];
}

// The pack `ccrepro ci pack` writes for a run directory, relative to the nightly's.
export function packPathOf(runDir: string): string {
  return path.join("packs", `${path.basename(runDir)}.tar.gz`);
}

const linked = (text: string, url: string | null | undefined) => (url && /^https?:\/\//.test(url) ? `[${text}](${url})` : text);

export function renderCiSummary(summary: Summary, artefact: CiArtefact, packed: readonly string[]): string {
  const failing = summary.exitCode !== 0;
  const out = [`## ccrepro: ${failing ? "❌" : "✅"} ${prose(headline(summary))}`, "", tally(summary), ""];
  const rows = cellsForCi(summary).map(({ cell, standing }) => {
    const scenario = linked(cell.scenario + (cell.paramsLabel ? ` ${cell.paramsLabel}` : ""), cell.link ?? cell.expectation.link);
    const runs = cell.runs.flatMap((run) => {
      if (run.dir === null) return [];
      const pack = packPathOf(run.dir);
      return [`${linked(code(run.dir), artefact.url)}${packed.includes(pack) ? ` · pack ${code(pack)}` : ""}`];
    });
    return [standing.label, scenario, cell.version, `${VERDICT_MARK[cell.verdict]} ${cellVerdictText(cell)}`, expectationText(cell.expectation), prose(expectationSource(cell.expectation)), runs.join("<br>")];
  });
  out.push(...table(["", "scenario", "claude", "verdict", "expected", "why that is expected", "run, in the artefact"], rows));
  out.push(
    "",
    `Fails the job: a new RED, a GREEN that was RED, a RED whose findings changed, a cell starting to race, or a harness error. ` +
      `A RED the scenario's \`known\` list or the previous nightly already holds is reported, not failed.`,
    "",
    `Artefact ${linked(code(artefact.name), artefact.url)}: \`index.html\` (timelines and diffs), \`junit.xml\`, \`summary.json\`, every run directory, and a pack of each RED or changed run for a bug report.`,
  );
  return `${out.join("\n")}\n`;
}

// The action's step outputs, as `name=value` lines for $GITHUB_OUTPUT; paths are the nightly directory's files.
export function ciOutputs(summary: Summary, dir: string, packed: readonly string[]): Record<string, string> {
  const ranked = cellsForCi(summary);
  return {
    cells: String(summary.totals.cells),
    green: String(summary.totals.GREEN),
    red: String(summary.totals.RED),
    "new-red": String(ranked.filter((r) => r.standing.rank === 0).length),
    unexpected: String(summary.totals.unexpected),
    errors: String(summary.totals.ERROR),
    "nightly-exit-code": String(summary.exitCode),
    dir,
    "summary-json": path.join(dir, reporterFor("json").file),
    "summary-md": path.join(dir, reporterFor("md").file),
    junit: path.join(dir, reporterFor("junit").file),
    html: path.join(dir, reporterFor("html").file),
    packs: String(packed.length),
  };
}
