// Whether request B re-sends request A's prompt prefix (tools, system, A's messages) byte-identically, cache_control aside.
import {
  canonicalJson,
  findKey,
  formatPath,
  isJsonObject,
  mapStrings,
  valueAt,
  withoutKey,
  type Json,
  type PathKey,
} from "./json-value.ts";
import { normaliseAcrossRuns, type NormaliseContext } from "./cross-run-normalise.ts";
import type { MessagesBody } from "./request-body.ts";
import { unifiedDiff } from "./text-diff.ts";

export interface PrefixOptions {
  // Only when A and B come from two different runs: their harmless cross-run differences are blanked out.
  // Within one run the comparison is of raw bytes.
  acrossRuns?: NormaliseContext;
  // Applied to every string of both sides (before any normalising), to hide parts another comparison judges.
  mask?: (text: string) => string;
  // Names for the diff headers, e.g. "req 6" / "req 8".
  beforeLabel: string;
  afterLabel: string;
}

export interface PrefixDifference {
  // The top-level unit that differs: tools[3], system[2], messages[7].
  block: string;
  // The deepest path where the two sides part: tools[3].description, messages[7].content[0].text.
  path: string;
  beforeAbsent: boolean;
  afterAbsent: boolean;
  // UTF-8 sizes of the raw (un-normalised) values at `path`; delta = before − after.
  bytesBefore: number;
  bytesAfter: number;
  delta: number;
  // Of the values actually compared (masked, and normalised only across runs).
  diff: string;
}

export interface CacheControlMarker {
  // The object carrying the marker, e.g. messages[10].content[1].
  path: string;
  value: string;
}

export interface PrefixComparison {
  unitsCompared: number;
  difference: PrefixDifference | null;
  markersBefore: CacheControlMarker[];
  markersAfter: CacheControlMarker[];
  // Markers in the shared prefix that B added, removed or changed relative to A — except the rolling message marker.
  markerChanges: { added: CacheControlMarker[]; removed: CacheControlMarker[]; changed: { path: string; before: string; after: string }[] };
  // The client keeps its message breakpoint on the newest messages: A's message markers that B drops while B marks
  // one of its own new messages are that breakpoint moving forward, which is expected and costs no cache read.
  rolled: { from: CacheControlMarker[]; to: CacheControlMarker[] };
}

interface Unit {
  keys: PathKey[];
  before: Json | undefined;
  after: Json | undefined;
}

// In the order the API builds the prompt (tools, system, messages), so the first difference is the one that breaks the cache.
function sharedUnits(a: MessagesBody, b: MessagesBody): Unit[] {
  const indexed = (name: string, xs: readonly Json[] | undefined, ys: readonly Json[] | undefined, count: number): Unit[] =>
    Array.from({ length: count }, (_, i) => ({ keys: [name, i], before: xs?.[i], after: ys?.[i] }));
  const tools = indexed("tools", a.tools, b.tools, Math.max(a.tools?.length ?? 0, b.tools?.length ?? 0));
  const system =
    Array.isArray(a.system) && Array.isArray(b.system)
      ? indexed("system", a.system, b.system, Math.max(a.system.length, b.system.length))
      : a.system === undefined && b.system === undefined
        ? []
        : [{ keys: ["system"], before: a.system, after: b.system }];
  // B carries A's messages plus the reply to A and whatever followed; only A's messages are shared.
  const messages = indexed("messages", a.messages as Json[], b.messages as Json[], a.messages.length);
  return [...tools, ...system, ...messages];
}

// Descend only into objects of one kind: a text block that became a tool_use block is one difference, not a field's.
function sameShape(a: { [key: string]: Json }, b: { [key: string]: Json }): boolean {
  const keys = Object.keys(a).sort().join("\0");
  return keys === Object.keys(b).sort().join("\0") && a["type"] === b["type"] && a["role"] === b["role"];
}

