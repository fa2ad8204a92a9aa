// Puts a summary together from finished cells: comparison, totals and exit code — the same for a nightly, a shard and a merge.
import { compareWithPrevious, nightlyExitCode } from "./compare.ts";
import { totalsOf } from "./cell-outcome.ts";
import type { Cell, Summary } from "./summary.ts";

export interface PreviousNightly {
  summary: Summary;
  // As the user will want to open it: the summary.json path.
  path: string;
}

export type SummaryParts = Pick<Summary, "kind" | "startedAt" | "endedAt" | "config" | "versionWords" | "releases" | "shard" | "mergedFrom"> & {
  cells: Cell[];
  previous: PreviousNightly | null;
};

export function assembleSummary(parts: SummaryParts): Summary {
  const { previous, cells } = parts;
  const changes = compareWithPrevious(cells, parts.releases, previous?.summary ?? null);
  return {
    format: 1,
    kind: parts.kind,
    startedAt: parts.startedAt,
    endedAt: parts.endedAt,
    wallMs: Date.parse(parts.endedAt) - Date.parse(parts.startedAt),
    config: parts.config,
    versionWords: parts.versionWords,
    releases: parts.releases,
    shard: parts.shard,
    mergedFrom: parts.mergedFrom,
    cells,
    previous: previous ? { path: previous.path, startedAt: previous.summary.startedAt } : null,
    changes,
    totals: totalsOf(cells),
    exitCode: nightlyExitCode(cells, changes),
  };
}
