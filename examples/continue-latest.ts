// My bug: after two `claude -p` sessions in one project, `claude -p --continue` picks the older one (or none).
import { conversation, defineScenario, print, session, text } from "ccrepro";
import { finding, initOf, notReached, reached, requestsOf } from "ccrepro/checkers";

const [first, second, continued] = [session("first"), session("second"), session("continued")];
const FIRST = "MY_CONTINUE_FIRST_8V";
const SECOND = "MY_CONTINUE_SECOND_8V";

export default defineScenario({
  name: "continue-latest",
  summary: "`claude -p --continue` continues the most recent session of the project, with its history.",
  source: "anthropics/claude-code#85657: --continue picked the wrong session after several -p runs.",
  link: "https://github.com/anthropics/claude-code/issues/85657",
  findings: ["continued-wrong-session", "history-missing"],
  sessions: [first, second, continued],
  // Each session's first prompt carries its marker; the continued one's requests quote the second's history.
  mockScript: () => conversation({ first: { marker: FIRST, replies: [text("one")] }, second: { marker: SECOND, replies: [text("two")], then: text("three") } }, { fallback: { content: [{ type: "text", text: "side" }] } }),
  steps: () => [print(first, `${FIRST} say one`), print(second, `${SECOND} say two`), print(continued, "and now say three", { continueLatest: true })],
  check(rec) {
    const [older, newer, now] = [initOf(rec, first), initOf(rec, second), initOf(rec, continued)];
    if (!older || !newer || !now) return { reached: notReached("a session printed no init line"), findings: [] };
    const asked = requestsOf(rec, { session: continued }).filter((r) => r.stream !== "side");
    if (asked.length === 0) return { reached: notReached("the continued session sent no request of either conversation"), findings: [] };
    const findings = [];
    if (asked[0]!.stream !== "second") {
      findings.push(finding({ id: "continued-wrong-session", title: `--continue carried on the ${asked[0]!.stream} conversation, not the most recent one`, where: `request #${asked[0]!.seq}` }));
    }
    if (asked[0]!.messages.length < 3) {
      findings.push(finding({ id: "history-missing", title: `the continued request has ${asked[0]!.messages.length} messages, not the earlier turn and the new prompt`, where: `request #${asked[0]!.seq}` }));
    }
    return { reached: reached(), findings, notes: [`sessions: first ${older.session_id}, second ${newer.session_id}, continued ${now.session_id}`] };
  },
  needs: ["stream-json-output", "resume"],
});
