// A `/compact` whose summary request fails must leave the conversation as it was: no summary, the history kept.
import { choice, conversation, count, defineScenario, httpError, resultPrinted, send, session, sessionEnded, start, stop, text, wait, z } from "../kit/index.ts";
import { finding, notReached, reached, requestsOf, transcriptOf } from "../kit/checkers.ts";

const s1 = session("s1");
const MARKER = "CCREPRO_FAILCOMPACT_7M";
// The instruction every release's summary request carries; it routes that request, whatever its history holds.
const ASKS_SUMMARY = "create a detailed summary of the conversation";
// The error's own message (the 400's is the API's wording for a prompt over the window); none must become a summary.
const ERROR = "CCREPRO_FAILCOMPACT_ERROR_7M";
const params = z.strictObject({
  // How the summary request fails, on every try: 500 api_error, 429 with retry-after 1, 401 authentication_error, or
  // the 400 "prompt is too long" of a conversation near the context window.
  fault: choice(["500", "429", "401", "400-too-long"], { default: "400-too-long" }),
  // Releases from about 2.1.153 keep recent turns through a compaction and refuse one with too few ("Not enough messages").
  turns: count({ default: 3, min: 1, max: 10 }),
});
type Params = z.output<typeof params>;
const faultOf = ({ fault }: Params) =>
  fault === "400-too-long"
    ? httpError(400, { message: "prompt is too long: 210000 tokens > 200000 maximum" })
    : fault === "429"
      ? httpError(429, { retryAfterSeconds: 1, message: ERROR })
      : httpError(Number(fault), { errorType: fault === "401" ? "authentication_error" : "api_error", message: ERROR });

export default defineScenario({
  name: "compact-failed",
  summary: "Guard: when `/compact`'s summary request fails at the API, nothing is recorded as a summary and the next request still carries the conversation.",
  source: "anthropics/claude-code#57636, #3561, #12312: a compaction whose request failed (500, 429, 401, prompt too long) loses the history, or keeps the error text as the summary.",
  link: "https://github.com/anthropics/claude-code/issues/57636",
  params,
  findings: ["error-became-summary", "history-lost"],
  sessions: [s1],
  mockScript: (p) =>
    conversation(
      { summary: { marker: ASKS_SUMMARY, replies: [], then: faultOf(p) }, main: { marker: MARKER, replies: [], then: text("a word") } },
      { streams: [{ stream: "summary", anyUserContains: ASKS_SUMMARY }, { stream: "main", firstUserContains: MARKER }] },
    ),
  steps: ({ turns }) => [
    start(s1, { prompt: `${MARKER} say 0` }),
    wait("the first prompt answered", resultPrinted(s1)),
    Array.from({ length: turns - 1 }, (_, i) => [send(s1, `say ${i + 1}`), wait(`turn ${i + 1} answered`, resultPrinted(s1, { count: i + 2 }))]),
    send(s1, "/compact"),
    wait("the compaction ended", resultPrinted(s1, { count: turns + 1 }), { timeout: 150_000 }),
    send(s1, "say after"),
    wait("the turn after answered", resultPrinted(s1, { count: turns + 2 })),
    stop(s1),
    wait("session 1 exited", sessionEnded(s1)),
  ],
  check(rec, p) {
    const asked = requestsOf(rec, { session: s1, stream: "summary" });
    // The trigger, from the requests: the summary request was made, and every try got the fault.
    if (asked.length === 0) return { reached: notReached("/compact made no summary request"), findings: [] };
    if (asked.some((r) => r.reply.fault === null)) return { reached: notReached("a summary request was answered without the fault"), findings: [] };
    const after = requestsOf(rec, { session: s1 }).find((r) => r.stream !== "summary" && JSON.stringify(r.messages).includes("say after"));
    if (!after) return { reached: notReached("no request carried the prompt sent after the failed compaction"), findings: [] };
    const rows = transcriptOf(rec, s1)?.rows ?? [];
    const boundaries = rows.filter((row) => row.type === "system" && row.json?.subtype === "compact_boundary");
    const summaries = rows.filter((row) => row.json?.isCompactSummary === true);
    const findings = [];
    if (boundaries.length > 0 || summaries.length > 0)
      findings.push(finding({ id: "error-became-summary", title: `no summary was served, yet the transcript records a compaction (${boundaries.length} boundary row(s), ${summaries.length} summary row(s))`, where: `transcript line ${(boundaries[0] ?? summaries[0])?.line}`, detail: summaries.map((r) => `line ${r.line}: ${r.text.slice(0, 200)}`) }));
    const body = JSON.stringify(after.messages);
    if (!body.includes(MARKER)) findings.push(finding({ id: "history-lost", title: `the request after the failed compaction no longer carries the first prompt (${after.messages.length} messages)`, where: `request #${after.seq}` }));
    const served = `${asked.length} summary request(s) (#${asked.map((r) => r.seq).join(", #")}), each ${asked[0]!.reply.fault}`;
    return { reached: reached(), findings, notes: [`fault ${p.fault}: ${served}`, `request #${after.seq} after it: ${after.messages.length} messages, first prompt ${body.includes(MARKER) ? "kept" : "gone"}`] };
  },
  // Measured 2026-12-02 and 2026-12-06: node bin/ccrepro.mjs run compact-failed --claude V [--param fault=F], one run each
  // (docs/scenarios/compact-failed.md). 500, 429 and 401 are retried past the compaction's 150 s wait on 2.1.332 (401 also on 1.0.128 and 2.1.112): INCONCLUSIVE.
  known: [
    { versions: "1.0.21 - 1.0.63", params: { fault: "400-too-long" }, verdict: "RED", finding: "history-lost", note: "the atlas, 2026-12-07 (every release sampled in the range; 1.0.21, 1.0.51, 1.0.63 re-run 3 of 3, 1.0.64 GREEN 3 of 3): the request after the failed compaction no longer carries the first prompt" },
    {
      versions: "1.0.119 || 1.0.128 || 2.0.72 || 2.1.112 || 2.1.113 || 2.1.153 || 2.1.237 || 2.1.238 || 2.1.260 || 2.1.309 || 2.1.332",
      params: { fault: "400-too-long" },
      verdict: "GREEN",
      note: "2–5 summary requests, each 400; no boundary, no summary row; the next request carries the whole conversation (7 messages); one run each (1.0.119, 2.1.237 and 2.1.332 on 2026-12-06)",
    },
  ],
  publicRecord: {
    role: "guard",
    guard:
      "the reports' trigger is a compaction failing on a real conversation near the context window (#3561, #57636), in the UI; ccrepro fails the summary request of `/compact` in a 3-turn headless session with the API's 400 prompt-too-long (500, 429 and 401 are retried past its wait), and every release measured keeps the history and records no summary.",
    releases: [
      { version: "1.0.119", says: "reported", source: "#3561" },
      { version: "2.1.237", says: "reported", source: "#57636" },
    ],
  },
  needs: ["stream-json-input"],
});
