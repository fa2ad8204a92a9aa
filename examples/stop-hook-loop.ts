// My bug: a Stop hook that always blocks keeps claude going forever; it should end the loop and say so.
import { answer, block, bash, conversation, count, defineScenario, print, session, text, z } from "ccrepro";
import { finding, hookCallsOf, notReached, reached, requestsOf, resultOf } from "ccrepro/checkers";

const MARKER = "MY_STOP_LOOP_5R";
const s1 = session("s1");

export default defineScenario({
  name: "stop-hook-loop",
  summary: "With a Stop hook that always blocks, claude -p ends the loop after a bounded number of continuations.",
  source: "anthropics/claude-code#43906: a Stop hook that always blocks makes claude loop without end.",
  link: "https://github.com/anthropics/claude-code/issues/43906",
  // More continuations than this is "without end" for the check (2.1.332 stops after 9 blocks and says so).
  params: z.strictObject({ cap: count({ default: 10, min: 1, max: 50 }) }),
  findings: ["stop-loop-uncapped", "stop-hook-active-missing"],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: MARKER, replies: [bash("echo working", "work")], then: text("done") } }),
  hooks: { answer: [answer("Stop", block("not yet: keep going"))] },
  steps: () => [print(s1, `${MARKER} do the work`, { timeout: 90_000 })],
  check(rec, p) {
    const stops = hookCallsOf(rec, "Stop");
    if (stops.length === 0) return { reached: notReached("the Stop hook never ran"), findings: [] };
    // Every request after the first Stop call is a continuation the hook forced.
    const continued = requestsOf(rec, { stream: "main" }).filter((r) => r.receivedAt > stops[0]!.t);
    const findings = [];
    if (continued.length > p.cap) {
      findings.push(finding({ id: "stop-loop-uncapped", title: `claude continued ${continued.length} times for a Stop hook that always blocks`, where: `requests #${continued[0]!.seq}–#${continued.at(-1)!.seq}` }));
    }
    const unflagged = stops.slice(1).filter((call) => call.payload.stop_hook_active !== true);
    if (unflagged.length > 0) {
      findings.push(finding({ id: "stop-hook-active-missing", title: "a Stop hook called after a block was not told stop_hook_active", where: `${unflagged.length} of ${stops.length - 1} later calls` }));
    }
    const result = resultOf(rec, s1);
    return { reached: result || findings.length ? reached() : notReached("claude -p ended without a result"), findings, notes: [`Stop hook calls: ${stops.length}, continuations: ${continued.length}; result: ${result?.subtype ?? "none"}`] };
  },
});
