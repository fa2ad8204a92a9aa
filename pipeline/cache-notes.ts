// Adds the prompt-cache audit's notes to any scenario's result: informational, the verdict and findings stay as they are.
import { auditCache } from "../checker/cache-audit.ts";
import type { CheckResult } from "../core/verdict.ts";
import type { Recordings } from "../harness/recordings.ts";

export function withCacheNotes(result: CheckResult, rec: Recordings): CheckResult {
  let notes: string[];
  try {
    notes = auditCache(rec).notes;
  } catch (error) {
    // The audit is a bonus on top of the scenario's own check; a log it cannot read must not hide that check's verdict.
    notes = [`cache: not audited (${(error as Error).message})`];
  }
  // A scenario that reports the audit itself already carries these.
  const fresh = notes.filter((note) => !result.notes.includes(note));
  return { ...result, notes: [...result.notes, ...fresh] };
}
