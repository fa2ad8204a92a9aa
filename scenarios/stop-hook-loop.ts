// A Stop (or SubagentStop) hook that always blocks keeps claude going: the loop must end, say so, and tell the hook
// it is continuing (anthropics/claude-code#43906, #85917, #78121).
import { allOf, allow, answer, bash, block, choice, context, conversation, count, defineScenario, exit2, hookCalled, anyOf, quietFor, resultPrinted, session, start, stop, subagent, text, wait, z } from "../kit/index.ts";
import { finding, hookCallsOf, notReached, reached, requestsOf, resultOf, systemLinesOf } from "../kit/checkers.ts";

const MARKER = "STOP_LOOP_5R";
const SUB = "STOP_LOOP_SUB_5R";
const REASON = "not yet: keep going";
const s1 = session("s1");
const HOOKS = { block: block(REASON), exit2: exit2(REASON), silent: allow(), context: context("the build is green") };

export default defineScenario({
  name: "stop-hook-loop",
  summary: "Guard: a Stop hook that always blocks is capped, the cap is reported, and a hook that does not block ends the turn (the reports' triggers, a silent hook and /goal, are not the default here).",
  source: "anthropics/claude-code#43906, #85917, #78121: a Stop hook that always blocks makes claude loop without end.",
  link: "https://github.com/anthropics/claude-code/issues/43906",
  params: z.strictObject({
    event: choice(["Stop", "SubagentStop"], { default: "Stop" }),
    // How the hook answers every call: a JSON block, exit 2, exit 0 silently, or exit 0 adding context (which continues too).
    hook: choice(["block", "exit2", "silent", "context"], { default: "block" }),
    // More continuations than this is "without end" (2.1.332 stops after 9 blocks); the run stops watching at cap + 2.
    cap: count({ default: 10, min: 1, max: 50 }),
  }),
  findings: ["stop-loop-uncapped", "stop-cap-unreported", "stop-hook-active-missing", "stop-continued-unblocked"],
  sessions: [s1],
  // Stop: the main loop runs one command and ends its turn; SubagentStop: a subagent does, launched by the main loop.
  mockScript: (p) =>
    p.event === "Stop"
      ? conversation({ main: { marker: MARKER, replies: [bash("echo working", "work")], then: text("done") } })
      : conversation({
          main: { marker: MARKER, replies: [subagent(`${SUB} do the subtask`, "worker")], then: text("done") },
          sub: { marker: SUB, replies: [bash("echo working", "work")], then: text("subtask done") },
        }),
  hooks: (p) => ({ answer: [answer(p.event, HOOKS[p.hook])] }),
  steps: (p) => [
    ...start(s1, { prompt: `${MARKER} do the work` }),
    // Ended: the hook ran, a result was printed and nothing happened for 3 s (a subagent may stop after the main turn).
    wait("the turn ended or the loop passed the cap", anyOf(hookCalled(p.event, { count: p.cap + 2 }), allOf(hookCalled(p.event), resultPrinted(s1), quietFor(3000))), { timeout: 90_000 }),
    stop(s1),
  ],
  check(rec, p) {
    const calls = hookCallsOf(rec, p.event);
    if (calls.length === 0) return { reached: notReached(`the ${p.event} hook never ran`), findings: [] };
    // Every request of the hook's stream after its first call is a continuation the hook forced.
    const continued = requestsOf(rec, { stream: p.event === "Stop" ? "main" : "sub" }).filter((r) => r.receivedAt > calls[0]!.t);
    const result = resultOf(rec, s1);
    const capNotice = systemLinesOf(rec, s1, "notification").find((n) => n.key === "stop-hook-block-cap");
    // additionalContext on Stop continues the turn by design, under the same cap (the hooks docs); only "silent" lets it end.
    const blocks = p.hook !== "silent";
    const where = continued.length ? `requests #${continued[0]!.seq}–#${continued.at(-1)!.seq}` : "no request after the first call";
    const findings = [];
    if (!blocks && continued.length > 0) findings.push(finding({ id: "stop-continued-unblocked", title: `claude continued ${continued.length} times for a ${p.event} hook that exited 0 silently`, where }));
    if (blocks && continued.length > p.cap) findings.push(finding({ id: "stop-loop-uncapped", title: `claude continued ${continued.length} times for a ${p.event} hook that always blocks`, where }));
    else if (blocks && result && !capNotice) findings.push(finding({ id: "stop-cap-unreported", title: `the loop ended after ${continued.length} continuations with no stop-hook-block-cap notification`, where: `s1 stdout up to line ${result.line}` }));
    const unflagged = blocks ? calls.slice(1).filter((call) => call.payload.stop_hook_active !== true) : [];
    if (unflagged.length > 0) findings.push(finding({ id: "stop-hook-active-missing", title: `a ${p.event} hook called again after a block was not told stop_hook_active`, where: `${unflagged.length} of ${calls.length - 1} later calls` }));
    const ended = result !== null || continued.length > p.cap;
    const notes = [`${p.event} calls: ${calls.length}, continuations: ${continued.length}; result: ${result?.subtype ?? "none"}; cap notice: ${capNotice ? `line ${capNotice.line}` : "none"}`];
    return { reached: ended ? reached() : notReached("the turn neither ended nor passed the cap"), findings, notes };
  },
  // ccrepro bisect stop-hook-loop --old 2.1.112 --new 2.1.211 --finding stop-loop-uncapped; … --old 2.1.233 --new 2.1.281
  known: [
    { versions: "1.0.67 - 2.1.142", params: { event: "Stop", hook: "block" }, verdict: "RED", finding: "stop-loop-uncapped", note: "no cap: 12 blocks and counting when the run stops watching (2.1.76, 2.1.112, 2.1.142)" },
    { versions: ">=2.1.143 <2.1.281", params: { event: "Stop", hook: "block" }, verdict: "RED", finding: "stop-cap-unreported", note: "ended after 9 blocks (8 continuations), result success, no stop-hook-block-cap notification (2.1.143, 2.1.211, 2.1.233, 2.1.280)" },
    { versions: ">=2.1.281", params: { event: "Stop", hook: "block" }, verdict: "GREEN", note: "9 blocks, then system/notification stop-hook-block-cap and an informational warning naming CLAUDE_CODE_STOP_HOOK_BLOCK_CAP (2.1.281, 2.1.332)" },
    { versions: "1.0.53 - 1.0.66", params: { event: "Stop", hook: "block" }, verdict: "INCONCLUSIVE", note: "the Stop hook never ran (the atlas, 2026-12-07: 1.0.53, 1.0.54, 1.0.56, 1.0.64, 1.0.66)" },
    { versions: ">=1.0.67", params: { event: "Stop", hook: "silent" }, verdict: "GREEN", note: "one call, the turn ends, no continuation: #43906's trigger (a hook exiting 0 with no output) does not loop, before the cap (2.1.142, 2026-12-06) or after it (2.1.332; the atlas, 2026-12-07, every release from 1.0.67, 70 measured)" },
    { versions: "1.0.53 - 1.0.66", params: { event: "Stop", hook: "silent" }, verdict: "INCONCLUSIVE", note: "the Stop hook never ran (the atlas, 2026-12-07: 8 releases measured)" },
    { versions: ">=2.1.143", params: { event: "SubagentStop", hook: "block" }, verdict: "RED", finding: "stop-cap-unreported", note: "the subagent's loop ends after 9 blocks too, with no notification on the session's stdout (2.1.332; the atlas, 2026-12-07, every release from 2.1.143, 30 measured, after 2.1.281 too)" },
    { versions: "1.0.67 - 2.0.15 || 2.1.6 - 2.1.142", params: { event: "SubagentStop", hook: "block" }, verdict: "RED", finding: "stop-loop-uncapped", note: "no cap on the subagent's loop either (the atlas, 2026-12-07: 35 releases measured; each side of its edges re-run 3 of 3)" },
    { versions: "2.0.19 - 2.1.5", params: { event: "SubagentStop", hook: "block" }, verdict: "RED", finding: "stop-hook-active-missing", note: "the SubagentStop hook is called again after a block without stop_hook_active (3 of 11 later calls on 2.1.3), so a hook cannot tell a repeat from a first stop; it is called 12 times, but the mock files the subagent's continuations on these releases as side requests, so the loop's length is not judged (the atlas, 2026-12-07: 17 releases measured; 2.0.15, 2.0.19, 2.1.5 and 2.1.6 re-run 3 of 3)" },
    { versions: "1.0.53 - 1.0.66", params: { event: "SubagentStop", hook: "block" }, verdict: "INCONCLUSIVE", note: "the SubagentStop hook never ran (the atlas, 2026-12-07)" },
  ],
  publicRecord: {
    role: "guard",
    guard:
      "#43906's trigger is a Stop hook that exits 0 with no output (here hook=silent, GREEN on 2.1.142 and 2.1.332; the report names no release); #78121's is /goal's own Stop hook on 2.1.211. " +
      "This scenario exercises a user Stop hook that always blocks: on 2.1.211 it loops 9 times, as #78121 saw, and ends with no notice (stop-cap-unreported).",
    releases: [
      { version: "2.1.211", says: "reported", source: "#78121", params: { event: "Stop", hook: "block" } },
    ],
  },
  timeoutMs: 150_000,
});
