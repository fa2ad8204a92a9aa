// Whether task notifications (and the prompt prefix around them) keep their bytes across each boundary of a stream.
// Raw bytes: both requests of a boundary belong to one conversation, where no value has a harmless reason to change.
// Measured on the recorded runs (2.1.251, 2.1.281 twice, 2.1.332 twice; test/fixtures/runs, the nightly fixture):
// comparing raw gives exactly the findings the old normalised comparison gave, so no within-run rule is needed.
// Cross-run normalisation (cch=, cc_version hash, dates, run paths) lives in cross-run-normalise.ts, for comparing runs.
import type { Recordings } from "../harness/recordings.ts";
import { BOUNDARY_KINDS, BOUNDARY_NAMES, describeBoundary, findBoundaries, type Boundary, type BoundaryKind } from "./boundaries.ts";
import { extractNotifications, maskNotifications, type NotificationOccurrence } from "./notifications.ts";
import { comparePrefix, type PrefixComparison } from "./prefix.ts";
import { readMessagesBody } from "./request-body.ts";
import { unifiedDiff } from "./text-diff.ts";
import { finding, type CheckerOutput, type Finding } from "../core/verdict.ts";

export const NOTIFICATION_FINDINGS = ["notification-changed", "notification-dropped", "notification-moved", "prefix-changed", "cache-control-moved"] as const;
export type NotificationFindingId = (typeof NOTIFICATION_FINDINGS)[number];

// finding() with the id held to this check's closed list.
const notificationFinding = (input: Parameters<typeof finding>[0] & { id: NotificationFindingId }): Finding => finding(input);

export interface NotificationCheckOptions {
  // Default: both kinds.
  kinds?: readonly BoundaryKind[];
  // Default: every named stream.
  streams?: readonly string[];
}

export type NotificationCheck = CheckerOutput;

const UNREACHED: Record<BoundaryKind, string> = {
  resume: "no stream went idle and was woken again (e.g. the subagent was never resumed)",
  stop: "no session was continued with --resume after its process ended",
};

// Code points, as the bug reports count them.
function chars(text: string): number {
  return [...text].length;
}

function changed(b: Boundary, was: NotificationOccurrence, now: NotificationOccurrence): Finding | null {
  const before = was.text;
  const after = now.text;
  if (before === after) return null;
  const delta = chars(was.text) - chars(now.text);
  return notificationFinding({
    id: "notification-changed",
    red: true,
    title: `task ${was.taskId}'s notification was re-sent with different bytes`,
    where: `${describeBoundary(b)}, ${was.path}${now.path === was.path ? "" : ` → ${now.path}`}`,
    detail: [
      `${was.headerKind} (${chars(was.text)} chars) → ${now.headerKind} (${chars(now.text)} chars), delta ${delta}`,
      `role ${was.role}${now.role === was.role ? "" : ` → ${now.role}`}; compared raw, from the header through </task-notification>`,
    ],
    diff: unifiedDiff(before, after, { beforeName: was.path, afterName: now.path, beforeHeader: `req ${b.before}`, afterHeader: `req ${b.after}` }),
    data: {
      boundary: b,
      key: was.key,
      taskId: was.taskId,
      headerBefore: was.headerKind,
      headerAfter: now.headerKind,
      charsBefore: chars(was.text),
      charsAfter: chars(now.text),
      // before − after, as the bug reports give it: positive when the block shrank.
      delta,
      byteDelta: Buffer.byteLength(was.text) - Buffer.byteLength(now.text),
    },
  });
}

function dropped(b: Boundary, was: NotificationOccurrence, after: readonly NotificationOccurrence[]): Finding {
  const elsewhere = after.filter((o) => o.taskId === was.taskId).map((o) => o.key);
  return notificationFinding({
    id: "notification-dropped",
    red: true,
    title: `task ${was.taskId}'s notification was in the prefix before the boundary and is missing after it`,
    where: `${describeBoundary(b)}, ${was.path}`,
    detail: [
      `${was.headerKind} (${chars(was.text)} chars), role ${was.role}, key ${was.key}`,
      elsewhere.length > 0 ? `req ${b.after} has this task's notification only at ${elsewhere.join(", ")}` : `req ${b.after} has no notification for task ${was.taskId}`,
    ],
    data: { boundary: b, key: was.key, taskId: was.taskId, header: was.headerKind, chars: chars(was.text), elsewhere },
  });
}

