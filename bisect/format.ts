// The human rendering of a bisection: one line per progress event, and the closing summary.
import { stepsFor } from "./bisector.ts";
import type { BisectResult, BisectStop, ProgressEvent, RunPlan, SkipReason, BisectStep } from "./types.ts";

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
    case "unjudged":
      return `INCONCLUSIVE, so neither side: ${reason.message}`;
    case "flaky":
      return `flaky: repeats disagree (${reason.outcomes.join(", ")})`;
    case "neither":
      return `outcome ${reason.outcome} matches neither endpoint`;
  }
}

const label = (role: BisectStep["role"], version: string): string =>
  role === "candidate" ? version : `${version} (${role})`;

const runs = (n: number): string => `${n} run${n === 1 ? "" : "s"}`;

// "at most 4 runs (2 endpoints + ⌈log2(2+1)⌉ = 2 of 2 candidates, 1 run each)", and with --reuse what it saves.
export function formatPlan(plan: RunPlan): string {
  const shape =
    `2 endpoints + ⌈log2(${plan.candidates}+1)⌉ = ${stepsFor(plan.candidates)} of ${plan.candidates} candidates, ` +
    `${runs(plan.repeat)} each; a skipped release adds its neighbour's`;
  if (plan.reusedRuns === 0) return `expecting at most ${runs(plan.atMost)} (${shape})`;
  return (
    `expecting at most ${runs(plan.atMost)}: --reuse settles ${plan.reusedReleases} of ${plan.candidates + 2} releases ` +
    `with ${runs(plan.reusedRuns)} measured earlier (${runs(plan.withoutReuse)} without it: ${shape})`
  );
}

// Where a step's verdict came from: "measured", "reused DIR", or both when reused runs were topped up to --repeat.
function provenance(reusedFrom: readonly string[], measured: number): string {
  if (reusedFrom.length === 0) return "measured";
  const from = `reused ${reusedFrom.join(" ")}`;
  return measured === 0 ? from : `${from} + ${runs(measured)} measured`;
}

export function formatProgress(event: ProgressEvent): string {
  switch (event.kind) {
    case "plan":
      return formatPlan(event);
    case "start":
      return event.reused
        ? `step ${event.index}/≈${event.estimatedTotal}: ${label(event.role, event.version)} from earlier runs …`
        : `step ${event.index}/≈${event.estimatedTotal}: running ${label(event.role, event.version)} …`;
    case "step": {
      const where = event.reusedFrom.length === 0 ? formatMs(event.ms) : `${formatMs(event.ms)}, ${provenance(event.reusedFrom, event.measured)}`;
      return `step ${event.index}/≈${event.estimatedTotal}: ${label(event.role, event.version)} → ${event.outcome} (${where})`;
    }
    case "download":
      return event.fromCache
        ? `  ${event.version} is cached (nothing to download)`
        : `  downloaded ${event.version} (${formatBytes(event.bytes)} in ${formatMs(event.ms)})`;
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
  const reused = step.runs.filter((run) => run.reused).length;
  const measured = step.runs.length - reused;
  const from = reused === 0 ? "measured" : measured === 0 ? "reused" : `${reused} reused + ${measured} measured`;
  return [String(step.index), step.version, step.role, outcomes, judged, from, formatMs(step.ms), dirs];
}

function stepsTable(steps: readonly BisectStep[]): string[] {
  const header = ["#", "version", "role", "outcome(s)", "class", "from", "time", "run dirs"];
  return table([header, ...steps.map(stepRow)]).map((line) => `  ${line}`);
}

// A bisection stopped by --max-runs: the range left, the steps so far, and the command that carries on.
export function formatStop(stop: BisectStop): string {
  return [
    `bisect stopped: --max-runs ${stop.maxRuns} spent before the answer`,
    `range still to search: ${stop.lastOld} (last old) … ${stop.firstNew} (first new so far)`,
    "steps:",
    ...stepsTable(stop.steps),
    ...(stop.skipped.length === 0 ? [] : ["skipped:", ...stop.skipped.map((s) => `  ${s.version}: ${describeSkip(s.reason)}`)]),
    "resume with (verdicts measured so far are reused, not run again):",
    `  ${stop.resume}`,
  ].join("\n");
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
  lines.push(...stepsTable(result.steps));
  if (result.skipped.length > 0) {
    lines.push("skipped:");
    for (const skip of result.skipped) lines.push(`  ${skip.version}: ${describeSkip(skip.reason)}`);
  }
  const repeats = result.repeat > 1 ? ` (--repeat ${result.repeat})` : "";
  lines.push(
    `${budget.steps} steps of at most ${budget.bound} (⌈log2(${budget.candidates}+1)⌉ = ${stepsFor(budget.candidates)}, ` +
      `+ ${result.skipped.length} skipped, + 2 endpoints); ${budget.runs} runs${repeats}` +
      (budget.reused === 0 ? "" : `, ${budget.reused} reused from earlier run directories`),
  );
  if (download.fetched.length > 0) {
    const unused = download.unused.length === 0 ? "" : `; fetched but not needed: ${download.unused.join(", ")}`;
    // A cache hit is no download: counted apart, so "fetched" says what came over the network.
    const cached = download.cached.length === 0 ? "" : `, ${download.cached.length} already cached`;
    lines.push(
      `downloads: ${download.fetched.length - download.cached.length} fetched${cached}, ${formatMs(download.hiddenMs)} hidden behind runs, ` +
        `${formatMs(download.waitedMs)} waited${unused}`,
    );
  }
  return lines.join("\n");
}
