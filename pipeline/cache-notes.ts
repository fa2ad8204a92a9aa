// Adds the prompt-cache audit's notes to any scenario's result: informational, the verdict and findings stay as they are.
import { auditCache, type CacheAudit } from "../checker/cache-audit.ts";
import type { CheckResult } from "../core/verdict.ts";
import type { Recordings } from "../harness/recordings.ts";

// A result with the audit its notes came from, so the text output can fold them (null: not audited).
export interface AuditedResult {
  result: CheckResult;
  cache: CacheAudit | null;
}

export function withCacheAudit(result: CheckResult, rec: Recordings): AuditedResult {
  let cache: CacheAudit | null = null;
  let notes: string[];
  try {
    cache = auditCache(rec);
    notes = cache.notes;
  } catch (error) {
    // The audit is a bonus on top of the scenario's own check; a log it cannot read must not hide that check's verdict.
    notes = [`cache: not audited (${(error as Error).message})`];
  }
  // A scenario that reports the audit itself already carries these.
  const fresh = notes.filter((note) => !result.notes.includes(note));
  return { result: { ...result, notes: [...result.notes, ...fresh] }, cache };
}

