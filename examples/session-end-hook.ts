// anthropics/claude-code#79702: a SessionEnd hook must run when `claude -p` exits. The reporter's own hook command
// touches a marker in the project; `hookSeconds` makes it sleep first, to see how long an exiting claude waits for it;
// `hookTimeout` gives the hook a `timeout` in seconds (0: none, as in the report, so claude's own default applies).
import { answer, conversation, count, defineScenario, milliseconds, print, session, shell, text, z } from "ccrepro";
import { exitOf, fileOf, finding, hookCallsOf, notReached, reached, resultOf } from "ccrepro/checkers";

const s1 = session("s1");
const MARKER = "marker-SessionEnd";

export default defineScenario({
  name: "session-end-hook",
  summary: "A SessionEnd hook (the user's own command) runs to its end when `claude -p` exits.",
  source: "anthropics/claude-code#79702: SessionEnd hooks do not run on a -p exit (reported on 2.1.216).",
  link: "https://github.com/anthropics/claude-code/issues/79702",
  params: z.strictObject({ hookSeconds: milliseconds({ default: 0, max: 30_000 }), hookTimeout: count({ default: 0, min: 0, max: 600 }) }),
  findings: ["session-end-hook-skipped", "session-end-hook-cut"],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: "SESSION_END_79702", replies: [text("done")] } }),
  hooks: (p) => ({ answer: [answer("SessionEnd", shell(`sleep ${p.hookSeconds / 1000}; touch "$CLAUDE_PROJECT_DIR/${MARKER}"`), p.hookTimeout ? { timeout: p.hookTimeout } : {})] }),
  steps: () => [print(s1, "SESSION_END_79702 say done")],
  check(rec) {
    if (!resultOf(rec, s1) || exitOf(rec, s1)?.exitCode !== 0) return { reached: notReached("claude -p did not print a result and exit 0"), findings: [] };
    const [call] = hookCallsOf(rec, "SessionEnd");
    if (!call) return { reached: reached(), findings: [finding({ id: "session-end-hook-skipped", title: "claude -p exited without calling its SessionEnd hook", where: "the hook log" })] };
    const marked = fileOf(rec, MARKER) !== null;
    const note = `SessionEnd called (reason ${call.payload.reason ?? "none"}); the hook exited ${call.answer?.exitCode}${call.answer?.signal ? `, ended by SIG${call.answer.signal}` : ""}; marker ${marked ? "written" : "missing"}`;
    if (call.answer?.signal || !marked) return { reached: reached(), findings: [finding({ id: "session-end-hook-cut", title: "claude exited before its SessionEnd hook finished", where: note })], notes: [note] };
    return { reached: reached(), findings: [], notes: [note] };
  },
  needs: ["stream-json-output", "hook:SessionEnd"],
});
