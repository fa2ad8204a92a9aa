// The interactive UI's `claude --continue`, after two `-p` sessions in one project, must carry on the newer one.
import { allOf, conversation, defineScenario, pause, press, print, quietFor, requestsMade, screenWait, session, terminal, text, type, wait, z, type Session } from "../kit/index.ts";
import { checkContinued, continuedRequest, CONTINUED_FINDINGS, finding, notReached, reached, requestsOf, sessionOf, transcriptsOf, type Recordings } from "../kit/checkers.ts";

const [first, second, ui] = [session("first"), session("second"), session("ui")];
const FIRST = "CCREPRO_UICONT_FIRST_5K";
const SECOND = "CCREPRO_UICONT_SECOND_5K";
// The typed prompt's own marker: a request whose first user message is this prompt continued nothing.
const THIRD = "CCREPRO_UICONT_THIRD_5K";
const STREAMS = { older: "first", newer: "second", fresh: "fresh" };

const params = z.strictObject({
  // How the two earlier sessions ran: `claude -p` (the class as reported), or the interactive UI, each ended by /exit.
  earlier: z.enum(["print", "terminal"]).default("print"),
});
type Params = z.output<typeof params>;

// One earlier session in the UI: its prompt, its answer, then /exit.
const earlierInUi = <S extends string>(s: Session<S>, prompt: string) => [
  terminal(s),
  // A fixed pause, for no event marks it: 1.0.113's second UI drew its input, took the pasted prompt and ignored an
  // Enter 1.2 s after it started (its start-up requests, titles for the project's earlier sessions, came a second
  // later, and not every release sends them). Typed after 3 s, every release from 0.2.114 answered (the atlas).
  pause(`${s.name} finishes starting`, 3_000),
  type(s, prompt),
  press(s, "enter"),
  // Its own stream's request: a side request of the UI's start (1.0.93 asks one at once) is no answer.
  wait(`${s.name}'s prompt is answered`, requestsMade(1, { session: s, stream: s.name })),
  type(s, "/exit"),
  press(s, "enter"),
  screenWait(s, `${s.name} exited`, ({ exited }) => exited, { timeout: 20_000, onTimeout: "error" }),
];

// The session id of an earlier session: the transcript its marker was written to.
const transcriptWith = (rec: Recordings, marker: string) => transcriptsOf(rec).find((t) => t.rows.some((row) => row.type === "user" && row.text.includes(marker)))?.sessionId ?? null;

// The UI's first main-loop request, once answered.
const askedOf = (rec: Recordings) => continuedRequest(requestsOf(rec, { session: ui }).filter((r) => rec.responseEnds.has(r.seq)), THIRD, STREAMS);

