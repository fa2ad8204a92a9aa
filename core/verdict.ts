// Verdicts and findings: the closed vocabulary every checker, report, bisect and nightly speaks.
import { z } from "zod";

// UNSUPPORTED: the release lacks something the scenario needs (a flag, a tool, a hook event), decided from a probe of
// the binary without running the scenario. It says nothing about the bug, so it is neither ERROR nor INCONCLUSIVE.
export const VERDICTS = ["GREEN", "RED", "INCONCLUSIVE", "ERROR", "UNSUPPORTED"] as const;
export const verdictSchema = z.enum(VERDICTS);
export type Verdict = z.infer<typeof verdictSchema>;

export const findingSchema = z.object({
  // A stable identifier a person can pass to `bisect --finding` or put in an expectations ledger.
  id: z.string(),
  // True when this finding makes the scenario RED; informational findings are reported but do not.
  red: z.boolean(),
  title: z.string(),
  // Where it was seen: a boundary, request numbers, stdout lines.
  where: z.string(),
  // Free-form detail lines for the human output (aligned timelines, byte deltas).
  detail: z.array(z.string()).default([]),
  // A unified diff, when the finding is a changed byte range.
  diff: z.string().optional(),
  data: z.record(z.string(), z.unknown()).default({}),
});
export type Finding = z.infer<typeof findingSchema>;
export type FindingInput = z.input<typeof findingSchema>;

// GREEN or RED: a verdict that judged the release. INCONCLUSIVE, ERROR and UNSUPPORTED judge nothing, and so are never a
// side of a boundary (bisect, sweep, atlas), as git bisect skips such a release. A flaky result counts as judged: its
// runs did judge, and disagreed.
export const judgedVerdict = (verdict: Verdict): boolean => verdict === "GREEN" || verdict === "RED";
export const judgedRelease = (result: { verdict: Verdict; flaky?: boolean }): boolean => judgedVerdict(result.verdict) || result.flaky === true;

export const checkResultSchema = z.object({
  verdict: verdictSchema,
  // Why: for INCONCLUSIVE the point the run did not reach, for ERROR the harness failure, else a one-line summary.
  reason: z.string(),
  findings: z.array(findingSchema),
  // What the checker compared, for the human output (boundaries, counts).
  notes: z.array(z.string()).default([]),
});
export type CheckResult = z.infer<typeof checkResultSchema>;

export function finding(input: FindingInput): Finding {
  return findingSchema.parse(input);
}

// Whether a run got to the point a scenario tests; when not, what it missed.
export type Reached = { ok: true } | { ok: false; reason: string };

// What every checker returns, so any of them can be handed to judge() as it is or combined with others.
export interface CheckerOutput {
  reached: Reached;
  findings: Finding[];
  // What the checker compared, for the human output.
  notes: string[];
}

// A scenario's verdict from its findings. RED needs evidence, and a red finding is that evidence even when a later
// point of the scenario was not reached (the bug showed before it). Without evidence either way the verdict is
// INCONCLUSIVE, and GREEN only once the point was reached.
export function judge({ reached, findings, notes }: CheckerOutput): CheckResult {
  const red = findings.filter((f) => f.red);
  if (red.length > 0) {
    return { verdict: "RED", reason: red.map((f) => f.id).join(", "), findings, notes };
  }
  if (!reached.ok) return { verdict: "INCONCLUSIVE", reason: reached.reason, findings, notes };
  return { verdict: "GREEN", reason: "reached its point and everything held", findings, notes };
}

// What the run itself says about its verdict, beside the scenario's check (pipeline/verdict-rules.ts gathers it).
export interface RunEvidence {
  // Whether the run got through its plan: a wait or a `-p` turn that timed out, or steps that never ran, leave it short.
  reached: Reached;
  // Evidence of a bug no scenario's check looks for (the requests the real API would have rejected).
  findings: Finding[];
  // What the run allowed and a reader must see beside the verdict (a timeout the scenario said may happen).
  notes: string[];
}

// The verdict of a run: the scenario's judged check and the run's own evidence, through judge() once. A run short of
// its plan is not GREEN however its check judged (RED stays RED: the bug showed before the plan fell short); the
// API's rejections make it RED; a harness failure or an unsupported release stays as it is.
export function judgeRun(check: CheckResult, run: RunEvidence): CheckResult {
  if (check.verdict === "ERROR" || check.verdict === "UNSUPPORTED") return check;
  if (run.reached.ok && run.findings.length === 0 && run.notes.length === 0) return check;
  const findings = [...check.findings, ...run.findings];
  const notes = [...check.notes, ...run.notes];
  // A RED stands as the check gave it (a file that judged itself may give RED with no red finding listed); the run's
  // evidence only adds to it.
  if (check.verdict === "RED") {
    const added = run.findings.filter((f) => f.red).map((f) => f.id).filter((id) => !check.reason.split(", ").includes(id));
    return { ...check, reason: [check.reason, ...new Set(added)].join(", "), findings, notes };
  }
  const byCheck: Reached = check.verdict === "INCONCLUSIVE" ? { ok: false, reason: check.reason } : { ok: true };
  // The check's own words for a point it saw missed are the more telling; the run's, where the check saw none.
  const judged = judge({ reached: byCheck.ok ? run.reached : byCheck, findings, notes });
  // A GREEN that only gained notes keeps the check's reason.
  return judged.verdict === "GREEN" && check.verdict === "GREEN" ? { ...judged, reason: check.reason } : judged;
}