// Informational: a notification can only move when the messages around it changed, and prefix-changed reports that
// change (the cache break) in red; the moved notification's own bytes are still compared (notification-changed).
function moved(b: Boundary, was: NotificationOccurrence, now: NotificationOccurrence): Finding | null {
  if (was.path === now.path) return null;
  return notificationFinding({
    id: "notification-moved",
    red: false,
    title: `task ${was.taskId}'s notification moved from ${was.path} to ${now.path}`,
    where: `${describeBoundary(b)}, ${was.path} → ${now.path}`,
    detail: [`matched by task id ${was.taskId} and tool use id ${was.toolUseId ?? "(none)"}, key ${was.key}; its bytes are compared at the new place`],
    data: { boundary: b, key: was.key, taskId: was.taskId, toolUseId: was.toolUseId, messageBefore: was.messageIndex, messageAfter: now.messageIndex, pathBefore: was.path, pathAfter: now.path },
  });
}

function prefixFindings(b: Boundary, prefix: PrefixComparison): Finding[] {
  const out: Finding[] = [];
  const d = prefix.difference;
  if (d) {
    const size = (absent: boolean, bytes: number) => (absent ? "absent" : `${bytes} bytes`);
    out.push(
      notificationFinding({
        id: "prefix-changed",
        red: true,
        title: `the shared prompt prefix changed outside task notifications, first at ${d.block}`,
        where: `${describeBoundary(b)}, ${d.path}`,
        detail: [`${d.path}: ${size(d.beforeAbsent, d.bytesBefore)} → ${size(d.afterAbsent, d.bytesAfter)}, delta ${d.delta}; cache_control ignored, raw bytes`],
        diff: d.diff,
        data: { boundary: b, block: d.block, path: d.path, bytesBefore: d.bytesBefore, bytesAfter: d.bytesAfter, delta: d.delta },
      }),
    );
  }
  const { added, removed, changed: moved } = prefix.markerChanges;
  if (added.length + removed.length + moved.length > 0) {
    out.push(
      notificationFinding({
        id: "cache-control-moved",
        red: false,
        title: "cache_control markers in the shared prefix differ",
        where: describeBoundary(b),
        detail: [
          ...removed.map((m) => `removed ${m.path} ${m.value}`),
          ...added.map((m) => `added ${m.path} ${m.value}`),
          ...moved.map((m) => `changed ${m.path} ${m.before} → ${m.after}`),
        ],
        data: { boundary: b, before: prefix.markersBefore.map((m) => m.path), after: prefix.markersAfter.map((m) => m.path) },
      }),
    );
  }
  return out;
}

export function checkNotificationStability(rec: Recordings, options: NotificationCheckOptions = {}): NotificationCheck {
  const kinds = options.kinds ?? BOUNDARY_KINDS;
  const boundaries = findBoundaries(rec, { streams: options.streams }).filter((b) => kinds.includes(b.kind));
  const findings: Finding[] = [];
  const notes: string[] = [];
  // Only whether any boundary had a notification before it matters, not how many.
  let anyPresent = false;

  for (const b of boundaries) {
    const before = readMessagesBody(rec, b.before);
    const after = readMessagesBody(rec, b.after);
    const was = extractNotifications(before);
    const now = extractNotifications(after);
    const nowByKey = new Map(now.map((o) => [o.key, o]));
    anyPresent ||= was.length > 0;
    for (const occurrence of was) {
      const later = nowByKey.get(occurrence.key);
      const results = later ? [moved(b, occurrence, later), changed(b, occurrence, later)] : [dropped(b, occurrence, now)];
      findings.push(...results.filter((f): f is Finding => f !== null));
    }
    const prefix = comparePrefix(before, after, { mask: maskNotifications, beforeLabel: `req ${b.before}`, afterLabel: `req ${b.after}` });
    findings.push(...prefixFindings(b, prefix));
    const { from, to } = prefix.rolled;
    const roll = from.length > 0 ? `; message cache_control rolled ${from.map((m) => m.path).join(", ")} → ${to.map((m) => m.path).join(", ")}` : "";
    notes.push(`${describeBoundary(b)}, ${was.length} notification${was.length === 1 ? "" : "s"} compared, ${prefix.unitsCompared} prefix blocks compared${roll}`);
  }

  const scope = `${kinds.map((k) => BOUNDARY_NAMES[k]).join(" or ")}${options.streams ? ` on stream ${options.streams.join(", ")}` : ""}`;
  const reached: NotificationCheck["reached"] =
    boundaries.length === 0
      ? { ok: false, reason: `no ${scope}: ${kinds.map((k) => UNREACHED[k]).join("; ")}` }
      : !anyPresent
        ? { ok: false, reason: `no task-notification was present before any ${scope} (before: ${boundaries.map((b) => `req ${b.before}`).join(", ")})` }
        : { ok: true };
  return { findings, reached, notes };
}
