// The human output of a verdict: one headline, the reason, then each finding in a few lines with its diff.
import { BOUNDARY_NAMES, CAUSE_NAMES, type BoundaryCause, type BoundaryKind } from "../checker/boundaries.ts";
import type { BoundaryCost, CacheAudit, StreamAudit } from "../checker/cache-audit.ts";
import type { CheckResult } from "../core/verdict.ts";
import type { Recheck } from "../pipeline/recheck-run.ts";
import type { Confinement } from "../pipeline/confined-check.ts";

const MAX_DIFF_LINES = 40;
// Costly boundaries named one by one in a folded cache line; the rest are counted.
const MAX_COSTLY_NAMED = 3;

export interface FormatOptions {
  // The cache audit the result's notes came from: its notes are folded to one line per stream (--json keeps them all).
  cache?: CacheAudit | null;
  // Lines after the run's line: where the check came from, warnings.
  context?: readonly string[];
}

export function formatCheckResult(result: CheckResult, runDir?: string, options: FormatOptions = {}): string {
  const lines = [`${result.verdict}: ${result.reason}`];
  if (runDir) lines.push(`  run: ${runDir}`);
  for (const line of options.context ?? []) lines.push(`  ${line}`);
  // ERROR says the harness, not the binary, failed: where to look before trusting a re-run.
  if (result.verdict === "ERROR" && runDir) {
    lines.push("  look at run.json (steps), sessions/*/stderr.log and sessions/*/debug.log there; ccrepro check re-judges it");
  }
  if (result.verdict === "UNSUPPORTED") {
    lines.push("  the scenario did not run: `ccrepro scenarios --claude VERSION` lists what that release supports");
  }
  for (const note of foldCacheNotes(result.notes, options.cache ?? null)) lines.push(`  ${note}`);
  for (const finding of result.findings) {
    lines.push(`  ${finding.red ? "✗" : "·"} ${finding.id} — ${finding.title}`, `      at ${finding.where}`);
    for (const detail of finding.detail) lines.push(`      ${detail}`);
    if (finding.diff) {
      const diff = finding.diff.split("\n");
      for (const line of diff.slice(0, MAX_DIFF_LINES)) lines.push(`      ${line}`);
      if (diff.length > MAX_DIFF_LINES) lines.push(`      … ${diff.length - MAX_DIFF_LINES} more diff lines (ccrepro check --json shows all)`);
    }
  }
  return lines.join("\n");
}

// `ccrepro check`: the verdict, where its check came from when that was a file, and any warning about it.
export function formatRecheck(recheck: Recheck, runDir: string): string {
  const context: string[] = [];
  const judged = recheck.judgedWith;
  if (judged?.kind === "file") {
    const same = judged.sha256 === judged.recordedSha256 ? ", the same source as the run's" : "";
    context.push(
      `check: from the scenario file ${judged.path} (sha256 ${judged.sha256}${same}), not from the run directory's copy ${judged.runCopy}`,
      `not written to run.json, which keeps the verdict the run was recorded with (${recheck.recordedVerdict ?? "none"})`,
    );
  }
  if (recheck.confinement) context.push(confinementLine(recheck.confinement));
  for (const warning of recheck.warnings) context.push(`⚠ warning: ${warning}`);
  return formatCheckResult(recheck.result, runDir, { cache: recheck.cache, context });
}

// Says how a file scenario's check ran: code from a run directory is never run with the user's rights unasked.
export function confinementLine(confinement: Confinement): string {
  if (confinement.kind === "trusted") return "ran: the scenario file's check with your rights (--trust), in a child process with a time limit";
  const network = confinement.network === "namespace" ? "a network namespace of its own" : "node's socket modules disabled";
  return `ran: the scenario file's check confined (Node's permission model: reads only ${confinement.readable.join(", ")}; no writes, no processes; network: ${network}); --trust runs it with your rights`;
}

// The same as JSON: the result as run.json would hold it, with every note, plus where the check came from when it was a
// file (`judgedWith`; with --scenario also `recordedVerdict`, run.json's own) and `warnings` when there are any.
export function recheckJson(recheck: Recheck): Record<string, unknown> {
  const judged = recheck.judgedWith;
  return {
    ...recheck.result,
    ...(judged && judged.kind !== "builtin" ? { judgedWith: judged } : {}),
    ...(judged?.kind === "file" ? { recordedVerdict: recheck.recordedVerdict } : {}),
    ...(recheck.warnings.length > 0 ? { warnings: recheck.warnings } : {}),
    ...(recheck.confinement ? { confinement: recheck.confinement } : {}),
  };
}

// Each stream's cache notes (its summary and a line per boundary) become one line where the first of them stood;
// every other note, and any note the audit did not write, is kept as it is.
export function foldCacheNotes(notes: readonly string[], cache: CacheAudit | null): string[] {
  if (!cache) return [...notes];
  const owner = new Map<string, StreamAudit>();
  for (const stream of cache.streams) for (const note of stream.notes) owner.set(note, stream);
  const folded = new Set<StreamAudit>();
  const out: string[] = [];
  for (const note of notes) {
    const stream = owner.get(note);
    if (!stream) out.push(note);
    else if (!folded.has(stream)) {
      folded.add(stream);
      out.push(streamLine(stream));
    }
  }
  return out;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

// "cache (main): 12 requests, 91% of estimated input tokens read from cache; 9 continuations (1 task notification,
// 8 prompts) read all 74231 readable tokens; 1 process resume (prompt) read all 8806; breakpoints: 4 placements …"
function streamLine(stream: StreamAudit): string {
  const distinct = [...new Set(stream.placements)];
  const parts = [`${plural(stream.requests.length, "request")}, ${pct(stream.reusedFraction)} of estimated input tokens read from cache`];
  for (const kind of ["resume", "stop"] as const satisfies readonly BoundaryKind[]) {
    const costs = stream.boundaries.filter((c) => c.boundary.kind === kind);
    if (costs.length > 0) parts.push(kindSummary(kind, costs));
  }
  parts.push(distinct.length === 1 ? `breakpoints: ${distinct[0] || "none"}` : `breakpoints: ${distinct.length} placements (--json lists them)`);
  return `cache (${stream.stream}): ${parts.join("; ")}`;
}

function kindSummary(kind: BoundaryKind, costs: readonly BoundaryCost[]): string {
  const byCause = new Map<BoundaryCause | null, number>();
  for (const c of costs) byCause.set(c.boundary.cause, (byCause.get(c.boundary.cause) ?? 0) + 1);
  const causes = [...byCause].map(([cause, n]) => (cause === null ? `${n} without a recorded body` : plural(n, CAUSE_NAMES[cause])));
  const name = `${plural(costs.length, BOUNDARY_NAMES[kind])} (${causes.join(", ")})`;
  const read = costs.reduce((sum, c) => sum + c.read, 0);
  const readable = costs.reduce((sum, c) => sum + c.readable, 0);
  const costly = costs.filter((c) => c.cost > 0);
  if (costly.length === 0) return `${name} read all ${readable} readable tokens`;
  const named = costly
    .slice(0, MAX_COSTLY_NAMED)
    .map((c) => `#${c.boundary.index} req ${c.boundary.before} → req ${c.boundary.after} costs ~${c.cost} tokens (${c.stop}${c.firstDifference ? ` at ${c.firstDifference}` : ""})`);
  const more = costly.length > MAX_COSTLY_NAMED ? `, ${costly.length - MAX_COSTLY_NAMED} more costly (--json lists them)` : "";
  return `${name} read ${read} of ${readable} readable tokens (${pct(read / readable)}): ${named.join(", ")}${more}`;
}
