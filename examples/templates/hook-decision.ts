// template-hook-decision: what goes wrong, in one line. Run it: ccrepro run ./template-hook-decision.ts --claude latest
// A hook that answers: PreToolUse blocks a Bash call (exit 2); the model must be told, and the call must not run.
import { answer, bash, conversation, defineScenario, exit2, print, session, text } from "ccrepro";
import { fileOf, finding, hookCallsOf, notReached, reached, requestsOf } from "ccrepro/checkers";

const MARKER = "TEMPLATE_HOOK_1";
const REASON = "blocked by the template's hook";
const s1 = session("s1");

export default defineScenario({
  name: "template-hook-decision",
  summary: "A PreToolUse hook that exits 2 stops the Bash call, and the next request tells the model why.",
  source: "Describe the bug here, with the upstream issue it was reported in.",
  findings: ["blocked-call-ran", "reason-not-shown"],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: MARKER, replies: [bash("echo ran > ran.txt", "write a file")], then: text("done") } }),
  // Other answers: allow(), block(reason), permission("deny" | "ask" | "allow", reason), context(text), a list by call index.
  // `source: "project" | "flag"` declares the hook in .claude/settings.json or with --settings instead of the user settings.
  hooks: { answer: [answer("PreToolUse", exit2(REASON), { matcher: "Bash" })] },
  steps: () => [print(s1, `${MARKER} write the file`)],
  check(rec) {
    const next = requestsOf(rec, { stream: "main" }).find((r) => r.toolResults.length > 0);
    if (hookCallsOf(rec, "PreToolUse").length === 0 || !next) return { reached: notReached("the hook never ran, or no request carried the call's result"), findings: [] };
    const findings = [];
    if (fileOf(rec, "ran.txt") !== null) findings.push(finding({ id: "blocked-call-ran", title: "the hook blocked the call, but ran.txt exists", where: "working directory at the end" }));
    if (!next.toolResults.some((r) => r.text.includes(REASON))) findings.push(finding({ id: "reason-not-shown", title: "the tool result lacks the hook's reason", where: `request #${next.seq}` }));
    return { reached: reached(), findings };
  },
});
