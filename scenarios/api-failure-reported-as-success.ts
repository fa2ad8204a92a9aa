// A `claude -p` turn the API failed must not end as a success: the result line says an error (subtype, is_error) and the process exits non-zero.
import { bash, choice, text, conversation, defineScenario, drop, httpError, print, session, z } from "../kit/index.ts";
import { exitOf, fileOf, finding, notReached, reached, requestsOf, resultOf, stdoutOf } from "../kit/checkers.ts";

const MARKER = "CCREPRO_APIFAIL_4K";
const s1 = session("s1");
const params = z.strictObject({
  // How the turn's first call fails, on every try: 400 invalid_request_error; 403 permission_error (the 2.1.233 comment
  // on #79500 had a 403); 429 with retry-after: 1 (claude retries until its retries run out); 429 with retry-after: 61;
  // or a stream cut right after a tool_use block, with no message_delta and no message_stop (streamed or not). Only the
  // turn's first call fails: the message the API never finished is not a success to act on.
  fault: choice(["400", "403", "429", "429-retry-61", "cut-after-tool-use"], { default: "400" }),
  // The `--output-format` of the `-p` run: #79500 reports `json` (subtype "success" with is_error true) and `text` (exit 0).
  output: choice(["stream-json", "json", "text"], { default: "stream-json" }),
});
type Params = z.output<typeof params>;
const retriesForMinutes = ({ fault }: Params) => fault === "429" || fault === "cut-after-tool-use";

const faultOf = ({ fault }: Params) =>
  fault === "400"
    ? httpError(400, { message: "messages.0.content: this request was refused by the mock" })
    : fault === "403"
      ? httpError(403)
      : fault === "429"
        ? httpError(429, { retryAfterSeconds: 1 })
        : fault === "429-retry-61"
          ? httpError(429, { retryAfterSeconds: 61 })
          : drop(bash("echo CUT_TOOL_RAN > cut.txt", "write a file"), { afterBlocks: 1 });

