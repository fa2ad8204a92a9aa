// `claude -p --max-turns N` must make at most N model calls and end with a result an orchestrator reads as the limit:
// subtype error_max_turns and is_error true (anthropics/claude-code#32956).
import { bash, conversation, count, defineScenario, print, session, z } from "../kit/index.ts";
import { finding, notReached, reached, requestsOf, resultOf } from "../kit/checkers.ts";

const MARKER = "MAX_TURNS_3Q";
const s1 = session("s1");

export default defineScenario({
  name: "max-turns-count",
  summary: "`claude -p --max-turns N` makes at most N model calls and ends with an error_max_turns result flagged is_error.",
  source: "anthropics/claude-code#32956: --max-turns miscounted in headless runs.",
  link: "https://github.com/anthropics/claude-code/issues/32956",
  // calls: Bash calls per reply, made in parallel (callers found num_turns counting tool results).
  params: z.strictObject({ maxTurns: count({ default: 2, min: 1, max: 20 }), calls: count({ default: 1, min: 1, max: 5 }) }),
  findings: ["max-turns-overrun", "max-turns-unreported", "max-turns-not-flagged"],
  sessions: [s1],
  // The model never stops asking for a tool: only the limit can end the loop.
  mockScript: (p) => conversation({ main: { marker: MARKER, replies: [], then: { content: Array.from({ length: p.calls }, (_, i) => bash(`echo again ${i}`, "one more turn").content ?? []).flat() } } }),
  steps: (p) => [print(s1, `${MARKER} keep going`, { args: ["--max-turns", String(p.maxTurns)] })],
  check(rec, p) {
    const result = resultOf(rec, s1);
    if (!result) return { reached: notReached("claude -p printed no result"), findings: [] };
    const made = requestsOf(rec, { stream: "main" });
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
    return { reached: reached(), findings, notes: [`${made.length} main requests; result ${result.subtype} is_error=${result.is_error} num_turns=${result.num_turns} terminal_reason=${result.terminal_reason ?? "none"}`] };
  },
  // ccrepro bisect max-turns-count --old 2.1.72 --new 2.1.112; ccrepro run max-turns-count --claude V --repeat 5 --param maxTurns=N
  known: [
    { versions: "<=2.1.87", verdict: "RED", finding: "max-turns-not-flagged", note: "N requests, error_max_turns with is_error false and errors []; measured 1.0.128 (num_turns N), 2.1.72 (N = 1, 2, 5; num_turns N + 1), 2.1.87" },
    { versions: ">=2.1.88", verdict: "GREEN", note: "N requests, is_error true, num_turns N + 1; errors name the limit from 2.1.112; measured 2.1.88, 2.1.112, 2.1.176–2.1.178, 2.1.281, 2.1.332 with N = 1, 2, 5; calls=3 alike on 2.1.176–2.1.178, 2.1.332" },
  ],
  needs: ["stream-json-output"],
});
