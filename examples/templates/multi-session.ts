// template-multi-session: what goes wrong, in one line. Run it: ccrepro run ./template-multi-session.ts --claude latest
// Two sessions of one project: the second resumes the first and must carry its history.
import { conversation, defineScenario, print, session, text } from "ccrepro";
import { finding, initOf, notReached, reached, requestsOf } from "ccrepro/checkers";

const MARKER = "TEMPLATE_MULTI_1";
const [first, second] = [session("first"), session("second")];

export default defineScenario({
  name: "template-multi-session",
  summary: "A `claude -p --resume` turn sends the earlier session's history with its own prompt.",
  source: "Describe the bug here, with the upstream issue it was reported in.",
  findings: ["history-missing"],
  sessions: [first, second],
  mockScript: () => conversation({ main: { marker: MARKER, replies: [text("one")], then: text("two") } }),
  // Every session of a run shares the working, config and home directories, so --resume and --continue find each other.
  steps: () => [print(first, `${MARKER} say one`), print(second, "now say two", { resume: first })],
  check(rec) {
    const resumed = requestsOf(rec, { stream: "main", session: second })[0];
    if (!initOf(rec, first) || !resumed) return { reached: notReached("the resumed session sent no request of the conversation"), findings: [] };
    const findings = resumed.messages.length >= 3 ? [] : [finding({ id: "history-missing", title: `the resumed request has ${resumed.messages.length} messages, not the earlier turn and the new prompt`, where: `request #${resumed.seq}` })];
    return { reached: reached(), findings };
  },
  needs: ["stream-json-output", "resume"],
});
