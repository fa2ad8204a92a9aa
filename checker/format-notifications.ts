// The human view of notification-stability findings: the finding, its boundary, its numbers and its diff in a few lines.
import type { Finding } from "./verdict.ts";

const INDENT = "     ";

export function formatNotificationFindings(findings: readonly Finding[]): string {
  if (findings.length === 0) return "no findings";
  return findings
    .map((f) =>
      [
        `${f.red ? "RED " : "info"} ${f.id}: ${f.title}`,
        `${INDENT}at ${f.where}`,
        ...f.detail.map((line) => INDENT + line),
        ...(f.diff ? f.diff.split("\n").map((line) => INDENT + line) : []),
      ].join("\n"),
    )
    .join("\n\n");
}
