// `claude -p --max-turns N` must make at most N model calls and end with a result an orchestrator reads as the limit:
// subtype error_max_turns and is_error true (anthropics/claude-code#32956).
import { bash, conversation, count, defineScenario, print, session, text, z } from "../kit/index.ts";
import { finding, notReached, reached, requestsOf, resultOf } from "../kit/checkers.ts";

const MARKER = "MAX_TURNS_3Q";
const SUMMARY = "MAX_TURNS_SUMMARY_3Q";
// The instruction every release's summary request carries (scenarios/compact-twice.ts); it routes that request.
const ASKS_SUMMARY = "create a detailed summary of the conversation";
// Model calls of the loop: the main stream's and, after a compaction, those whose history starts at the summary.
const loopRequests = (rec: Parameters<typeof requestsOf>[0]) => requestsOf(rec).filter((r) => r.stream === "main" || r.stream === "compacted");
const s1 = session("s1");

export default defineScenario({
  name: "max-turns-count",
  summary: "Guard: `claude -p --max-turns N` makes at most N model calls, also across a compaction (the report's overrun is not reproduced), and ends with an error_max_turns result flagged is_error.",
  source: "anthropics/claude-code#32956 (2.1.72): a headless run went far beyond --max-turns, around a compaction.",
  link: "https://github.com/anthropics/claude-code/issues/32956",
  // calls: Bash calls per reply, made in parallel (callers found num_turns counting tool results).
  // compactAt: the reply to that model call (1-based; 0: none) reports 190 000 input tokens, so claude auto-compacts
  // mid-loop (the report's overrun came around a compaction).
  params: z.strictObject({ maxTurns: count({ default: 2, min: 1, max: 20 }), calls: count({ default: 1, min: 1, max: 5 }), compactAt: count({ default: 0, min: 0, max: 20 }) }),
  findings: ["max-turns-overrun", "max-turns-unreported", "max-turns-not-flagged"],
  sessions: [s1],
  // The model never stops asking for a tool: only the limit can end the loop.
  mockScript: (p) => {
    const again = { content: Array.from({ length: p.calls }, (_, i) => bash(`echo again ${i}`, "one more turn").content ?? []).flat() };
    if (p.compactAt === 0) return conversation({ main: { marker: MARKER, replies: [], then: again } });
    const replies = Array.from({ length: p.compactAt }, (_, i) => (i === p.compactAt - 1 ? { ...again, usage: { input_tokens: 190_000, output_tokens: 50 } } : again));
    return conversation(
      { summary: { marker: ASKS_SUMMARY, replies: [], then: text(`<summary>${SUMMARY}: the user asked to keep going; tools were called.</summary>`) }, main: { marker: MARKER, replies, then: again }, compacted: { marker: SUMMARY, replies: [], then: again } },
      { streams: [{ stream: "summary", anyUserContains: ASKS_SUMMARY }, { stream: "compacted", firstUserContains: SUMMARY }, { stream: "main", firstUserContains: MARKER }] },
    );
  },
  steps: (p) => [print(s1, `${MARKER} keep going`, { args: ["--max-turns", String(p.maxTurns)] })],
  check(rec, p) {
    const result = resultOf(rec, s1);
    if (!result) return { reached: notReached("claude -p printed no result"), findings: [] };
    const made = loopRequests(rec);
    const summaries = requestsOf(rec, { stream: "summary" }).length;
    // Asked for a compaction inside the limit, the run means nothing unless claude compacted.
    if (p.compactAt > 0 && summaries === 0) return { reached: notReached(`claude never asked for a summary after call ${p.compactAt} reported 190 000 input tokens`), findings: [] };
    const findings = [];
    if (made.length > p.maxTurns) {
      findings.push(finding({ id: "max-turns-overrun", title: `${made.length} model calls for --max-turns ${p.maxTurns}`, where: `requests ${made.map((r) => `#${r.seq}`).join(", ")}` }));
    }
    if (result.subtype !== "error_max_turns") {
      findings.push(finding({ id: "max-turns-unreported", title: `the result says ${result.subtype}, not error_max_turns`, where: `s1 stdout line ${result.line}` }));
    }
    // An orchestrator that checks is_error (as the Agent SDK's callers do) takes an unflagged limit for success.
    if (result.subtype === "error_max_turns" && result.is_error !== true) {
      findings.push(finding({ id: "max-turns-not-flagged", title: `the limit ended the run but the result says is_error=${result.is_error} (errors: ${JSON.stringify(result.errors ?? [])})`, where: `s1 stdout line ${result.line}` }));
    }
    return { reached: reached(), findings, notes: [`${made.length} main requests${p.compactAt > 0 ? ` (${summaries} summary requests besides)` : ""}; result ${result.subtype} is_error=${result.is_error} num_turns=${result.num_turns} terminal_reason=${result.terminal_reason ?? "none"}`] };
  },
  // ccrepro bisect max-turns-count --old 2.1.72 --new 2.1.112; ccrepro run max-turns-count --claude V --repeat 5 --param maxTurns=N
  known: [
    { versions: "0.2.118 - 2.1.87", verdict: "RED", finding: "max-turns-not-flagged", note: "N requests, error_max_turns with is_error false and errors []; measured 1.0.128 (num_turns N), 2.1.72 (N = 1, 2, 5; num_turns N + 1), 2.1.87" },
    // ccrepro run max-turns-count --claude V --param maxTurns=5 --param compactAt=2 (--repeat 3 on 2.1.72)
    // The atlas (2026-12-07): every release, INCONCLUSIVE 0.2.70 - 1.0.64 (no summary asked for, or no result).
    { versions: "1.0.65 - 2.1.87", params: { maxTurns: 5, compactAt: 2 }, verdict: "RED", finding: "max-turns-not-flagged", note: "claude compacts after call 2 (one summary request), then the loop goes on from the summary and stops at 5 loop calls: no overrun; error_max_turns, is_error false, num_turns 6 (2.1.72, 4 runs)" },
    { versions: "2.1.88 - 2.1.152", params: { maxTurns: 5, compactAt: 2 }, verdict: "GREEN", note: "compacts after call 2 (one summary request), stops at 5 loop calls, is_error true, num_turns 6 (2.1.88, and the atlas on every release to 2.1.152; 2.1.87 and 2.1.88 re-run 3 of 3)" },
    { versions: ">=2.1.153", params: { maxTurns: 5, compactAt: 2 }, verdict: "INCONCLUSIVE", note: "no summary request: from 2.1.153 claude does not auto-compact on a reply that reports 190 000 input tokens (2.1.332, and the atlas on every release)" },
    { versions: ">=2.1.88", verdict: "GREEN", note: "N requests, is_error true, num_turns N + 1; errors name the limit from 2.1.112; measured 2.1.88, 2.1.112, 2.1.176–2.1.178, 2.1.281, 2.1.332 with N = 1, 2, 5; calls=3 alike on 2.1.176–2.1.178, 2.1.332" },
  ],
  publicRecord: {
    role: "guard",
    guard:
      "#32956's trigger is a long headless run that passed --max-turns by far around a compaction; here claude compacts inside the limit (compactAt) and still stops at N calls on 2.1.72, so the overrun is not reproduced: max-turns-overrun guards it. " +
      "The RED on 2.1.72 is another finding of the same run, max-turns-not-flagged (the limit's result says is_error false).",
    releases: [{ version: "2.1.72", says: "reported", source: "#32956", params: { maxTurns: 5, compactAt: 2 } }],
  },
  needs: ["stream-json-output"],
});