function firstDifference(a: Json | undefined, b: Json | undefined, keys: PathKey[]): PathKey[] | null {
  if (a === undefined || b === undefined) return a === b ? null : keys;
  if (canonicalJson(a) === canonicalJson(b)) return null;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const found = firstDifference(a[i], b[i], [...keys, i]);
      if (found) return found;
    }
  } else if (isJsonObject(a) && isJsonObject(b) && sameShape(a, b)) {
    for (const key of Object.keys(a).sort()) {
      const found = firstDifference(a[key], b[key], [...keys, key]);
      if (found) return found;
    }
  }
  return keys;
}

// Strings diff as their own lines; anything else as indented canonical JSON, so the diff has lines to work with.
function asText(value: Json | undefined): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : canonicalJson(value, 2);
}

function markers(units: readonly Unit[], side: "before" | "after"): CacheControlMarker[] {
  return units.flatMap((u) => {
    const value = u[side];
    return value === undefined ? [] : findKey(value, "cache_control", u.keys).map((m) => ({ path: formatPath(m.keys), value: canonicalJson(m.value) }));
  });
}

export function comparePrefix(a: MessagesBody, b: MessagesBody, options: PrefixOptions): PrefixComparison {
  const units = sharedUnits(a, b);
  const mask = options.mask ?? ((text: string) => text);
  const prepare = (value: Json | undefined, keys: PathKey[]): Json | undefined =>
    value === undefined
      ? undefined
      : mapStrings(withoutKey(value, "cache_control"), keys, (text, at) =>
          options.acrossRuns ? normaliseAcrossRuns(mask(text), { ...options.acrossRuns, jsonPath: formatPath(at) }) : mask(text),
        );

  let difference: PrefixDifference | null = null;
  for (const unit of units) {
    const before = prepare(unit.before, unit.keys);
    const after = prepare(unit.after, unit.keys);
    const found = firstDifference(before, after, unit.keys);
    if (!found) continue;
    const inner = found.slice(unit.keys.length);
    const rawBefore = unit.before === undefined ? undefined : valueAt(withoutKey(unit.before, "cache_control"), inner);
    const rawAfter = unit.after === undefined ? undefined : valueAt(withoutKey(unit.after, "cache_control"), inner);
    const bytesBefore = Buffer.byteLength(asText(rawBefore));
    const bytesAfter = Buffer.byteLength(asText(rawAfter));
    const path = formatPath(found);
    difference = {
      block: formatPath(unit.keys),
      path,
      beforeAbsent: rawBefore === undefined,
      afterAbsent: rawAfter === undefined,
      bytesBefore,
      bytesAfter,
      delta: bytesBefore - bytesAfter,
      diff: unifiedDiff(asText(valueAt(before, inner)), asText(valueAt(after, inner)), {
        beforeName: path,
        afterName: path,
        beforeHeader: rawBefore === undefined ? `${options.beforeLabel} (absent)` : options.beforeLabel,
        afterHeader: rawAfter === undefined ? `${options.afterLabel} (absent)` : options.afterLabel,
      }),
    };
    break;
  }

  const markersBefore = markers(units, "before");
  const markersAfter = markers(units, "after");
  const afterByPath = new Map(markersAfter.map((m) => [m.path, m.value]));
  const beforeByPath = new Map(markersBefore.map((m) => [m.path, m.value]));
  const newMessages = (b.messages as Json[]).slice(a.messages.length);
  const rolledTo = newMessages.flatMap((m, i) => findKey(m, "cache_control", ["messages", a.messages.length + i]))
    .map((m) => ({ path: formatPath(m.keys), value: canonicalJson(m.value) }));
  const removed = markersBefore.filter((m) => !afterByPath.has(m.path));
  const rolledFrom = rolledTo.length > 0 ? removed.filter((m) => m.path.startsWith("messages[")) : [];
  return {
    unitsCompared: units.length,
    difference,
    markersBefore,
    markersAfter,
    rolled: { from: rolledFrom, to: rolledFrom.length > 0 ? rolledTo : [] },
    markerChanges: {
      added: markersAfter.filter((m) => !beforeByPath.has(m.path)),
      removed: removed.filter((m) => !rolledFrom.includes(m)),
      changed: markersBefore.flatMap((m) => {
        const after = afterByPath.get(m.path);
        return after !== undefined && after !== m.value ? [{ path: m.path, before: m.value, after }] : [];
      }),
    },
  };
}