export default defineScenario({
  name: "api-failure-reported-as-success",
  summary:
    "When every request of a `claude -p` turn fails at the API, the result line says so (subtype not \"success\", is_error true) and claude exits non-zero.",
  source:
    "anthropics/claude-code#79500 (2.1.49; a comment: 2.1.233): an API error (a rate limit, a 403) ends a headless run with a result whose " +
    "subtype is \"success\" beside is_error true, and in text mode with exit code 0, so scripts and CI carry on as if the turn had worked. " +
    "Also #40432, #76867, #21317 (a cut stream acted on).",
  link: "https://github.com/anthropics/claude-code/issues/79500",
  params,
  findings: ["result-subtype-success", "result-is-error-false", "failure-exits-zero"],
  sessions: [s1],
  // The turn's first call fails on every try; were claude to get past it, the next call would end the turn.
  mockScript: (p) => conversation({ main: { marker: MARKER, replies: [faultOf(p)], then: text("done") } }),
  // A 429 with retry-after: 1 is retried ten times with a backoff that grows to ~40 s: about 190 s in all. So is a cut
  // stream on the releases that take it for an error (2.0.36–2.1.101 mostly): they ask again unstreamed, and that
  // answer is cut too (measured on 2.1.2: 11 tries over ~70 s and counting when a 100 s limit ended it, INCONCLUSIVE).
  timeoutMs: 360_000,
  steps: (p) => [print(s1, `${MARKER} write the file`, { timeout: retriesForMinutes(p) ? 300_000 : 100_000, ...(p.output === "stream-json" ? {} : { output: p.output }) })],
  check(rec, p) {
    const main = requestsOf(rec, { stream: "main" }).filter((r) => r.entry.step === 0);
    const later = requestsOf(rec, { stream: "main" }).length - main.length;
    const exit = exitOf(rec, s1);
    const result = resultOf(rec, s1);
    if (main.length === 0 || main.some((r) => r.reply.fault === null)) {
      return { reached: notReached(main.length === 0 ? "claude sent no request of the turn" : "a request of the turn was answered without the fault"), findings: [] };
    }
    if (!exit || exit.exitCode === null) return { reached: notReached("claude -p did not exit by itself"), findings: [] };
    if (p.output !== "text" && !result) return { reached: notReached(`claude -p --output-format ${p.output} printed no result line`), findings: [] };
    const served = `${main.length} request(s) of the turn, each answered with ${main[0]!.reply.fault} (#${main.map((r) => r.seq).join(", #")})`;
    const findings = [];
    if (result && result.subtype === "success") {
      findings.push(finding({ id: "result-subtype-success", title: `the failed turn's result line says subtype "success" (is_error ${String(result.is_error)})`, where: `s1 stdout line ${result.line}`, detail: [served, `result: ${String(result.result).slice(0, 200)}`] }));
    }
    if (result && result.is_error !== true) {
      findings.push(finding({ id: "result-is-error-false", title: `the failed turn's result line says is_error ${String(result.is_error)}`, where: `s1 stdout line ${result.line}`, detail: [served] }));
    }
    if (exit.exitCode === 0) {
      findings.push(finding({ id: "failure-exits-zero", title: "claude -p exited 0 after the turn failed", where: "s1 exit code", detail: [served] }));
    }
    const ran = fileOf(rec, "cut.txt");
    const after = later > 0 ? `; ${later} later request(s): claude went on past the failed call${ran ? ", and ran the cut stream's tool (cut.txt written)" : ""}` : "";
    const line = result
      ? `result ${result.subtype} is_error=${String(result.is_error)} terminal_reason=${result.terminal_reason ?? "none"} "${String(result.result).slice(0, 120)}"`
      : `text on stdout: "${stdoutOf(rec, s1).slice(0, 120)}"`;
    return { reached: reached(), findings, notes: [`fault ${p.fault}, --output-format ${p.output}: ${served}`, `${line}; exit ${exit.exitCode}${after}`] };
  },
  needs: ["stream-json-output"],
  // Measured 2026-12-06 (and 2026-12-01 where said): node bin/ccrepro.mjs run api-failure-reported-as-success --claude V
  // --param fault=F [--param output=O] (docs/scenarios/api-failure-reported-as-success.md). Every release that ends a
  // failed turn with a result line says subtype "success" there, beside is_error true.
  known: [
    { versions: ">=1.0.128", params: { fault: "400" }, verdict: "RED", finding: "result-subtype-success", note: "subtype \"success\" with is_error true, \"API Error: 400 …\", exit 1 (1.0.128, 2.1.49, 2.1.233, 2.1.332, measured 2026-12-06)" },
    { versions: ">=0.2.118", params: { fault: "400", output: "json" }, verdict: "RED", finding: "result-subtype-success", note: "--output-format json: subtype \"success\" with is_error true, exit 1 (2.1.49, 4 of 4 runs; the atlas, 2026-12-07, on every release from 0.2.118)" },
    { versions: ">=0.2.118", params: { fault: "403" }, verdict: "RED", finding: "result-subtype-success", note: "the #79500 comment's shape: subtype \"success\", is_error true, terminal_reason api_error, exit 1 (2.1.49, 2.1.233 4 of 4 runs, 2.1.332; the atlas, 2026-12-07, on every release from 0.2.118, where terminal_reason is newer)" },
    { versions: "0.2.118 - 2.1.337", params: { fault: "429", output: "json" }, verdict: "RED", finding: "result-subtype-success", note: "11 tries (10 retries), then subtype \"success\" with is_error true, exit 1 (2.1.49, 3 of 3 runs; the atlas, 2026-12-07, every release from 0.2.118, 48 measured; 1.0.8 gives up at once)" },
    { versions: "0.2.118 - 2.1.337", params: { fault: "429" }, verdict: "RED", finding: "result-subtype-success", note: "11 tries over ~3.5 min (backoff grows past the retry-after of 1 s), then subtype \"success\", is_error true, exit 1 (2.1.233; the atlas, 2026-12-07, every release from 0.2.118, 48 measured: ~30 s a run to 2.1.88, ~3 min from 2.1.110)" },
    { versions: "2.1.94 - 2.1.337", params: { fault: "429-retry-61", output: "stream-json" }, verdict: "RED", finding: "result-subtype-success", note: "no retry: subtype \"success\", is_error true, \"API Error: Request rejected (429)\", exit 1 within ~1 s (2.1.112, 2.1.332; the atlas, 2026-12-07: every release from 2.1.94, 40 measured, where claude stops waiting out a retry-after over 60 s: api-retry-after)" },
    { versions: "1.0.8", params: { fault: "429-retry-61", output: "stream-json" }, verdict: "RED", finding: "result-subtype-success", note: "1.0.8 does not retry a 429 at all (api-retry-after): subtype \"success\", is_error true, exit 1 (the atlas, 2026-12-07)" },
    { versions: "0.2.70 - 1.0.5 || 1.0.9 - 2.1.92", params: { fault: "429-retry-61", output: "stream-json" }, verdict: "INCONCLUSIVE", note: "still retrying at the step's 100 s limit: 2.1.8–2.1.92 wait the 61 s out, older ones retry at once with a growing backoff (the atlas, 2026-12-07, 51 measured; 2.1.90 on 2026-12-01)" },
    { versions: ">=0.2.109", params: { fault: "400", output: "text" }, verdict: "GREEN", note: "text mode: \"API Error: 400 …\" on stdout, exit 1 (2.1.49, 2.1.233, 2.1.332; the atlas, 2026-12-07, every release from 0.2.109, 80 measured); #79500's exit 0 not seen there" },
    ...([{ fault: "400" }, { fault: "403" }, { fault: "400", output: "json" }, { fault: "429" }, { fault: "429", output: "json" }, { fault: "cut-after-tool-use" }] as const).map((params) => ({
      versions: "0.2.70 - 0.2.114",
      params,
      verdict: "INCONCLUSIVE" as const,
      note: "claude -p printed no result line: these releases print an older shape (0.2.114's stream-json ends on a {\"role\":\"system\",…,\"result\",\"session_id\"} line, no type, no subtype), so there is no subtype to judge (the atlas, 2026-12-07: 0.2.70, 0.2.74, 0.2.114; 0.2.100 once more)",
    })),
    { versions: "0.2.70 - 0.2.100", params: { fault: "400", output: "text" }, verdict: "RED", finding: "failure-exits-zero", note: "text mode: \"API Error: 400 …\" on stdout, exit 0, #79500's exit code, on releases far older than its report (the atlas, 2026-12-07: 0.2.70, 0.2.96, 0.2.100; 0.2.100 and 0.2.109 re-run 3 of 3)" },
    { versions: "0.2.109 - 2.1.337", params: { fault: "429", output: "text" }, verdict: "GREEN", note: "text mode after 11 tries: \"API Error: 429 …\" on stdout, exit 1 (2.1.49; the atlas, 2026-12-07, every release from 0.2.109, 47 measured); #79500's exit 0 not seen there" },
    { versions: "0.2.70 - 0.2.100", params: { fault: "429", output: "text" }, verdict: "RED", finding: "failure-exits-zero", note: "text mode: the 429's error on stdout, exit 0, as with a 400 on these releases (the atlas, 2026-12-07: 0.2.70, 0.2.96, 0.2.100; 0.2.100 and 0.2.109 re-run 3 of 3)" },
    {
      versions: "0.2.118 - 2.1.337",
      params: { fault: "cut-after-tool-use" },
      verdict: "RED",
      note:
        "the cut message is taken for a success one way or the other, and which way changes run to run on one release: its tool_use is run and the turn ends success, " +
        "is_error false, exit 0 (all three findings; 2.1.332 on 2026-12-06, 1.0.128, 2.1.112, 2.1.281 on 2026-12-01), or claude asks again, unstreamed, with a growing backoff, " +
        "every answer cut, and ends with subtype \"success\" beside is_error true, \"API Error: Connection error.\", exit 1 after ~3 min (2.1.2, 2 of 2). " +
        "The atlas, 2026-12-07, --until-red 2: RED on the first run of each of 79 releases measured (58 the first way, 21 the second), 21 random assumed ones agreeing; " +
        "before 2026-12-07 a 100 s limit ended the second way as INCONCLUSIVE",
    },
  ],
  publicRecord: {
    role: "reproduction",
    releases: [
      { version: "2.1.49", says: "reported", source: "#79500", params: { fault: "429", output: "json" } },
      { version: "2.1.233", says: "reported", source: "#79500 (a comment)", params: { fault: "403" } },
    ],
  },
});
