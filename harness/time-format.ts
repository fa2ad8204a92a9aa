// The compact UTC timestamp that starts run and nightly directory names, so they sort by time.

// 2026-11-30T16:42:10.123Z → 20261130T164210Z
export function compactUtc(date: Date): string {
  return date.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}
