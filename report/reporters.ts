// Every report format, each a pure function of the same input: the summary and the directory its runs live under.
import { SUMMARY_FILE } from "../nightly/summary.ts";
import { renderHtml } from "./html.ts";
import { renderJunit } from "./junit.ts";
import { renderMarkdown } from "./markdown.ts";
import type { ReportInput } from "./report-target.ts";

export const REPORT_FORMATS = ["json", "md", "junit", "html"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface Reporter {
  format: ReportFormat;
  // The file it writes inside a nightly directory.
  file: string;
  render(input: ReportInput): string;
}

export const REPORTERS: readonly Reporter[] = [
  { format: "json", file: SUMMARY_FILE, render: ({ summary }) => `${JSON.stringify(summary, null, 2)}\n` },
  { format: "md", file: "summary.md", render: renderMarkdown },
  { format: "junit", file: "junit.xml", render: renderJunit },
  { format: "html", file: "index.html", render: renderHtml },
];

export function reporterFor(format: ReportFormat): Reporter {
  return REPORTERS.find((r) => r.format === format)!;
}
