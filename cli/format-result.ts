// The human output of a verdict: one headline, the reason, then each finding in a few lines with its diff.
import type { CheckResult } from "../core/verdict.ts";

const MAX_DIFF_LINES = 40;

export function formatCheckResult(result: CheckResult, runDir?: string): string {
  const lines = [`${result.verdict}: ${result.reason}`];
  if (runDir) lines.push(`  run: ${runDir}`);
  // ERROR says the harness, not the binary, failed: where to look before trusting a re-run.
  if (result.verdict === "ERROR" && runDir) {
    lines.push("  look at run.json (steps), sessions/*/stderr.log and sessions/*/debug.log there; ccrepro check re-judges it");
  }
  if (result.verdict === "UNSUPPORTED") {
    lines.push("  the scenario did not run: `ccrepro scenarios --claude VERSION` lists what that release supports");
  }
  for (const note of result.notes) lines.push(`  ${note}`);
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
