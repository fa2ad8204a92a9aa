// Cross-run normalisation: the named rules that blank out values which differ between two RUNS for harmless reasons.
// Never applied within one run: there every comparison is of raw bytes (see notification-check.ts for the measurement).
import type { RunLayout } from "../harness/run-layout.ts";

export interface RunPath {
  prefix: string;
  placeholder: string;
}

export interface NormaliseContext {
  // The run's own directories: they appear in notifications (<output-file>) and the environment section of the prompt.
  runPaths?: readonly RunPath[];
  // Where the text sits in a request body ("metadata.user_id"), when it came from one.
  jsonPath?: string;
}

export interface NormalisationRule {
  name: string;
  description: string;
  apply(text: string, ctx: NormaliseContext): string;
}

function replaceRule(name: string, description: string, pattern: RegExp, replacement: string): NormalisationRule {
  return { name, description, apply: (text) => text.replace(pattern, replacement) };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// Order matters: paths go first because a run directory's name may itself contain a date or a UUID.
export const CROSS_RUN_RULES: readonly NormalisationRule[] = [
  {
    name: "run-paths",
    description: "the run's temp, work, home and config directories → their placeholders (longest prefix first)",
    apply(text, ctx) {
      const paths = [...(ctx.runPaths ?? [])].filter((p) => p.prefix !== "").sort((a, b) => b.prefix.length - a.prefix.length);
      return paths.reduce((out, p) => out.replace(new RegExp(escapeRegExp(p.prefix), "g"), p.placeholder), text);
    },
  },
  replaceRule(
    "billing-cch",
    "the cch=<hex> token of the billing header text in system[0] (random per request on some native releases)",
    /\bcch=[0-9a-f]+/g,
    "cch=<cch>",
  ),
  replaceRule(
    "cc-version-hash",
    "the hash suffix of cc_version=<x.y.z>.<hex> (changes with the first user message); the version itself is kept",
    /\bcc_version=(\d+\.\d+\.\d+)\.[0-9a-f]+\b/g,
    "cc_version=$1.<hash>",
  ),
  {
    name: "metadata-user-id",
    description: "the whole value of metadata.user_id (per config dir and session)",
    apply: (text, ctx) => (ctx.jsonPath === "metadata.user_id" ? "<user-id>" : text),
  },
  replaceRule(
    "date-phrases",
    `the rest of "Today's date is …" and "The current month is …", in whatever format the release writes it`,
    /\b(Today's date is |The current month is )[^\n]*?(?=\.\s|\.$|\n|$)/g,
    "$1<date>",
  ),
  replaceRule(
    "iso-dates",
    "ISO dates and timestamps (2026-11-30, 2026-11-30T16:01:02.345Z)",
    /\b\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g,
    "<date>",
  ),
  replaceRule(
    "total-tokens",
    "the context budget in <total_tokens>N tokens left</total_tokens>",
    /<total_tokens>\d+ tokens left<\/total_tokens>/g,
    "<total_tokens><n> tokens left</total_tokens>",
  ),
  replaceRule("uuids", "UUIDs (session ids, agent ids, tool-call ids)", /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uuid>"),
  replaceRule("request-ids", "API request ids (req_<opaque>)", /\breq_[A-Za-z0-9_]{8,}/g, "req_<id>"),
  replaceRule("local-ports", "the mock's port in 127.0.0.1:NNNNN / localhost:NNNNN", /\b(127\.0\.0\.1|localhost):\d{1,5}\b/g, "$1:<port>"),
];

export function normaliseAcrossRuns(text: string, ctx: NormaliseContext = {}): string {
  return CROSS_RUN_RULES.reduce((out, rule) => rule.apply(out, ctx), text);
}

// The isolated directories of a run, as the placeholders a comparison should use for them.
/** @internal exported for its unit tests */
export function runPathsOf(layout: RunLayout): RunPath[] {
  return [
    { prefix: layout.tmp, placeholder: "<tmp>" },
    { prefix: layout.work, placeholder: "<work>" },
    { prefix: layout.home, placeholder: "<home>" },
    { prefix: layout.config, placeholder: "<config>" },
    { prefix: layout.root, placeholder: "<run>" },
  ];
}
