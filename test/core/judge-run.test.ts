// judgeRun, the one verdict function (issue 42, item 4): the scenario's judged check with the run's own evidence.
// Hand-made results, including a RED with no red finding listed (a file that judged itself) and a GREEN with its own
// reason, against a run that timed out, one whose timeout was allowed, and one the API rejected.
import { describe, expect, it } from "vitest";
import { finding, judgeRun, type CheckResult, type RunEvidence } from "../../core/verdict.ts";

const allowed: RunEvidence = { reached: { ok: true }, findings: [], notes: ["step 3 (watch) timed out, as the scenario allows: not seen within 20000 ms"] };
const cut: RunEvidence = { reached: { ok: false, reason: "step 3 (wait) timed out: not reached within 20000 ms" }, findings: [], notes: [] };
const rejected: RunEvidence = { reached: { ok: true }, findings: [finding({ id: "request-rejected-by-api", red: true, title: "t", where: "w" })], notes: [] };
const red: CheckResult = { verdict: "RED", reason: "turn-dropped", findings: [], notes: [] };
const green: CheckResult = { verdict: "GREEN", reason: "resumed with its history", findings: [], notes: ["n"] };

describe("judgeRun", () => {
  it("keeps a RED as the check gave it, whatever the run adds", () => {
    expect(judgeRun(red, allowed)).toMatchObject({ verdict: "RED", reason: "turn-dropped", notes: allowed.notes });
    expect(judgeRun(red, cut)).toMatchObject({ verdict: "RED", reason: "turn-dropped" });
    expect(judgeRun(red, rejected)).toMatchObject({ verdict: "RED", reason: "turn-dropped, request-rejected-by-api" });
  });

  it("makes a GREEN INCONCLUSIVE when the run fell short, RED when the API rejected a request, and keeps its reason otherwise", () => {
    expect(judgeRun(green, cut)).toMatchObject({ verdict: "INCONCLUSIVE", reason: cut.reached.ok ? "" : cut.reached.reason });
    expect(judgeRun(green, rejected)).toMatchObject({ verdict: "RED", reason: "request-rejected-by-api" });
    expect(judgeRun(green, allowed)).toEqual({ ...green, notes: ["n", ...allowed.notes] });
  });

  it("leaves ERROR and UNSUPPORTED alone, and a result with nothing added untouched", () => {
    const error: CheckResult = { verdict: "ERROR", reason: "mock failed", findings: [], notes: [] };
    expect(judgeRun(error, rejected)).toBe(error);
    expect(judgeRun(green, { reached: { ok: true }, findings: [], notes: [] })).toBe(green);
  });
});
