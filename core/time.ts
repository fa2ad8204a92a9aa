// Time helpers shared by every floor: the one recording clock, and the compact UTC stamp that starts directory names.

// 2026-11-30T16:42:10.123Z → 20261130T164210Z
export function compactUtc(date: Date): string {
  return date.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}

// The one clock every recorded timestamp uses (mock log, session lines, steps): wall-clock milliseconds with
// sub-millisecond precision, so close events order correctly and times from different recorders compare.
export const clockNow = (): number => performance.timeOrigin + performance.now();
