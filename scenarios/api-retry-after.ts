// A retryable API error (429 with retry-after, 529, 500) is retried, after the wait the API asked for, until it succeeds.
import { choice, conversation, count, defineScenario, httpError, print, session, text, z } from "../kit/index.ts";
import { apiRetriesOf, exitOf, finding, notReached, reached, requestsOf, resultOf } from "../kit/checkers.ts";

const MARKER = "CCREPRO_RETRY_8M";
const s1 = session("s1");
const params = z.strictObject({
  status: choice(["429", "529", "500"], { default: "429" }),
  // The 429's retry-after in seconds; 5xx carry none. Short by default: the wait is spent for real.
  retryAfter: count({ default: 2, min: 0, max: 600 }),
  // How many tries fail before the mock answers.
  times: count({ default: 1, min: 1, max: 10 }),
});

export default defineScenario({
  name: "api-retry-after",
  summary: "claude retries a 429 (after its retry-after), a 529 or a 500 until the API answers, and the turn succeeds.",
  source:
    "anthropics/claude-code#81330: on 2.1.272 a 429 with retry-after up to 60 s is waited for, but with 61 s or more claude " +
    "gives up after about a second and exits 1, though the API said when to come back.",
  link: "https://github.com/anthropics/claude-code/issues/81330",
  params,
  findings: ["retryable-error-not-retried", "retry-after-not-honoured"],
  sessions: [s1],
  mockScript: (p) =>
    conversation({
      main: { marker: MARKER, replies: [httpError(Number(p.status), { times: p.times, ...(p.status === "429" ? { retryAfterSeconds: p.retryAfter } : {}), then: text("done") })] },
    }),
  steps: (p) => [print(s1, `${MARKER} say done`, { timeout: 60_000 + p.times * (p.status === "429" ? p.retryAfter : 30) * 1000 })],
  check(rec, p) {
    const tries = requestsOf(rec, { stream: "main" }).filter((r) => r.entry.step === 0);
    const exit = exitOf(rec, s1);
    if (tries[0]?.reply.fault == null) return { reached: notReached("the turn's first request was not answered with the fault"), findings: [] };
    if (!exit || exit.exitCode === null) return { reached: notReached("claude -p did not exit by itself"), findings: [] };
    const gaps = tries.slice(1).map((r, i) => (r.receivedAt - tries[i]!.receivedAt) / 1000);
    const retries = apiRetriesOf(rec, s1);
    const result = resultOf(rec, s1);
    const answered = tries.some((r) => r.reply.fault === null);
    const findings = [];
    if (!answered) {
      findings.push(finding({ id: "retryable-error-not-retried", title: `claude gave up after ${tries.length} tr${tries.length === 1 ? "y" : "ies"} of a ${p.status} the next try would have passed`, where: `requests #${tries.map((r) => r.seq).join(", #")}; exit ${exit.exitCode}`, detail: [`result: ${String(result?.result ?? "none").slice(0, 200)}`] }));
    }
    const early = p.status === "429" ? gaps.findIndex((gap) => gap < p.retryAfter - 0.5) : -1;
    if (early !== -1) {
      findings.push(finding({ id: "retry-after-not-honoured", title: `a retry came ${gaps[early]!.toFixed(1)} s after a 429 with retry-after: ${p.retryAfter}`, where: `requests #${tries[early]!.seq} → #${tries[early + 1]!.seq}` }));
    }
    return {
      reached: reached(),
      findings,
      notes: [
        `${tries.length} tries; gaps ${gaps.map((g) => `${g.toFixed(2)} s`).join(", ") || "none"}`,
        `api_retry: ${retries.map((r) => `#${r.attempt} ${r.retryDelayMs} ms (${r.errorStatus})`).join(", ") || "none"}`,
        `result ${result ? `${result.subtype} is_error=${String(result.is_error)}` : "none"}; exit ${exit.exitCode}`,
      ],
    };
  },
  needs: ["stream-json-output"],
  // Measured 2026-12-01: node bin/ccrepro.mjs bisect api-retry-after --param retryAfter=61 --old 2.1.90 --new 2.1.112,
  // then run … --claude 2.1.92|2.1.94 --param retryAfter=61 --repeat 5 (docs/scenarios/api-retry-after.md).
  known: [
    { versions: "2.1.8 - 2.1.92", params: { retryAfter: 61 }, verdict: "GREEN", note: "retry-after: 61 waited (~61 s), then the turn succeeds (2.1.90, 2.1.92 5/5; the atlas, 2026-12-07, every release from 2.1.8, 15 measured; 2.1.8 re-run 3 of 3)" },
    { versions: "0.2.70 - 1.0.5 || 1.0.9 - 2.1.7", params: { retryAfter: 61 }, verdict: "RED", finding: "retry-after-not-honoured", note: "as with retry-after: 2, the retry comes within ~0.1 s (the atlas, 2026-12-07: 38 releases measured; 1.0.5, 1.0.9, 1.0.128 and 2.1.7 re-run 3 of 3). This table said GREEN to 2.1.92 from 2026-12-01, naming 1.0.128, which had been seen waiting in another scenario, not run here" },
    { versions: "1.0.8", params: { retryAfter: 61 }, verdict: "RED", finding: "retryable-error-not-retried", note: "gives up after the one 429, exit 1 (the atlas, 2026-12-07; 3 of 3)" },
    { versions: ">=2.1.94", params: { retryAfter: 61 }, verdict: "RED", finding: "retryable-error-not-retried", note: "one 429, no retry, exit 1 within ~1 s (2.1.94 5/5, 2.1.96, 2.1.101, 2.1.112, 2.1.272 3/3 on 2026-12-06, 2.1.332)" },
    { versions: ">=2.1.8", params: { retryAfter: 60 }, verdict: "GREEN", note: "retry-after: 60 waited, then the turn succeeds, as #81330 says (2.1.272, one run, 2026-12-06; the atlas, 2026-12-07, every release from 2.1.8, 53 measured, 2.1.94 and later too; 2.1.8 re-run 3 of 3)" },
    { versions: "0.2.70 - 1.0.5 || 1.0.9 - 2.1.7", params: { retryAfter: 60 }, verdict: "RED", finding: "retry-after-not-honoured", note: "the retry comes within ~0.1 s, as with any retry-after (the atlas, 2026-12-07: 38 releases measured; 1.0.5, 1.0.9 and 2.1.7 re-run 3 of 3)" },
    { versions: "1.0.8", params: { retryAfter: 60 }, verdict: "RED", finding: "retryable-error-not-retried", note: "gives up after the one 429, exit 1 (the atlas, 2026-12-07; 3 of 3)" },
    { versions: "0.2.70 - 1.0.5 || 1.0.9 - 2.1.7", verdict: "RED", finding: "retry-after-not-honoured", note: "retry-after: 2 not waited, the retry within ~0.1 s (the atlas, 2026-12-07, every release sampled in the range; 1.0.5, 1.0.9 and 2.1.7 re-run 3 of 3)" },
    { versions: "1.0.8", verdict: "RED", finding: "retryable-error-not-retried", note: "gives up after the one 429, exit 1 (3 of 3, 2026-12-07)" },
    { versions: ">=2.1.8 <2.1.332", verdict: "GREEN", note: "retry-after: 2 waited (the atlas, 2026-12-07; 2.1.8 re-run 3 of 3)" },
    { versions: ">=2.1.332", verdict: "GREEN", note: "retry-after: 2 waited (one api_retry line, retry_delay_ms ≈ 2300)" },
    { versions: "0.2.70 - 1.0.5 || >=1.0.9", params: { status: "529", times: 2 }, verdict: "GREEN", note: "two 529s retried with backoff, then success (2.1.332; the atlas, 2026-12-07, every release from 0.2.70, 86 measured; 1.0.5 and 1.0.9 re-run 3 of 3)" },
    { versions: "1.0.8", params: { status: "529", times: 2 }, verdict: "RED", finding: "retryable-error-not-retried", note: "gives up after the first 529, exit 1, as after a 429 (the atlas, 2026-12-07; 3 of 3)" },
  ],
  publicRecord: {
    role: "reproduction",
    releases: [
      { version: "2.1.272", says: "reported", source: "#81330", params: { retryAfter: 61 } },
      { version: "2.1.272", says: "works", source: "#81330 (retry-after ≤ 60 s)", params: { retryAfter: 60 } },
    ],
  },
});
