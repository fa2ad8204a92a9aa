// How a clean run becomes an outcome: its verdict, or with --finding ID whether that finding was seen.
import type { CleanRun, BisectOutcome } from "./types.ts";

export function outcomeFor(finding?: string): (run: CleanRun) => BisectOutcome {
  if (finding === undefined) return (run) => run.verdict;
  return (run) => {
    // A run that did not reach its point judged nothing, even with the finding among its informational ones: it is
    // no side (run-bisect.ts skips it), whatever it saw.
    if (run.verdict === "INCONCLUSIVE") return "INCONCLUSIVE";
    return run.findings.includes(finding) ? `has:${finding}` : `lacks:${finding}`;
  };
}
