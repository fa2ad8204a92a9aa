// A `claude -p` turn the API failed must not end as a success: the result line says is_error and the process exits non-zero.
import { bash, choice, text, conversation, defineScenario, drop, httpError, print, session, z } from "../kit/index.ts";
import { exitOf, fileOf, finding, notReached, reached, requestsOf, resultOf } from "../kit/checkers.ts";

const MARKER = "CCREPRO_APIFAIL_4K";
const s1 = session("s1");
const params = z.strictObject({
  // 400 invalid_request_error on every try; 429 with retry-after: 61 on every try; or a stream cut right after a
  // tool_use block, with no message_delta and no message_stop, on every try (streamed or not). Only the turn's first
  // call fails: the message the API never finished is not a success to act on.
  fault: choice(["400", "429-retry-61", "cut-after-tool-use"], { default: "400" }),
});
type Params = z.output<typeof params>;

const faultOf = ({ fault }: Params) =>
  fault === "400"
    ? httpError(400, { message: "messages.0.content: this request was refused by the mock" })
    : fault === "429-retry-61"
      ? httpError(429, { retryAfterSeconds: 61 })
      : drop(bash("echo CUT_TOOL_RAN > cut.txt", "write a file"), { afterBlocks: 1 });

export default defineScenario({
  name: "api-failure-reported-as-success",
  summary: "When every request of a `claude -p` turn fails at the API, the result line says is_error and claude exits non-zero.",
  source:
    "anthropics/claude-code#79500, #40432, #76867, #21317: a headless run whose API call failed (400, 429, a cut stream) ends with " +
    "a result line that reads as success, or exit code 0, so scripts and CI carry on as if the turn had worked.",
  link: "https://github.com/anthropics/claude-code/issues/79500",
  params,
  findings: ["failure-reported-as-success", "failure-exits-zero"],
  sessions: [s1],
  // The turn's first call fails on every try; were claude to get past it, the next call would end the turn.
  mockScript: (p) => conversation({ main: { marker: MARKER, replies: [faultOf(p)], then: text("done") } }),
  steps: () => [print(s1, `${MARKER} write the file`, { timeout: 100_000 })],
  check(rec, p) {
    const main = requestsOf(rec, { stream: "main" }).filter((r) => r.entry.step === 0);
    const later = requestsOf(rec, { stream: "main" }).length - main.length;
    const exit = exitOf(rec, s1);
    const result = resultOf(rec, s1);
    if (main.length === 0 || main.some((r) => r.reply.fault === null)) {
      return { reached: notReached(main.length === 0 ? "claude sent no request of the turn" : "a request of the turn was answered without the fault"), findings: [] };
    }
    if (!exit || exit.exitCode === null) return { reached: notReached("claude -p did not exit by itself"), findings: [] };
    const served = `${main.length} request(s) of the turn, each answered with ${main[0]!.reply.fault} (#${main.map((r) => r.seq).join(", #")})`;
    const findings = [];
    if (result && result.is_error !== true) {
      findings.push(finding({ id: "failure-reported-as-success", title: `the failed turn's result line says ${result.subtype} with is_error ${String(result.is_error)}`, where: `s1 stdout line ${result.line}`, detail: [served, `result: ${String(result.result).slice(0, 200)}`] }));
    }
    if (exit.exitCode === 0) {
      findings.push(finding({ id: "failure-exits-zero", title: "claude -p exited 0 after the turn failed", where: "s1 exit code", detail: [served] }));
    }
    const ran = fileOf(rec, "cut.txt");
    const after = later > 0 ? `; ${later} later request(s): claude went on past the failed call${ran ? ", and ran the cut stream's tool (cut.txt written)" : ""}` : "";
    const line = result ? `result ${result.subtype} is_error=${String(result.is_error)} "${String(result.result).slice(0, 120)}"` : "no result line";
    return { reached: reached(), findings, notes: [`fault ${p.fault}: ${served}`, `${line}; exit ${exit.exitCode}${after}`] };
  },
  needs: ["stream-json-output"],
  // Measured 2026-12-01: node bin/ccrepro.mjs run api-failure-reported-as-success --claude V --param fault=F (docs/scenarios/api-failure-reported-as-success.md).
  known: [
    { versions: ">=1.0.128", params: { fault: "400" }, verdict: "GREEN", note: "is_error true, \"API Error: 400 …\", exit 1 (1.0.128, 2.1.90, 2.1.112, 2.1.281, 2.1.332)" },
    { versions: ">=2.1.112", params: { fault: "429-retry-61" }, verdict: "GREEN", note: "no retry: is_error true, \"API Error: Request rejected (429)\", exit 1 within ~1 s (2.1.112, 2.1.281, 2.1.332)" },
    { versions: ">=1.0.128", params: { fault: "cut-after-tool-use" }, verdict: "RED", finding: "failure-reported-as-success", note: "the cut message's tool_use is run and the turn ends success, exit 0 (1.0.128, 2.1.112, 2.1.281, 2.1.332; 2.1.90 instead retries non-streaming past 100 s)" },
  ],
});