export default defineScenario({
  name: "continue-latest-interactive",
  summary: "The interactive UI's `claude --continue` continues the most recent conversation of the project, with its history.",
  source:
    "anthropics/claude-code#82536 (interactive `claude --continue`: \"No conversation found to continue\", reported on 2.1.278), " +
    "#43013, #85657, #86092, #28463: --continue picks the wrong session, or none.",
  link: "https://github.com/anthropics/claude-code/issues/82536",
  findings: [...CONTINUED_FINDINGS],
  sessions: [first, second, ui],
  mockScript: () =>
    conversation({
      first: { marker: FIRST, replies: [text("one")] },
      second: { marker: SECOND, replies: [text("two")], then: text("three") },
      fresh: { marker: THIRD, replies: [text("three, from nothing")] },
    }),
  params,
  steps: (p: Params) => [
    p.earlier === "print" ? [print(first, `${FIRST} say one`), print(second, `${SECOND} say two`)] : [earlierInUi(first, `${FIRST} say one`), earlierInUi(second, `${SECOND} say two`)],
    // A UI that finds nothing to continue exits at once: the check judges that from the recordings.
    terminal(ui, { args: ["--continue"], onEarlyExit: "check" }),
    type(ui, `${THIRD} and now say three`),
    press(ui, "enter"),
    // Quiet after the answer, so the UI has written the prompt's transcript row before the run ends it.
    wait("the UI's first main-loop request is answered", allOf((rec) => askedOf(rec) !== undefined, quietFor(2_000)), { timeout: 60_000 }),
  ],
  check(rec) {
    const [older, newer] = [transcriptWith(rec, FIRST), transcriptWith(rec, SECOND)];
    if (!older || !newer) return { reached: notReached("an earlier session left no transcript holding its prompt"), findings: [] };
    const process = sessionOf(rec, ui)?.process;
    const asked = askedOf(rec);
    const ids = `session ids: first ${older}, second ${newer}`;
    // Exited on its own with an error code: a UI the harness killed at the end (exit code null) did not exit before it.
    if (!asked && process && process.endedAt !== null && process.exitCode !== null && process.exitCode !== 0 && requestsOf(rec, { session: ui }).length === 0) {
      const where = `the UI (pid ${process.pid ?? "-"}) exited ${process.exitCode ?? "-"} before its prompt`;
      return {
        reached: reached(),
        findings: [finding({ id: "continued-nothing", title: "--continue found no conversation to continue and the UI exited, while both earlier transcripts are on disk", where })],
        notes: [ids],
      };
    }
    if (!asked) return { reached: notReached("the UI sent no main-loop request for the typed prompt"), findings: [] };
    // The transcript the typed prompt was written to: the second's when continued in place, another when not.
    const id = transcriptWith(rec, THIRD);
    const where = `request #${asked.seq} (transcript ${id ?? "none"})`;
    const findings = checkContinued(asked, STREAMS, { older, newer }, `${SECOND} say two`, where);
    const kept = id === null ? "none holds it" : id === newer ? "the second's" : id === older ? "the first's" : "a new one";
    return { reached: reached(), findings, notes: [`${ids}; the typed prompt's transcript ${id ?? "-"} (${kept})`] };
  },
  // `ccrepro bisect continue-latest-interactive --old 2.1.80 --new 2.1.90`, then `ccrepro run continue-latest-interactive
  // --claude V --repeat 5` for V in 2.1.89 and 2.1.90; the others one run each, 4 on 2.1.332 each way (2026-12-02).
  known: [
    {
      versions: ">=0.2.109 <=2.0.15 || >=2.0.28 <=2.1.89",
      verdict: "GREEN",
      note: "the UI continues the second -p session, the typed prompt lands in its transcript: the atlas (2026-12-07) measured every release; 1.0.8, 2.0.15 and 2.0.28 re-run 3 of 3, 2.1.89 5 of 5 (2.1.80 – 2.1.88 in the bisect); 0.2.118, 1.0.4 and 1.0.5 once more, with the config seeded where those releases read it. 0.2.109 GREEN in chunk 9, with its npm dependency installed (0.2.96–0.2.100 INCONCLUSIVE, 0.2.90 UNSUPPORTED)",
    },
    {
      versions: ">=2.0.19 <=2.0.27",
      verdict: "RED",
      finding: "history-missing",
      note: "the atlas; 2.0.19 and 2.0.27 re-run 3 of 3: the UI continues the second session's transcript, but its request carries the subagent's Warmup exchange these releases write there, not the second's turn (as `-p --continue` does on them)",
    },
    {
      versions: ">=2.1.90",
      verdict: "RED",
      finding: "continued-nothing",
      note: "bisected (first RED 2.1.90; 2.1.90 5 of 5; 2.1.278, #82536's release, 3 of 3 by 2026-12-06): the UI exits 1 before its prompt, no request; `-p --continue` was fixed in 2.1.101, the UI's never was",
    },
    {
      versions: ">=0.2.109",
      params: { earlier: "terminal" },
      verdict: "GREEN",
      note: "measured (2.1.332 4 of 4; 2.1.89, 2.1.90, 2.1.113, 2.1.278; the atlas, 2026-12-07, on every release from 0.2.114, 21 random assumed ones agreeing, and 0.2.109 in chunk 9): after two interactive sessions the UI continues the second, in its transcript, with its turn in the request",
    },
  ],
  publicRecord: {
    role: "reproduction",
    releases: [
      { version: "2.1.90", says: "reported", source: "#82536 (broken since 2.1.90, as #43013 found for `-p`)" },
      { version: "2.1.278", says: "reported", source: "#82536" },
    ],
  },
  needs: ["resume"],
  timeoutMs: 240_000,
});
