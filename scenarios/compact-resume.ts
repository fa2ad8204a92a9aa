// After `/compact`, a `--resume` must carry on from the summary, not from the history the compaction replaced.
import { conversation, defineScenario, resultPrinted, resume, send, session, sessionEnded, start, stop, text, wait } from "../kit/index.ts";
import { finding, notReached, reached, requestsOf, transcriptOf } from "../kit/checkers.ts";

const [s1, s2] = [session("s1"), session("s2")];
const MARKER = "CCREPRO_COMPACT_FIRST_5H";
// The mock's summary carries this marker; a request whose history starts from it continues the compacted conversation.
const SUMMARY = "CCREPRO_COMPACT_SUMMARY_5H";

export default defineScenario({
  name: "compact-resume",
  summary: "A session compacted with `/compact` and then resumed sends the summary, not the history the compaction replaced.",
  source: "anthropics/claude-code#46603, #14462, #22267, #70651: after /compact and a resume, the old history comes back instead of the summary.",
  link: "https://github.com/anthropics/claude-code/issues/46603",
  findings: ["compaction-lost"],
  sessions: [s1, s2],
  // Step 0 answers the first prompt; step 1 is the summary request `/compact` makes (1.0.128's offers no tools, so it
  // is a side request there: side requests get the summary too); the compacted stream answers the rest.
  mockScript: () => {
    const summary = text(`<summary>${SUMMARY}: the user asked for one; it was given.</summary>`);
    return conversation(
      { main: { marker: MARKER, replies: [text("one"), summary], then: text("after, from the old history") }, compacted: { marker: SUMMARY, replies: [], then: text("after, from the summary") } },
      { fallback: summary },
    );
  },
  steps: () => [
    start(s1, { prompt: `${MARKER} say one` }),
    wait("turn one answered", resultPrinted(s1)),
    send(s1, "/compact"),
    wait("the compaction ended", resultPrinted(s1, { count: 2 })),
    stop(s1),
    wait("session 1 exited", sessionEnded(s1)),
    resume(s2, { from: s1, prompt: "say after" }),
    wait("the resumed turn ended", resultPrinted(s2)),
  ],
  check(rec) {
    // The trigger, from the transcript: the summary the mock served was recorded as the compacted conversation's start.
    const kept = transcriptOf(rec, s1)?.rows.some((row) => row.text.includes(SUMMARY) && row.type === "user");
    if (!kept) return { reached: notReached("session 1's transcript holds no compaction summary (was /compact run?)"), findings: [] };
    const asked = requestsOf(rec, { session: s2 }).find((r) => r.stream === "main" || r.stream === "compacted");
    if (!asked) return { reached: notReached("the resumed session sent no request of the conversation"), findings: [] };
    const findings =
      asked.stream === "main"
        ? [finding({ id: "compaction-lost", title: `the resumed request carries the history /compact replaced ("${MARKER} say one", ${asked.messages.length} messages), not the summary`, where: `request #${asked.seq}` })]
        : [];
    return { reached: reached(), findings, notes: [`resumed request #${asked.seq}: ${asked.stream}, ${asked.messages.length} messages`] };
  },
  // Not reproduced: `ccrepro run compact-resume --claude V` (2026-12-01), one run each.
  known: [
    { versions: "1.0.128 || 2.0.72 || 2.1.29 || 2.1.90 || 2.1.112 || 2.1.281 || 2.1.332", verdict: "GREEN", note: "the resumed request starts from the summary (1 message on 2.1.281 and 2.1.332, 3 on the older ones)" },
  ],
  needs: ["stream-json-input", "resume"],
});
