// How a clean run becomes an outcome: its verdict, or with --finding ID whether that finding was seen.
import type { CleanRun, BisectOutcome } from "./types.ts";

export function outcomeFor(finding?: string): (run: CleanRun) => BisectOutcome {
  if (finding === undefined) return (run) => run.verdict;
  return (run) => {
    if (run.findings.includes(finding)) return `has:${finding}`;
    // A run that did not reach its point cannot show a finding is absent, so it matches neither class.
    if (run.verdict === "INCONCLUSIVE") return "INCONCLUSIVE";
    return `lacks:${finding}`;
  };
}
