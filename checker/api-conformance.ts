// The requests the real Messages API would have rejected, as findings every scenario's result carries.
// Pure: the mock judged each request when it arrived (mock-api/conformance.ts) and logged what it found; this reads
// those judgements, so a check later gives the same answer. Logs recorded before the mock judged requests have none.
// A rule the public record no longer settles (DISPUTED_RULES) is judged when the check runs, not when the run did: its
// violations become notes, in old logs as in new ones.
import type { Finding } from "../core/verdict.ts";
import { finding } from "../core/verdict.ts";
import { DISPUTED_RULES, enforcedViolations, type ConformanceViolation } from "../mock-api/conformance.ts";
import type { RequestEntry } from "../mock-api/log-entry.ts";

// Added to every scenario's result by the pipeline, whatever findings the scenario itself declares.
export const API_FINDINGS = ["request-rejected-by-api"] as const;
export type ApiFindingId = (typeof API_FINDINGS)[number];

const whereOf = (request: RequestEntry, v: ConformanceViolation) =>
  `request ${request.seq} (${request.stream ?? "?"} stream, step ${request.step ?? "?"}), ${v.messageIndex === null ? v.path : `messages[${v.messageIndex}]`}`;

// One RED finding per request the API would reject; its first enforced violation is the one the API would answer with.
export function checkApiConformance(requests: readonly RequestEntry[]): Finding[] {
  return requests.flatMap((request) => {
    const [first, ...more] = enforcedViolations(request.conformance);
    if (first === undefined) return [];
    return [
      finding({
        id: "request-rejected-by-api",
        red: true,
        title: `the real API would reject request ${request.seq} (${first.rule}): ${first.message}`,
        where: whereOf(request, first),
        detail: request.conformance.map((v) => {
          const disputed = DISPUTED_RULES[v.rule];
          return `${v.rule} at ${v.path}: ${v.status} ${v.errorType}: ${v.message}${v.messageVerified ? "" : " (wording not verified)"}${disputed ? ` (disputed: ${disputed})` : ""}`;
        }),
        data: {
          seq: request.seq,
          stream: request.stream,
          step: request.step,
          messageIndex: first.messageIndex,
          rule: first.rule,
          message: first.message,
          answeredWith: request.reply.status,
          violations: more.length + 1,
        },
      }),
    ];
  });
}

// A note per violation of a disputed rule in a request with no enforced one: what the request broke, and why that is
// no finding.
export function disputedApiNotes(requests: readonly RequestEntry[]): string[] {
  return requests
    .filter((request) => enforcedViolations(request.conformance).length === 0)
    .flatMap((request) =>
      // Every violation here is of a disputed rule (the request has no enforced one), so each has its why.
      request.conformance.map((v) => `${whereOf(request, v)} breaks ${v.rule} ("${v.message}"), not a finding: ${DISPUTED_RULES[v.rule]}`),
    );
}
