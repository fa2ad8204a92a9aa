// After `/compact`, a `--resume` must carry on from the summary, not from the history the compaction replaced.
import { allOf, conversation, defineScenario, press, quietFor, resultPrinted, resume, screenWait, send, session, sessionEnded, start, stop, terminal, text, type, wait, type Condition, type StepContext } from "../kit/index.ts";
import { finding, notReached, reached, requestsOf, transcriptOf, transcriptsOf } from "../kit/checkers.ts";

const [s1, s2] = [session("s1"), session("s2")];
const MARKER = "CCREPRO_COMPACT_FIRST_5H";
// The mock's summary carries this marker; a request whose history starts from it continues the compacted conversation.
const SUMMARY = "CCREPRO_COMPACT_SUMMARY_5H";
// The terminal driver names session 1 itself (`--session-id`), so the second UI can `--resume` it by that id.
const ID = "5a1c0e2d-7b3f-4c8e-9d1a-2f6e8b4c0d7a";
// Session s's conversation requests (main or compacted) that were answered: n of them, then a quiet spell for the UI's writes.
const answered = (s: typeof s1 | typeof s2, n: number): Condition => allOf((rec) => requestsOf(rec, { session: s }).filter((r) => (r.stream === "main" || r.stream === "compacted") && rec.responseEnds.has(r.seq)).length >= n, quietFor(2_000));
// The instruction every release's summary request carries; in the UI that request offers no Bash, so it is a side request.
const ASKS_SUMMARY = "create a detailed summary of the conversation";
const summarised: Condition = allOf((rec) => requestsOf(rec, { session: s1 }).some((r) => rec.responseEnds.has(r.seq) && JSON.stringify(r.messages).includes(ASKS_SUMMARY)), quietFor(3_000));

