// `report --format issue`: one run as Markdown to paste into a bug tracker — release, platform, verdict, each finding
// with its diff and the timeline around it, the command that reproduces it, and the scenario's source, collapsed.
import fs from "node:fs";
import { existsInside, readInside } from "../harness/run-files.ts";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "../core/errors.ts";
import type { Finding } from "../core/verdict.ts";
import { readRunRecord, type RunRecord } from "../harness/run-record.ts";
import { runLayout } from "../harness/run-layout.ts";
import { givenParams } from "../kit/scenario-params.ts";
import { scenarioByName } from "../pipeline/scenario-registry.ts";
import { loadRunView } from "./run-view.ts";
import { anonymiseText, PLACEHOLDERS, realpath, replacementsFor, thisMachine } from "./anonymise.ts";

const MAX_DIFF_LINES = 60;
const MAX_TIMELINE_LINES = 80;

// A fence longer than any backtick run inside, so a diff or a source file cannot close it early.
function fenced(text: string, language = ""): string[] {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return [`${fence}${language}`, text.replace(/\n$/, ""), fence];
}

// Free text outside code blocks: trackers drop what looks like an HTML tag, e.g. <task-notification>.
const prose = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");

function sourceOf(runDir: string, record: RunRecord): { shown: string; text: string | null; word: string } {
  if (record.source?.kind === "file") {
    const copy = path.join(runDir, record.source.copy);
    return { shown: `${path.basename(record.source.path)} (sha256 ${record.source.sha256})`, text: existsInside(runDir, copy) ? readInside(runDir, copy, "utf8") : null, word: `./${path.basename(record.source.path)}` };
  }
  const builtin = fileURLToPath(new URL(`../scenarios/${record.scenario}.ts`, import.meta.url));
  return { shown: `built-in \`${record.scenario}\` (ccrepro's scenarios/${record.scenario}.ts)`, text: fs.existsSync(builtin) ? fs.readFileSync(builtin, "utf8") : null, word: record.scenario };
}

// The exact command: the scenario as the user would name it, the release, and the parameters that differ from defaults.
export function reproduceCommand(record: RunRecord, scenarioWord: string): string {
  const version = record.claude.reportedVersion ?? record.claude.requested;
  const params = Object.entries(givenParams(scenarioByName(record.scenario), record.params)).map(([key, value]) => ` --param ${key}=${String(value)}`);
  return `ccrepro run ${scenarioWord} --claude ${version}${params.join("")}`;
}

function findingLines(f: Finding): string[] {
  const out = [`#### ${f.red ? "✗" : "·"} \`${f.id}\`${f.red ? "" : " (informational)"}: ${prose(f.title)}`, "", `at ${prose(f.where)}`, ""];
  if (f.detail.length > 0) out.push(...fenced(f.detail.join("\n")), "");
  if (f.diff) {
    const lines = f.diff.split("\n");
    const shown = lines.slice(0, MAX_DIFF_LINES).join("\n");
    out.push(...fenced(lines.length > MAX_DIFF_LINES ? `${shown}\n… ${lines.length - MAX_DIFF_LINES} more lines (ccrepro check --json shows all)` : shown, "diff"), "");
  }
  return out;
}

// Raw terminal escapes (colours, cursor moves: claude's own output quoted in findings) and other control characters
// would reach the tracker as garbage or hide text; tabs and newlines stay.
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
export function withoutControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(ANSI, "").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "");
}

export function renderIssue(target: string): string {
  const runDir = path.resolve(target);
  const layout = runLayout(runDir);
  if (!fs.existsSync(layout.runJson)) throw new UserError(`${runDir} is not a run directory (no run.json); --format issue renders one run, pass a directory written by ccrepro run`, "BAD_REPORT_TARGET");
  let record: RunRecord;
  try {
    record = readRunRecord(layout.runJson);
  } catch (error) {
    throw new UserError(`cannot read ${layout.runJson}: ${(error as Error).message}`, "BAD_RUN_DIR");
  }
  const result = record.result;
  if (!result) throw new UserError(`${runDir} has no verdict yet (the run did not finish); run ccrepro check ${runDir} first`, "BAD_RUN_DIR");
  const version = record.claude.reportedVersion ?? record.claude.requested;
  const source = sourceOf(runDir, record);
  const out = [
    `### ${record.scenario}: ${result.verdict} on Claude Code ${version}`,
    "",
    `**Verdict:** ${result.verdict} — ${prose(result.reason)}`,
    "",
    "| | |",
    "| --- | --- |",
    `| release | ${version} (${record.claude.era}), sha256 \`${record.claude.sha256}\` |`,
    `| platform | ${record.platform ?? "not recorded"} |`,
    `| scenario | ${source.shown} |`,
    `| recorded | ${record.startedAt} |`,
    "",
    "**Reproduce** (from the folder holding the scenario file, with ccrepro installed or linked):",
    "",
    ...fenced(reproduceCommand(record, source.word), "sh"),
    "",
  ];
  if (result.findings.length > 0) out.push("**Findings**", "", ...result.findings.flatMap(findingLines));
  // Steps that timed out, allowed or not, beside the verdict they bear on (issue 42).
  const timedOut = record.steps.filter((s) => s.outcome === "timeout");
  if (timedOut.length > 0 || record.stepsSkipped.length > 0) {
    out.push(
      "**Steps that did not finish**",
      "",
      ...timedOut.map((s) => `- step ${s.index + 1} (${s.label}) timed out${s.mayTimeOut ? ", as the scenario allows" : ""}: ${prose(s.detail ?? "no detail")}`),
      ...(record.stepsSkipped.length > 0 ? [`- never ran: ${record.stepsSkipped.join(", ")}`] : []),
      "",
    );
  }
  const view = loadRunView(runDir);
  if (!("missing" in view)) {
    for (const session of view.sessions) {
      const lines = session.lines.length > MAX_TIMELINE_LINES ? [...session.lines.slice(0, MAX_TIMELINE_LINES), `… ${session.lines.length - MAX_TIMELINE_LINES} more lines`] : session.lines;
      out.push(`<details><summary>Timeline of session ${session.label}</summary>`, "", ...fenced(lines.join("\n")), "", "</details>", "");
    }
  }
  // The text goes to a public tracker: this machine's paths in what ccrepro wrote (findings, timelines; the run
  // directory's own first) become placeholders. The scenario's source stays as written, beside its sha256.
  const paths = thisMachine();
  paths.add("run", runDir);
  paths.add("run", realpath(runDir));
  const body = anonymiseText(out.join("\n"), replacementsFor(paths));
  const sourceBlock = source.text === null ? [] : [`<details><summary>Scenario source</summary>`, "", ...fenced(source.text, "ts"), "", "</details>", ""];
  const shown = path.relative(process.cwd(), runDir);
  const named = shown !== "" && !shown.startsWith("..") && !path.isAbsolute(shown) ? shown : path.basename(runDir);
  const where = body.includes(PLACEHOLDERS.run) ? ` (${PLACEHOLDERS.run} above)` : "";
  const footer = `Run directory: \`${named}\`${where} — \`ccrepro pack\` on it writes a tarball to attach (paths and environment values removed).`;
  return `${withoutControls([body, ...sourceBlock, footer].join("\n"))}\n`;
}
