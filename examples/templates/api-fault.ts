// template-api-fault: what goes wrong, in one line. Run it: ccrepro run ./template-api-fault.ts --claude latest
// The mock fails the way the API does: here one 529 overloaded_error, then the reply; claude must retry and answer.
import { conversation, defineScenario, httpError, print, session, text } from "ccrepro";
import { exitOf, finding, notReached, reached, requestsOf, resultOf } from "ccrepro/checkers";

const MARKER = "TEMPLATE_FAULT_1";
const s1 = session("s1");

export default defineScenario({
  name: "template-api-fault",
  summary: "After one 529 overloaded_error, claude -p retries the request and reports the answer as a success.",
  source: "Describe the bug here, with the upstream issue it was reported in.",
  findings: ["not-retried", "failure-reported"],
  sessions: [s1],
  // Other faults: midStreamError(reply, { afterBlocks }), drop(reply, { afterEvents }), stall(reply, { ms }), httpError(429, { retryAfterSeconds }).
  mockScript: () => conversation({ main: { marker: MARKER, replies: [httpError(529, { times: 1, then: text("answered") })] } }),
  steps: () => [print(s1, `${MARKER} answer me`)],
  check(rec) {
    const tries = requestsOf(rec, { stream: "main" });
    const result = resultOf(rec, s1);
    if (tries[0]?.reply.status !== 529 || !result) return { reached: notReached("the fault was not served, or claude printed no result"), findings: [] };
    const findings = [];
    if (tries.length < 2) findings.push(finding({ id: "not-retried", title: "claude did not retry after the 529", where: `request #${tries[0].seq}` }));
    if (result.is_error || exitOf(rec, s1)?.exitCode !== 0) findings.push(finding({ id: "failure-reported", title: `the retried turn ended as ${result.subtype}`, where: `s1 stdout line ${result.line}` }));
    return { reached: reached(), findings, notes: [`${tries.length} tries: ${tries.map((t) => t.reply.status).join(", ")}`] };
  },
  needs: ["stream-json-output"],
});
