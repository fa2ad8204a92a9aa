// What a check returns, built in one call each: a finding, and whether the run reached its point.
import type { FindingInput, Reached } from "../core/verdict.ts";

export type { Reached };

/** A finding as a check reports it: `red` defaults to whether its id is among the scenario's `findings`. */
export type CheckFinding = Omit<FindingInput, "red"> & { red?: boolean };

/**
 * A finding: a stable `id`, a `title` in the user's terms, `where` it was seen (request, line), and optional
 * `detail` lines, a `diff` and `data`. `red` defaults to whether the id is among the scenario's `findings`;
 * defineScenario validates it with the rest of the check's output.
 *
 * @example finding({ id: "write-not-blocked", title: "the hook denied the write, but the file exists", where: "sentinel.txt" })
 */
export const finding = (input: CheckFinding): CheckFinding => input;

/**
 * The run reached the point the scenario tests.
 *
 * @example return { reached: reached(), findings };
 */
export const reached = (): Reached => ({ ok: true });

/**
 * The run did not reach its point, and why: without a red finding the verdict is INCONCLUSIVE, never GREEN.
 *
 * @example return { reached: notReached("claude -p printed no result"), findings: [] };
 */
export const notReached = (reason: string): Reached => ({ ok: false, reason });
