// Fake runners built from outcome tables: what each release's runs report, in order. No processes, no claude.
import type { Verdict } from "../../core/verdict.ts";
import type { ProgressEvent, RunnerReport } from "../../bisect/types.ts";
import { outcomeFor } from "../../bisect/outcome.ts";
import { runBisect, type RunBisectOptions } from "../../bisect/run-bisect.ts";

// One run's report: a verdict (with the finding ids it carried), or a failure to install / run at all.
export type Cell = Verdict | { verdict: Verdict; findings: string[] } | "install-fails" | "harness-fails";

// A release's runs: one cell for every run, or a list read in order (repeats).
export type Table = Record<string, Cell | Cell[]>;

export const OLD = "2.0.0";
export const NEW = "3.0.0";
export const candidates = (n: number): string[] => Array.from({ length: n }, (_, i) => `2.1.${i}`);

// Endpoints GREEN, candidates before index `t` GREEN, from `t` on RED, with `overrides` on top.
export function monotone(list: string[], t: number, overrides: Table = {}): Table {
  const table: Table = { [OLD]: "GREEN", [NEW]: "RED" };
  list.forEach((version, i) => (table[version] = i < t ? "GREEN" : "RED"));
  return { ...table, ...overrides };
}

export function tableRunner(table: Table) {
  const calls: string[] = [];
  const runOnce = async (version: string): Promise<RunnerReport> => {
    const row = table[version];
    if (row === undefined) throw new Error(`test table has no row for ${version}`);
    const nth = calls.filter((v) => v === version).length;
    calls.push(version);
    const cell = Array.isArray(row) ? row[nth] : row;
    if (cell === undefined) throw new Error(`test table has no run ${nth + 1} for ${version}`);
    const runDir = `runs/${version}-${nth + 1}`;
    if (cell === "install-fails") return { error: "install", message: `no package for ${version}` };
    if (cell === "harness-fails") return { error: "harness", message: "mock did not start", runDir };
    const { verdict, findings } = typeof cell === "string" ? { verdict: cell, findings: [] } : cell;
    return { verdict, findings, runDir, ms: 1000 };
  };
  return { runOnce, calls };
}

// A whole bisection of OLD → NEW over `list`, every run answered from `table`: its result, the runs made, the events.
export function bisectTable(table: Table, list: string[], extra: Partial<RunBisectOptions> = {}) {
  const runner = tableRunner(table);
  const events: ProgressEvent[] = [];
  const result = runBisect({
    scenario: "demo",
    old: OLD,
    new: NEW,
    candidates: list,
    outcomeOf: outcomeFor(extra.finding),
    runOnce: runner.runOnce,
    onProgress: (event) => events.push(event),
    ...extra,
  });
  return { result, calls: runner.calls, events };
}
