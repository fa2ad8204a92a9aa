// Every expected way a bisection cannot give an answer, as one error class the CLI catches in one place.
import { UserError, type ErrorCode } from "../core/errors.ts";
import { describeSkip } from "./format.ts";
import type { Endpoint, RunSkipReason, SkippedVersion, BisectStep, BisectStop } from "./types.ts";

export type BisectErrorDetail =
  | { kind: "bad-input"; message: string }
  | { kind: "same-outcome"; old: Endpoint; new: Endpoint }
  // An endpoint that cannot be installed, errors, or is flaky gives no class to bisect against.
  | { kind: "endpoint-broken"; endpoint: "old" | "new"; version: string; reason: RunSkipReason }
  // Ctrl-C or a runner failure mid-way: what was learned, and the command that carries on from there.
  | {
      kind: "interrupted";
      reason: string;
      lastOld: string;
      firstNew: string;
      steps: BisectStep[];
      skipped: SkippedVersion[];
      resume: string;
    }
  // --max-runs reached before the answer: not a failure, a stop the user asked for; the CLI prints it as a result.
  | ({ kind: "budget-spent" } & BisectStop);

function describe(detail: BisectErrorDetail): string {
  switch (detail.kind) {
    case "bad-input":
      return detail.message;
    case "same-outcome":
      return (
        `both endpoints give the same outcome: ${detail.old.version} → ${detail.old.outcome}, ` +
        `${detail.new.version} → ${detail.new.outcome}; there is no change to find between them. ` +
        `Widen the range, or bisect on one finding with --finding ID.`
      );
    case "endpoint-broken":
      return (
        `cannot bisect from the ${detail.endpoint} endpoint ${detail.version}: ${describeSkip(detail.reason)}. ` +
        `Pick another --${detail.endpoint} release` +
        (detail.reason.kind === "flaky"
          ? " or raise --repeat to see how often it flips."
          : detail.reason.kind === "unjudged"
            ? ": an end must be judged (GREEN or RED), since a release that cannot reach the scenario's point is on neither side."
            : ".")
      );
    case "interrupted": {
      const skipped = detail.skipped.length === 0 ? "" : ` (skipped so far: ${detail.skipped.map((s) => s.version).join(", ")})`;
      return (
        `bisect interrupted after ${detail.steps.length} step(s): ${detail.reason}. ` +
        `Range still to search: ${detail.lastOld} … ${detail.firstNew}${skipped}. Resume with:\n  ${detail.resume}`
      );
    }
    case "budget-spent":
      return (
        `bisect stopped after ${detail.steps.length} step(s): --max-runs ${detail.maxRuns} spent. ` +
        `Range still to search: ${detail.lastOld} … ${detail.firstNew}. Resume with:\n  ${detail.resume}`
      );
  }
}

const BISECT_CODES = {
  "bad-input": "BISECT_BAD_INPUT",
  "same-outcome": "BISECT_SAME_OUTCOME",
  "endpoint-broken": "BISECT_ENDPOINT_BROKEN",
  interrupted: "BISECT_INTERRUPTED",
  "budget-spent": "BISECT_BUDGET_SPENT",
} as const satisfies Record<BisectErrorDetail["kind"], ErrorCode>;

export class BisectError extends UserError {
  override readonly name = "BisectError";

  constructor(
    readonly detail: BisectErrorDetail,
    options?: { cause?: unknown },
  ) {
    super(describe(detail), BISECT_CODES[detail.kind], options);
  }
}