export default defineScenario({
  name: "compact-resume",
  summary: "Guard: a session compacted with `/compact` and then resumed sends the summary, not the history the compaction replaced.",
  source: "anthropics/claude-code#14462 (2.0.72: /compact, Ctrl-C twice, `claude --resume` went back to the pre-compaction state), #46603, #22267: after /compact and a resume, the old history comes back instead of the summary.",
  link: "https://github.com/anthropics/claude-code/issues/14462",
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
  // headless: `-p` stream-json, `/compact` pushed on stdin, stdin closed, then `--resume` headless. terminal: #14462's
  // own trigger, in the interactive UI: the prompt, `/compact`, Ctrl-C twice, then a second UI `--resume`s it.
  steps: (_p, { driver }: StepContext) =>
    driver === "terminal"
      ? [
          terminal(s1, { args: ["--session-id", ID] }),
          type(s1, `${MARKER} say one`),
          press(s1, "enter"),
          wait("turn one answered", answered(s1, 1)),
          type(s1, "/compact"),
          press(s1, "enter"),
          wait("the compaction ended", summarised),
          press(s1, "ctrl-c"),
          press(s1, "ctrl-c"),
          screenWait(s1, "session 1 exited", ({ exited }) => exited, { timeout: 20_000 }),
          terminal(s2, { args: ["--resume", ID] }),
          type(s2, "say after"),
          press(s2, "enter"),
          wait("the resumed turn answered", answered(s2, 1)),
        ]
      : [
          start(s1, { prompt: `${MARKER} say one` }),
          wait("turn one answered", resultPrinted(s1)),
          send(s1, "/compact"),
          wait("the compaction ended", resultPrinted(s1, { count: 2 })),
          stop(s1),
          wait("session 1 exited", sessionEnded(s1)),
          resume(s2, { from: s1, prompt: "say after" }),
          wait("the resumed turn ended", resultPrinted(s2)),
        ],
  drivers: ["headless", "terminal"],
  check(rec) {
    // The trigger, from the transcript: the summary the mock served was recorded as the compacted conversation's start.
    const view = transcriptOf(rec, s1) ?? transcriptsOf(rec).find((t) => t.sessionId === ID);
    const kept = view?.rows.some((row) => row.text.includes(SUMMARY) && row.type === "user");
    if (!kept) return { reached: notReached("session 1's transcript holds no compaction summary (was /compact run?)"), findings: [] };
    const asked = requestsOf(rec, { session: s2 }).find((r) => r.stream === "main" || r.stream === "compacted");
    if (!asked) return { reached: notReached("the resumed session sent no request of the conversation"), findings: [] };
    const findings =
      asked.stream === "main"
        ? [finding({ id: "compaction-lost", title: `the resumed request carries the history /compact replaced ("${MARKER} say one", ${asked.messages.length} messages), not the summary`, where: `request #${asked.seq}` })]
        : [];
    return { reached: reached(), findings, notes: [`resumed request #${asked.seq}: ${asked.stream}, ${asked.messages.length} messages`] };
  },
  // Not reproduced: `ccrepro run compact-resume --claude V [--driver terminal] [--repeat 3]` (2026-12-01 headless, 2026-12-06
  // terminal, and the headless edge at 2.1.268/2.1.269); `ccrepro atlas compact-resume --versions ">=2.1.240"`.
  known: [
    { versions: "1.0.128 || 2.0.72 || 2.1.29 || 2.1.90 || 2.1.112 || 2.1.281 || 2.1.332", driver: "headless", verdict: "GREEN", note: "the resumed request starts from the summary (1 message on 2.1.281 and 2.1.332, 3 on the older ones); one run each (2026-12-01), 2.1.332 again 2026-12-06" },
    {
      versions: ">=2.1.240 <=2.1.268",
      driver: "headless",
      verdict: "INCONCLUSIVE",
      note:
        "the premise is not reached: after one exchange `/compact` answers \"Not enough messages to compact.\", so there is no summary to resume from; " +
        "the atlas of 2026-12-06 (2.1.240, 2.1.250, 2.1.263, 2.1.268 measured, the rest assumed), and 2.1.240, 2.1.268 3 of 3; 2.1.269 compacts (GREEN 3 of 3, and GREEN on every release measured to 2.1.337)",
    },
    {
      versions: "2.0.71 || 2.0.72 || 2.0.73 || 2.1.332",
      driver: "terminal",
      verdict: "GREEN",
      note: "#14462's trigger in the UI (prompt, /compact, Ctrl-C twice, a second UI `--resume <id>`): the resumed request starts from the summary (3 messages; 1 on 2.1.332); 2.0.72 3 of 3 runs, the others 1 each (2026-12-06)",
    },
    {
      versions: "1.0.53 - 1.0.108 || 1.0.128 - 2.1.152 || >=2.1.269",
      driver: "terminal",
      verdict: "GREEN",
      note: "the resumed UI's request starts from the summary (the atlas, 2026-12-07, every release from 1.0.53 run alone at --jobs 1: 60 measured; 1.0.108 and 1.0.128 re-run 3 of 3). UNSUPPORTED before 1.0.53, which has no --session-id for the first UI",
    },
    {
      versions: "1.0.109 - 1.0.127",
      driver: "terminal",
      verdict: "RED",
      finding: "compaction-lost",
      note: "the resumed UI sends the history the compaction replaced, not the summary (the atlas, 2026-12-07: 1.0.109, 1.0.113, 1.0.124, 1.0.127; 1.0.109 and 1.0.127 re-run 3 of 3); headless runs of 1.0.22–1.0.127 are INCONCLUSIVE, so only the UI shows it",
    },
    {
      versions: "2.1.153 - 2.1.268",
      driver: "terminal",
      verdict: "INCONCLUSIVE",
      note: "the UI's /compact leaves no summary in session 1's transcript (\"Not enough messages to compact.\"), as headless (the atlas, 2026-12-07: 20 releases measured)",
    },
  ],
  publicRecord: {
    role: "guard",
    guard:
      "#14462's trigger is /compact, Ctrl-C twice and `claude --resume` (the picker, latest conversation) in the UI on macOS 2.0.72; ccrepro runs it in the UI on Linux (resuming by id: the kit's terminal step waits for the input prompt, not the picker) and headless, and the resumed request starts from the summary on 2.0.71–2.0.73 and 2.1.332.",
    releases: [
      { version: "2.0.72", says: "reported", source: "#14462", driver: "terminal" },
      { version: "2.0.72", says: "reported", source: "#14462 (its trigger headless)", driver: "headless" },
    ],
  },
  needs: ["stream-json-input", "resume"],
});
