// What an atlas run changed in the atlas it extended: per entry, the boundaries it gained or lost and each release
// whose state (measured or assumed) is now another, so a nightly that extends the atlas to new releases says what
// moved instead of leaving a reader to diff two atlas.json files.
import { boundaryLine, sameVariant, type AtlasEntry, type AtlasFile } from "./atlas-file.ts";

/** One change, of one entry (`entry` names its variant for a reader), between the atlas before a run and after it. */
export type AtlasChange = { scenario: string; entry: string } & (
  | { kind: "new-entry"; releases: number }
  | { kind: "boundary-added" | "boundary-gone"; boundary: string }
  // A release both atlases cover whose state is now another (a verify pick that disagreed, or a re-measured cell).
  | { kind: "state-changed"; release: string; before: string; after: string }
  // Releases the run added to the entry's range, with the states they have.
  | { kind: "releases-added"; first: string; last: string; count: number; states: string[] }
);

const entryName = (entry: Pick<AtlasEntry, "scenario" | "params" | "driver" | "sdk">) =>
  [entry.scenario, Object.keys(entry.params).length > 0 ? JSON.stringify(entry.params) : "", entry.driver, entry.sdk ? `sdk ${entry.sdk}` : ""].filter(Boolean).join(" ");

// Every release of the entry with the state of the interval holding it; "unknown" stretches say nothing.
function stateByRelease(entry: AtlasEntry): Map<string, string> {
  const states = new Map<string, string>();
  for (const interval of entry.intervals) {
    if (interval.state === "unknown") continue;
    for (const release of [...interval.measured, ...interval.assumed]) states.set(release, interval.state);
  }
  return states;
}

/** The changes from `before` (null: no atlas yet) to `after`, entry by entry in `after`'s order. */
export function atlasChanges(before: AtlasFile | null, after: AtlasFile): AtlasChange[] {
  return after.entries.flatMap((entry): AtlasChange[] => {
    const name = { scenario: entry.scenario, entry: entryName(entry) };
    const earlier = before?.entries.find((e) => sameVariant(e, entry));
    if (!earlier) return [{ kind: "new-entry", ...name, releases: entry.versions.length }];
    const was = new Set(earlier.boundaries.map(boundaryLine));
    const is = new Set(entry.boundaries.map(boundaryLine));
    const changes: AtlasChange[] = [
      ...[...is].filter((b) => !was.has(b)).map((boundary) => ({ kind: "boundary-added" as const, ...name, boundary })),
      ...[...was].filter((b) => !is.has(b)).map((boundary) => ({ kind: "boundary-gone" as const, ...name, boundary })),
    ];
    const statesBefore = stateByRelease(earlier);
    const statesAfter = stateByRelease(entry);
    for (const [release, state] of statesAfter) {
      const old = statesBefore.get(release);
      if (old !== undefined && old !== state) changes.push({ kind: "state-changed", ...name, release, before: old, after: state });
    }
    const covered = new Set(earlier.versions);
    const added = entry.versions.filter((v) => !covered.has(v));
    if (added.length > 0) {
      const states = [...new Set(added.map((v) => statesAfter.get(v) ?? "unknown"))];
      changes.push({ kind: "releases-added", ...name, first: added[0]!, last: added.at(-1)!, count: added.length, states });
    }
    return changes;
  });
}

/** One line a person reads for a change. */
export function atlasChangeLine(change: AtlasChange): string {
  switch (change.kind) {
    case "new-entry":
      return `${change.entry}: new in the atlas (${change.releases} release(s))`;
    case "boundary-added":
      return `${change.entry}: new boundary ${change.boundary}`;
    case "boundary-gone":
      return `${change.entry}: boundary gone ${change.boundary}`;
    case "state-changed":
      return `${change.entry}: ${change.release} was ${change.before}, now ${change.after}`;
    case "releases-added":
      return `${change.entry}: ${change.count} release(s) added, ${change.first}${change.count > 1 ? ` – ${change.last}` : ""}: ${change.states.join(", ")}`;
  }
}
