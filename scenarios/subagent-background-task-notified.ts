// A subagent that starts a background command and ends its turn must be woken with the command's <task-notification>,
// as the tool result promised ("You will be notified when it completes"): anthropics/claude-code#85534.
import { bash, conversation, defineScenario, milliseconds, quietFor, allOf, anyOf, press, requestsMade, session, start, stop, subagent, terminal, text, type, wait, z, type StepContext } from "../kit/index.ts";
import { fileOf, finding, notReached, reached, requestsOf, type Recordings } from "../kit/checkers.ts";

const MARKER = "BG_NOTIFY_MAIN_4W";
const SUB = "BG_NOTIFY_SUB_4W";
const s1 = session("s1");

// The subagent's requests after it ended its turn (its third, once the launch and the end of turn were answered).
const woken = (rec: Recordings) => requestsOf(rec, { stream: "sub" }).slice(2);
const carrying = (rec: Recordings) => woken(rec).find((r) => r.raw().includes("<task-notification>"));

export default defineScenario({
  name: "subagent-background-task-notified",
  summary: "A subagent that starts a background command and ends its turn is woken with the command's task-notification.",
  source: "anthropics/claude-code#85534 (2.1.223, 2.1.226): a subagent's run_in_background task finished, and the subagent was never re-invoked.",
  link: "https://github.com/anthropics/claude-code/issues/85534",
  // How long the background command runs (the report used `sleep 20`; the length is not the point).
  params: z.strictObject({ taskMs: milliseconds({ default: 4000, max: 60_000 }) }),
  findings: ["subagent-never-notified", "subagent-task-killed"],
  sessions: [s1],
  mockScript: (p) =>
    conversation({
      main: { marker: MARKER, replies: [subagent(`${SUB} start the task and end your turn`, "worker")], then: text("main done") },
      sub: {
        marker: SUB,
        replies: [bash(`echo started > bg-started.txt; sleep ${p.taskMs / 1000}; echo done > bg-done.txt; echo BG-done`, "background task", { background: true }), text("Started; I will be notified.")],
        then: text("The task finished."),
      },
    }),
  // headless: a stream-json session with stdin held open; terminal: the interactive UI (the reporter's sessions), the
  // prompt typed, the UI left open while the run watches, then reaped.
  steps: (p, { driver }: StepContext) => [
    driver === "terminal" ? [terminal(s1), type(s1, `${MARKER} delegate the task`), press(s1, "enter")] : start(s1, { prompt: `${MARKER} delegate the task` }),
    // Done when the notification reached the subagent, or nothing was sent for the task's length and 10 s more.
    wait("the subagent was notified, or the session went quiet past the task", anyOf((rec) => carrying(rec) !== undefined, allOf(requestsMade(2, { stream: "sub" }), quietFor(p.taskMs + 10_000))), { timeout: p.taskMs + 60_000 }),
    driver === "terminal" ? [] : stop(s1),
  ],
  drivers: ["headless", "terminal"],
  // Without task notifications (before 2.0.67) no release can wake anything: "never notified" would be RED by
  // construction there, not a finding.
  needs: ["background-bash", "task-notification"],
  check(rec) {
    const sub = requestsOf(rec, { stream: "sub" });
    if (sub.length < 2) return { reached: notReached("the subagent never ended its first turn"), findings: [] };
    if (fileOf(rec, "bg-started.txt") === null) return { reached: notReached("the background command never started (no bg-started.txt)"), findings: [] };
    // Started, and the run watched for its length and 10 s more: a missing bg-done.txt means it was killed.
    if (fileOf(rec, "bg-done.txt") === null && !carrying(rec)) {
      return { reached: reached(), findings: [finding({ id: "subagent-task-killed", title: "the subagent's background command started but never finished: it was killed when the subagent ended its turn", where: "bg-started.txt without bg-done.txt in the working directory at the end" })], notes: ["killed"] };
    }
    const delivered = carrying(rec);
    const elsewhere = requestsOf(rec, { stream: "main" }).filter((r) => r.receivedAt > sub[1]!.receivedAt && r.raw().includes("BG-done"));
    const findings = delivered
      ? []
      : [finding({ id: "subagent-never-notified", title: "the subagent's background command finished, but no request of the subagent carried its <task-notification>", where: `${woken(rec).length} subagent requests after its turn ended; main requests quoting the output: ${elsewhere.map((r) => `#${r.seq}`).join(", ") || "none"}` })];
    return { reached: reached(), findings, notes: [delivered ? `notified in subagent request #${delivered.seq}` : "never notified"] };
  },
  // ccrepro bisect subagent-background-task-notified --old 2.1.218 --new 2.1.226; run … --repeat 5 on 2.1.224 and 2.1.225
  known: [
    // First match wins, so the UI's entries come first. ccrepro run subagent-background-task-notified --driver terminal --claude V --repeat 2; bisect … --driver terminal --old 2.1.241 --new 2.1.258
    { versions: ">=2.1.226 <=2.1.241", driver: "terminal", verdict: "RED", finding: "subagent-never-notified", note: "in the interactive UI the command finishes and no subagent request follows its turn, where headless runs of the same releases are GREEN: 2.1.226 (2 of 2), 2.1.241 (2 of 2) and the bisect's last RED (3 runs of 2.1.241 in all)" },
    { versions: "2.0.67 - 2.1.225", driver: "terminal", verdict: "RED", note: "the subagent is never told its task finished: subagent-never-notified in some runs, subagent-task-killed (the task ends with the subagent's turn) in others, on the same release (2.1.74 and 2.1.75 each gave both in 3 runs), so no finding is named (the atlas, 2026-12-07, --until-red 2: 56 releases measured; UNSUPPORTED before 2.0.67)" },
    { versions: ">=2.1.242", driver: "terminal", verdict: "GREEN", note: "the UI wakes the subagent with the notification: 2.1.258 (2 of 2), 2.1.267, 2.1.242 (3 of 3: 2 runs and the bisect's), the bisect's 2.1.243, 2.1.247" },
    { versions: ">=2.0.67 <=2.1.197", verdict: "RED", note: "subagent-task-killed: the command dies when the subagent ends its turn, or it finishes and is never notified, by chance (2.1.112, 2.1.197; 2.1.170 also left no bg-done.txt; one of three 2.1.112 runs finished it and never notified). The atlas (2026-12-07, one run a release) saw never-notified on most of 2.0.67–2.1.74 and on 2.1.138; re-run 3 of 3: 2.0.67 and 2.0.77 never-notified, 2.1.74, 2.1.75, 2.1.137, 2.1.138, 2.1.197 killed. Before 2.0.67 no task notifications: UNSUPPORTED" },
    { versions: ">=2.1.198 <=2.1.224", verdict: "RED", finding: "subagent-never-notified", note: "the command finishes (bg-done.txt), no subagent request carries it (2.1.198–2.1.205, 2.1.213–2.1.218, 2.1.224)" },
    { versions: ">=2.1.225", verdict: "GREEN", note: "the subagent's next request carries the <task-notification> (2.1.225, 2.1.226, 2.1.258, 2.1.281, 2.1.332)" },
  ],
  publicRecord: {
    role: "reproduction",
    releases: [
      { version: "2.1.223", says: "reported", source: "#85534" },
      { version: "2.1.226", says: "reported", source: "#85534 (re-verified, interactive, macOS)", driver: "terminal" },
      { version: "2.1.241", says: "reported", source: "a later report cited by the audit (its thread not found here)", driver: "terminal" },
      { version: "2.1.258", says: "reported", source: "#91503 (Windows 11), cited in #92952", driver: "terminal" },
      { version: "2.1.267", says: "works", source: "#80834 (a comment: interactive and headless, macOS)", driver: "terminal" },
    ],
  },
  timeoutMs: 150_000,
});
