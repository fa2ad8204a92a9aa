// My bug: `claude -p --max-turns N` makes more model calls than N, or ends without saying the limit stopped it.
import { bash, conversation, count, defineScenario, print, session, z } from "ccrepro";
import { finding, notReached, reached, requestsOf, resultOf } from "ccrepro/checkers";

const MARKER = "MY_MAX_TURNS_3Q";
const s1 = session("s1");

export default defineScenario({
  name: "max-turns-count",
  summary: "`claude -p --max-turns N` makes at most N model calls and ends with an error_max_turns result.",
  source: "anthropics/claude-code#32956: --max-turns miscounted in headless runs.",
  link: "https://github.com/anthropics/claude-code/issues/32956",
  params: z.strictObject({ maxTurns: count({ default: 2, min: 1, max: 20 }) }),
  findings: ["max-turns-overrun", "max-turns-unreported"],
  sessions: [s1],
  // The model never stops asking for a tool: only the limit can end the loop.
  mockScript: () => conversation({ main: { marker: MARKER, replies: [], then: bash("echo again", "one more turn") } }),
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
    return { reached: reached(), findings, notes: [`${made.length} main requests; result ${result.subtype} is_error=${result.is_error} num_turns=${result.num_turns}`] };
  },
  needs: ["stream-json-output"],
});
