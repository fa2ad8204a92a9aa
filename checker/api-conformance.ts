// The requests the real Messages API would have rejected, as findings every scenario's result carries.
// Pure: the mock judged each request when it arrived (mock-api/conformance.ts) and logged what it found; this reads
// those judgements, so a check later gives the same answer. Logs recorded before the mock judged requests have none.
import type { CheckResult, Finding } from "../core/verdict.ts";
import { finding } from "../core/verdict.ts";
import type { RequestEntry } from "../mock-api/log-entry.ts";

// Added to every scenario's result by the pipeline, whatever findings the scenario itself declares.
export const API_FINDINGS = ["request-rejected-by-api"] as const;
export type ApiFindingId = (typeof API_FINDINGS)[number];

// One RED finding per request the API would reject; its first violation is the one the API would answer with.
export function checkApiConformance(requests: readonly RequestEntry[]): Finding[] {
  return requests
    .filter((request) => request.conformance.length > 0)
    .map((request) => {
      const [first, ...more] = request.conformance;
      const at = first!.messageIndex === null ? first!.path : `messages[${first!.messageIndex}]`;
      return finding({
        id: "request-rejected-by-api",
        red: true,
        title: `the real API would reject request ${request.seq} (${first!.rule}): ${first!.message}`,
        where: `request ${request.seq} (${request.stream ?? "?"} stream, step ${request.step ?? "?"}), ${at}`,
        detail: request.conformance.map(
          (v) => `${v.rule} at ${v.path}: ${v.status} ${v.errorType}: ${v.message}${v.messageVerified ? "" : " (wording not verified)"}`,
        ),
        data: {
          seq: request.seq,
          stream: request.stream,
          step: request.step,
          messageIndex: first!.messageIndex,
          rule: first!.rule,
          message: first!.message,
          answeredWith: request.reply.status,
          violations: more.length + 1,
        },
      });
    });
}
