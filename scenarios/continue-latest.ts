// `claude -p --continue`, after two `-p` sessions in one project, must carry on the newer one with its history.
import { conversation, defineScenario, print, session, text } from "../kit/index.ts";
import { checkContinued, continuedRequest, CONTINUED_FINDINGS, initOf, notReached, reached, requestsOf } from "../kit/checkers.ts";

const [first, second, continued] = [session("first"), session("second"), session("continued")];
const FIRST = "CCREPRO_CONT_FIRST_4T";
const SECOND = "CCREPRO_CONT_SECOND_4T";
// The continued prompt's own marker: a request whose first user message is this prompt continued nothing.
const THIRD = "CCREPRO_CONT_THIRD_4T";
const STREAMS = { older: "first", newer: "second", fresh: "fresh" };

export default defineScenario({
  name: "continue-latest",
  summary: "`claude -p --continue` continues the most recent conversation of the project, with its history.",
  source:
    "anthropics/claude-code#43013 (2.1.90: `claude --continue -p` no longer finds a session started with `-p` and silently starts a new one), " +
    "#85657, #86092, #82536, #28463: --continue picks the wrong session, or none.",
  link: "https://github.com/anthropics/claude-code/issues/43013",
  findings: [...CONTINUED_FINDINGS],
  sessions: [first, second, continued],
  mockScript: () =>
    conversation({
      first: { marker: FIRST, replies: [text("one")] },
      second: { marker: SECOND, replies: [text("two")], then: text("three") },
      fresh: { marker: THIRD, replies: [text("three, from nothing")] },
    }),
  steps: () => [print(first, `${FIRST} say one`), print(second, `${SECOND} say two`), print(continued, `${THIRD} and now say three`, { continueLatest: true })],
  check(rec) {
    const [older, newer, now] = [initOf(rec, first), initOf(rec, second), initOf(rec, continued)];
    if (!older || !newer || !now) return { reached: notReached("a session printed no system/init line"), findings: [] };
    const asked = continuedRequest(requestsOf(rec, { session: continued }), THIRD, STREAMS);
    if (!asked) return { reached: notReached("the continued session sent no main-loop request"), findings: [] };
    const where = `request #${asked.seq} (session id ${now.session_id})`;
    const findings = checkContinued(asked, STREAMS, { older: older.session_id, newer: newer.session_id }, `${SECOND} say two`, where);
    const kept = now.session_id === newer.session_id ? "the second's" : now.session_id === older.session_id ? "the first's" : "a new one";
    return { reached: reached(), findings, notes: [`session ids: first ${older.session_id}, second ${newer.session_id}, continued ${now.session_id} (${kept})`] };
  },
  // `ccrepro bisect continue-latest --old 2.1.80 --new 2.1.90` and `--old 2.1.94 --new 2.1.112`, then
  // `ccrepro run continue-latest --claude V --repeat 5` on each side (2026-12-01).
  known: [
    { versions: "1.0.128 || 2.1.89 || 2.1.112 || 2.1.281 || 2.1.332", verdict: "GREEN", note: "measured: the continued run keeps the second session's id and carries its turn" },
    {
      versions: ">=2.0.19 <=2.0.27",
      verdict: "RED",
      finding: "history-missing",
      note: "the atlas (2026-12-07); 2.0.15, 2.0.19, 2.0.27, 2.0.28 re-run 3 of 3 each: the second session's id is kept, but the continued request carries the subagent's Warmup exchange its transcript holds, not the second's turn",
    },
    { versions: ">=2.1.90 <2.1.101", verdict: "RED", finding: "continued-nothing", note: "bisected (first RED 2.1.90, last RED 2.1.100; 5 of 5 runs on each side): a new session id, a request with only the new prompt" },
  ],
  publicRecord: {
    role: "reproduction",
    releases: [{ version: "2.1.90", says: "reported", source: "#43013" }],
  },
  needs: ["stream-json-output", "resume"],
});
