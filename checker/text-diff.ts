// A unified diff of two texts sized for a terminal: a few context lines, long lines clipped near the change, a line cap.
// The patch module alone: the package's index loads all 19 of its modules (~11 ms of every run's start-up).
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff/lib/patch/create.js";

export interface DiffLabels {
  beforeName: string;
  afterName: string;
  beforeHeader?: string;
  afterHeader?: string;
}

export interface DiffLimits {
  context: number;
  // Lines longer than this are clipped; a changed line keeps the window around its first differing character.
  maxLineChars: number;
  maxLines: number;
}

export const DEFAULT_DIFF_LIMITS: DiffLimits = { context: 3, maxLineChars: 240, maxLines: 60 };

function commonPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function clip(line: string, max: number, around: number): string {
  if (line.length <= max) return line;
  // Keep a third of the window before the change, so the reader sees what leads into it.
  const start = Math.max(1, Math.min(around - Math.floor(max / 3), line.length - max));
  const end = Math.min(line.length, start + max);
  const head = start > 1 ? `${line[0]}…[${start - 1} chars]…` : line.slice(0, start);
  const tail = end < line.length ? `…[${line.length - end} chars]` : "";
  return head + line.slice(start, end) + tail;
}

// Pairs each run of '-' lines with the '+' lines after it, so both halves of a changed line are clipped at the same place.
function clipHunkLines(lines: readonly string[], max: number): string[] {
  const out = [...lines];
  for (let i = 0; i < lines.length; ) {
    let minus = i;
    while (minus < lines.length && lines[minus]!.startsWith("-")) minus++;
    let plus = minus;
    while (plus < lines.length && lines[plus]!.startsWith("+")) plus++;
    if (minus === i && plus === i) {
      out[i] = clip(lines[i]!, max, 0);
      i++;
      continue;
    }
    const removed = minus - i;
    const added = plus - minus;
    for (let k = 0; k < Math.max(removed, added); k++) {
      const a = k < removed ? lines[i + k]! : undefined;
      const b = k < added ? lines[minus + k]! : undefined;
      // Compare without the leading marker; +1 puts the column back in line coordinates.
      const around = a !== undefined && b !== undefined ? commonPrefixLength(a.slice(1), b.slice(1)) + 1 : 0;
      if (a !== undefined) out[i + k] = clip(a, max, around);
      if (b !== undefined) out[minus + k] = clip(b, max, around);
    }
    i = plus;
  }
  return out;
}

export function unifiedDiff(before: string, after: string, labels: DiffLabels, limits: DiffLimits = DEFAULT_DIFF_LIMITS): string {
  // A final newline on both sides keeps "\ No newline at end of file" out of the output; a difference in the last
  // newline still shows. Empty (absent) text stays empty, so it diffs as no lines rather than one blank line.
  const terminated = (text: string) => (text === "" ? "" : `${text}\n`);
  const patch = structuredPatch(labels.beforeName, labels.afterName, terminated(before), terminated(after), labels.beforeHeader, labels.afterHeader, {
    context: limits.context,
  });
  patch.hunks = patch.hunks.map((hunk) => ({ ...hunk, lines: clipHunkLines(hunk.lines, limits.maxLineChars) }));
  const lines = formatPatch(patch, FILE_HEADERS_ONLY).replace(/\n$/, "").split("\n");
  if (lines.length <= limits.maxLines) return lines.join("\n");
  return [...lines.slice(0, limits.maxLines), `… ${lines.length - limits.maxLines} more diff lines`].join("\n");
}
