// The human rendering of a bisection: one line per progress event, and the closing summary.
import { stepsFor } from "./bisector.ts";
import type { BisectResult, ProgressEvent, SkipReason, BisectStep } from "./types.ts";

function formatMs(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function formatBytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

export function describeSkip(reason: SkipReason): string {
  switch (reason.kind) {
    case "install":
      return `cannot install: ${reason.message}`;
    case "harness":
      return `harness error: ${reason.message}`;
    case "unsupported":
      return `unsupported: ${reason.message}`;
    case "flaky":
      return `flaky: repeats disagree (${reason.outcomes.join(", ")})`;
    case "neither":
      return `outcome ${reason.outcome} matches neither endpoint`;
  }
}

const label = (role: BisectStep["role"], version: string): string =>
  role === "candidate" ? version : `${version} (${role})`;

export function formatProgress(event: ProgressEvent): string {
  switch (event.kind) {
    case "start":
      return `step ${event.index}/≈${event.estimatedTotal}: running ${label(event.role, event.version)} …`;
    case "step":
      return `step ${event.index}/≈${event.estimatedTotal}: ${label(event.role, event.version)} → ${event.outcome} (${formatMs(event.ms)})`;
    case "download":
      return `  downloaded ${event.version} (${formatBytes(event.bytes)} in ${formatMs(event.ms)})`;
    case "skip":
      return `  skipping ${event.version}: ${describeSkip(event.reason)}`;
  }
}

// Columns padded to their widest cell; the last column is left ragged.
function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  return rows.map((row) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!))).join("  ").trimEnd());
}

function stepRow(step: BisectStep): string[] {
  const outcomes = step.runs.map((run) => run.outcome).join(", ");
  // Skip reasons get their own list below the table; a cell only says which way the step went.
  const judged = "class" in step.judged ? step.judged.class : "skipped";
  const dirs = step.runs.flatMap((run) => (run.runDir === undefined ? [] : [run.runDir])).join(" ");
  return [String(step.index), step.version, step.role, outcomes, judged, formatMs(step.ms), dirs];
}

export function formatSummary(result: BisectResult): string {
  const { answer, budget, download, changelog } = result;
  const on = result.finding === undefined ? "" : ` on finding ${result.finding}`;
  const lines = [
    `bisect ${result.scenario}${on}: ${result.old.version} → ${result.old.outcome} (old), ${result.new.version} → ${result.new.outcome} (new)`,
  ];
  if (answer.skippedBetween.length === 0) {
    lines.push(`first new release: ${answer.firstNew} (last old: ${answer.lastOld})`);
  } else {
    lines.push(
      `ambiguous: the change is in one of ${[...answer.skippedBetween, answer.firstNew].join(", ")} ` +
        `(last old: ${answer.lastOld}); only skipped releases lie between ${answer.lastOld} and ${answer.firstNew}`,
    );
  }
  lines.push(changelog.note);
  for (const entry of changelog.entries) {
    lines.push(`  ${entry.version}  ${entry.url}${entry.found === false ? "  (no entry)" : ""}`);
  }
  lines.push("steps:");
  const header = ["#", "version", "role", "outcome(s)", "class", "time", "run dirs"];
  lines.push(...table([header, ...result.steps.map(stepRow)]).map((line) => `  ${line}`));
  if (result.skipped.length > 0) {
    lines.push("skipped:");
    for (const skip of result.skipped) lines.push(`  ${skip.version}: ${describeSkip(skip.reason)}`);
  }
  const repeats = result.repeat > 1 ? ` (--repeat ${result.repeat})` : "";
  lines.push(
    `${budget.steps} steps of at most ${budget.bound} (⌈log2(${budget.candidates}+1)⌉ = ${stepsFor(budget.candidates)}, ` +
      `+ ${result.skipped.length} skipped, + 2 endpoints); ${budget.runs} runs${repeats}`,
  );
  if (download.fetched.length > 0) {
    const unused = download.unused.length === 0 ? "" : `; fetched but not needed: ${download.unused.join(", ")}`;
    lines.push(
      `downloads: ${download.fetched.length} fetched, ${formatMs(download.hiddenMs)} hidden behind runs, ` +
        `${formatMs(download.waitedMs)} waited${unused}`,
    );
  }
  return lines.join("\n");
}
