// `advise` from an atlas: the newest release (and the newest of each minor line) on which none of the named
// scenarios is RED, and what the user's current release carries that the advised one does not.
import semver from "semver";
import { UserError } from "../core/errors.ts";
import type { AtlasEntry, AtlasFile, AtlasInterval } from "./atlas-file.ts";

export interface ReleaseState {
  scenario: string;
  params: Record<string, unknown>;
  // The driver the entry was measured with, and the Agent SDK release where it is the SDK's: the same parameters
  // through headless and through the SDK are two rows.
  driver: string;
  sdk: string | null;
  // null: the entry's range does not reach the release, or its state there is unknown.
  interval: AtlasInterval | null;
}

export interface Carried {
  scenario: string;
  params: Record<string, unknown>;
  driver: string;
  sdk: string | null;
  // Red findings the current release has and the advised one lacks (the whole RED state when the advised is not RED).
  red: string[];
  state: string;
}

export interface Advice {
  avoid: string[];
  // Releases on the common axis that every avoided entry covers.
  considered: number;
  newest: string | null;
  byMinor: { line: string; newest: string }[];
  current: { version: string; carries: Carried[]; states: ReleaseState[] } | null;
}

function intervalAt(entry: AtlasEntry, version: string): AtlasInterval | null {
  const at = entry.versions.indexOf(version);
  if (at < 0) return null;
  const interval = entry.intervals.find((i) => entry.versions.indexOf(i.first) <= at && at <= entry.versions.indexOf(i.last));
  return interval && interval.state !== "unknown" ? interval : null;
}

// RED, or flaky with a red rate: a release the user would trip on.
const isRed = (interval: AtlasInterval) => interval.verdict === "RED" || (interval.flaky && interval.red.length > 0);

// `reproductions`: the scenarios that reproduce a reported bug; without --avoid only these are avoided, for a guard's
// RED is a regression check of ccrepro's own choosing, not a bug a user is told to steer around.
export function advise(atlas: AtlasFile, options: { avoid?: readonly string[]; current?: string; reproductions?: readonly string[] }): Advice {
  const names = [...new Set(atlas.entries.map((e) => e.scenario))];
  const avoid = options.avoid && options.avoid.length > 0 ? [...options.avoid] : names.filter((name) => !options.reproductions || options.reproductions.includes(name));
  const unknown = avoid.filter((name) => !names.includes(name));
  if (unknown.length > 0) throw new UserError(`the atlas has no entry for ${unknown.join(", ")} (it has ${names.join(", ") || "none"})`, "NOT_IN_ATLAS", { hint: "name only scenarios the atlas measured in --avoid, or extend the atlas with ccrepro atlas NAME --versions RANGE --out DIR" });
  const entries = atlas.entries.filter((e) => avoid.includes(e.scenario));
  const axis = [...new Set(entries.flatMap((e) => e.versions))].sort(semver.compare);
  // A release is vouched for only where every avoided entry knows its state: an unmeasured gap is not a clean bill.
  const states = (version: string) => entries.map((e) => ({ scenario: e.scenario, params: e.params, driver: e.driver, sdk: e.sdk, interval: intervalAt(e, version) }));
  const covered = axis.filter((v) => states(v).every((s) => s.interval !== null));
  const clean = covered.filter((v) => states(v).every((s) => !isRed(s.interval!)));
  const byMinor = new Map<string, string>();
  for (const v of clean) byMinor.set(`${semver.major(v)}.${semver.minor(v)}`, v);
  const newest = clean[clean.length - 1] ?? null;
  let current: Advice["current"] = null;
  if (options.current !== undefined) {
    if (!axis.includes(options.current)) throw new UserError(`--current ${options.current} is not in the atlas's releases (${axis[0]} – ${axis[axis.length - 1]})`, "NOT_IN_ATLAS", { hint: "pass a release inside that range, or widen the atlas to it with ccrepro atlas … --versions" });
    const now = states(options.current);
    const then = newest ? states(newest) : [];
    const carries = now.flatMap((s, i): Carried[] => {
      if (!s.interval || !isRed(s.interval)) return [];
      const advised = then[i]?.interval;
      const red = advised && isRed(advised) ? s.interval.red.filter((f) => !advised.red.includes(f)) : s.interval.red;
      return red.length > 0 || !advised || !isRed(advised) ? [{ scenario: s.scenario, params: s.params, driver: s.driver, sdk: s.sdk, red, state: s.interval.state }] : [];
    });
    current = { version: options.current, carries, states: now };
  }
  return { avoid, considered: covered.length, newest, byMinor: [...byMinor].map(([line, v]) => ({ line, newest: v })).sort((a, b) => semver.compare(`${b.line}.0`, `${a.line}.0`)), current };
}

export function formatAdvice(advice: Advice): string {
  const lines = [`avoiding RED on: ${advice.avoid.join(", ")} (${advice.considered} release(s) every one of them covers)`];
  lines.push(advice.newest ? `newest release with none of them RED: ${advice.newest}` : "no release in the atlas is free of them all");
  for (const { line, newest } of advice.byMinor) lines.push(`  ${line}.x: ${newest}`);
  if (advice.current) {
    const { version, carries } = advice.current;
    if (carries.length === 0) lines.push(`${version} carries nothing of these that ${advice.newest ?? "the advice"} does not`);
    else {
      lines.push(`${version} carries what ${advice.newest ?? "every release"} does not:`);
      for (const c of carries) lines.push(`  ${c.scenario}${Object.keys(c.params).length ? ` ${JSON.stringify(c.params)}` : ""}${c.driver === "headless" ? "" : ` (${c.driver}${c.sdk ? ` ${c.sdk}` : ""})`}: ${c.state}`);
    }
  }
  return lines.join("\n");
}
