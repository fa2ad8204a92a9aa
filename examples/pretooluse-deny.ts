// My bug: a PreToolUse hook denies a Bash call that writes a file, and the file is written anyway.
import { answer, bash, choice, conversation, defineScenario, exit2, permission, print, session, text, z } from "ccrepro";
import { fileOf, finding, hookCallsOf, notReached, reached, requestsOf } from "ccrepro/checkers";

const MARKER = "MY_DENY_WRITE_2T";
const s1 = session("s1");
const REASON = "writes are not allowed here";

export default defineScenario({
  name: "pretooluse-deny-write",
  summary: "A PreToolUse hook that denies a Bash write keeps the file from being written, and the model is told why.",
  source: "anthropics/claude-code#95726: a PreToolUse hook's deny was not enforced.",
  link: "https://github.com/anthropics/claude-code/issues/95726",
  // How the hook denies: exit 2 with stderr, or a JSON permissionDecision; where it is declared.
  params: z.strictObject({ how: choice(["exit2", "json"], { default: "exit2" }), source: choice(["user", "project", "flag"], { default: "user" }) }),
  findings: ["denied-write-ran", "denial-not-shown"],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: MARKER, replies: [bash("echo written > sentinel.txt", "write the sentinel")], then: text("done") } }),
  hooks: (p) => ({ answer: [answer("PreToolUse", p.how === "exit2" ? exit2(REASON) : permission("deny", REASON), { matcher: "Bash" })], source: p.source }),
  settingSources: ["user", "project"],
  steps: () => [print(s1, `${MARKER} write the file`)],
  check(rec) {
    if (hookCallsOf(rec, "PreToolUse").length === 0) return { reached: notReached("the PreToolUse hook never ran"), findings: [] };
    const next = requestsOf(rec, { stream: "main" }).find((r) => r.toolResults.length > 0);
    if (!next) return { reached: notReached("no request carried the Bash call's result"), findings: [] };
    const findings = [];
    if (fileOf(rec, "sentinel.txt") !== null) findings.push(finding({ id: "denied-write-ran", title: "the hook denied the write, but sentinel.txt exists", where: "working directory at the end" }));
    if (!next.toolResults.some((r) => r.text.includes(REASON))) {
      findings.push(finding({ id: "denial-not-shown", title: "the tool result does not carry the hook's reason", where: `request #${next.seq}` }));
    }
    return { reached: reached(), findings };
  },
});
