// `claude -p --resume ID` of a session killed before it wrote its transcript must say the conversation is not there,
// not answer as a new session under another id.
import { conversation, defineScenario, pause, print, session, start, stop, text } from "../kit/index.ts";
import { exitOf, finding, initOf, notReached, reached, requestsOf, resultOf, sessionOf, transcriptsOf } from "../kit/checkers.ts";

const [s1, s2] = [session("s1"), session("s2")];
const FIRST = "CCREPRO_NOTHING_FIRST_3K";
const AGAIN = "CCREPRO_NOTHING_AGAIN_3K";
// The id an orchestrator gives its session (`--session-id`) and resumes later: claude writes the transcript only once
// the first prompt is read, so a process killed before that leaves none.
const ID = "3c0e1f2a-5b6d-4e7f-8a9b-0c1d2e3f4a5b";

export default defineScenario({
  name: "resume-points-at-nothing",
  summary: "Guard: `claude -p --resume ID` of a session that died before its transcript was written fails, naming the missing conversation, instead of starting a new one.",
  source:
    "anthropics/claude-code#93132 (a process died before its transcript was flushed; the resume reported the history \"no longer on disk\"), " +
    "#58760: a resume that points at no transcript.",
  link: "https://github.com/anthropics/claude-code/issues/93132",
  findings: ["resumed-into-new-session"],
  sessions: [s1, s2],
  mockScript: () => conversation({ first: { marker: FIRST, replies: [text("one")] }, again: { marker: AGAIN, replies: [], then: text("fresh answer") } }),
  // Session 1 starts with its id and dies (SIGKILL) before its first prompt is read; then `-p --resume ID`.
  steps: () => [
    start(s1, { args: ["--session-id", ID] }),
    pause("session 1 starts up", 2_000),
    stop(s1, { how: "sigkill" }),
    print(s2, `${AGAIN} go on`, { args: ["--resume", ID] }),
  ],
  check(rec) {
    const id = ID;
    const started = sessionOf(rec, s2)?.process?.startedAt;
    // Some releases exit on the closed stdin before the SIGKILL: either way session 1 ended without a turn.
    if (!exitOf(rec, s1) || resultOf(rec, s1) || started === undefined) return { reached: notReached("session 1 did not end before its first turn, or session 2 never ran"), findings: [] };
    // The trigger, from the files: no transcript row of session 1's id written before the resume started.
    const flushed = transcriptsOf(rec).filter((t) => t.sessionId === id).flatMap((t) => t.rows.filter((row) => row.at !== null && row.at < started));
    if (flushed.length > 0) return { reached: notReached(`session 1 wrote ${flushed.length} transcript rows before it was killed: its resume points at something`), findings: [] };
    const [init, result, exit] = [initOf(rec, s2), resultOf(rec, s2), exitOf(rec, s2)];
    const answered = requestsOf(rec, { session: s2, stream: "again" });
    const notes = [`resume of ${id}: exit ${exit?.exitCode ?? "-"}, init session ${init?.session_id ?? "none"}, result ${result?.subtype ?? "none"} ${JSON.stringify(result?.result ?? result?.errors ?? "").slice(0, 160)}`];
    const silentlyNew = init !== null && init.session_id !== id && answered.length > 0 && exit?.exitCode === 0 && result?.is_error !== true;
    const findings = silentlyNew
      ? [finding({ id: "resumed-into-new-session", title: `--resume ${id} answered as a new session ${init.session_id}, with no transcript of ${id} on disk and no error`, where: `request #${answered[0]!.seq}` })]
      : [];
    return { reached: reached(), findings, notes };
  },
  // Not reproduced: `ccrepro run resume-points-at-nothing --claude V` (2026-12-01).
  known: [
    { versions: "1.0.128", verdict: "GREEN", note: "exit 1, no result line; stderr: No conversation found with session ID" },
    { versions: "2.1.112 || 2.1.139 || 2.1.281 || 2.1.332", verdict: "GREEN", note: "exit 1, result error_during_execution: \"No conversation found with session ID: …\"; one run each (2026-12-01), 2.1.139 twice more and 2.1.332 once more on 2026-12-06" },
  ],
  publicRecord: {
    role: "guard",
    guard:
      "#93132's trigger is the interactive UI reading a dangling `~/.claude/sessions/<pid>.json` pointer left by a process that died before flushing its transcript (\"conversation history is no longer on disk\"); ccrepro exercises the headless `-p --resume <id>` of such a session (#58760's form), which every release measured refuses with \"No conversation found\".",
    releases: [{ version: "2.1.139", says: "reported", source: "#58760" }],
  },
  needs: ["stream-json-input", "resume"],
});
