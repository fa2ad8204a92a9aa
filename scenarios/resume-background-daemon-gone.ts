// A session sent to the background with `/background`, whose daemon is gone, must resume with `-p --resume ID`,
// not be refused as "currently running as a background agent" with no process holding it.
import { allOf, bash, command, conversation, daemonExit, defineScenario, choice, foregroundWait, press, print, quietFor, screenWait, session, stop, terminal, text, type, watch, z, type CommandView } from "../kit/index.ts";
import { finding, notReached, reached, requestsOf, resultOf, sessionOf, transcriptsOf, turnAnswered } from "../kit/checkers.ts";

const [ui, s2, s3, ui2] = [session("ui"), session("s2"), session("s3"), session("ui2")];
const MARKER = "CCREPRO_BGGONE_4T";
const TOOL_DONE = "BGGONE_TOOL_DONE";
// The UI's own id; `/background` may carry the conversation on under another one, which `claude agents --json` lists.
const UI_ID = "7b1d2c3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e";
const agents = z.array(z.looseObject({ id: z.string().optional(), sessionId: z.string().optional() }));

// The sessions a `claude agents --json` listing (by its label) holds: short id (for `claude stop`) and session id.
function agentsIn(view: CommandView, label: string): { short: string; sessionId: string }[] | null {
  const out = view.commands[label];
  let parsed: unknown = null;
  try {
    parsed = out?.exitCode === 0 ? JSON.parse(out.stdout) : null;
  } catch {
    return null;
  }
  const list = agents.safeParse(parsed);
  if (!list.success) return null;
  return list.data.flatMap((job) => (job.sessionId ? [{ short: job.id ?? job.sessionId.slice(0, 8), sessionId: job.sessionId }] : []));
}

// The one background session the first `claude agents --json` listed (the one `/background` made).
function listed(view: CommandView): { short: string; sessionId: string } | null {
  const jobs = agentsIn(view, "agents");
  return jobs?.length === 1 ? jobs[0]! : null;
}

// #86764's path: a new UI opens the agents view (`←` on its empty prompt), selects the background session and opens
// it; the report's UI wedged there. The list starts on the "current session" row, under its group's header, and wraps:
// two presses of Up reach its last row, the background session, whether that is listed in the same group ("Needs
// input") or under its own header ("Working", or "Completed" once it stopped by itself), which varies by run on 2.1.223. Whatever it
// shows, the UI is then killed as the reporter killed the stuck one, and every session the daemon lists is stopped.
const ATTACH_SLOTS = 3;
const attachSteps = () => [
  terminal(ui2),
  press(ui2, "left"),
  screenWait(ui2, "the agents view lists the background session", ({ screen }) => screen.includes("current session") && /Working|Needs input|Idle|Completed/.test(screen), { timeout: 15_000 }),
  press(ui2, "up", "up"),
  screenWait(ui2, "the background session is selected", ({ screen }) => /enter to (open|resume)/.test(screen), { timeout: 5_000 }),
  press(ui2, "enter"),
  screenWait(ui2, "the attached session shows the conversation (or wedges)", ({ screen }) => screen.includes(MARKER) && screen.includes("← for agents"), { timeout: 20_000, onTimeout: "continue" }),
  stop(ui2, { how: "sigkill" }),
  command("agents-after-attach", ["agents", "--json"]),
  Array.from({ length: ATTACH_SLOTS }, (_, i) => command(`stop-${i}`, (view) => { const job = agentsIn(view, "agents-after-attach")?.[i]; return job ? ["stop", job.short] : null; })),
  watch("the stopped sessions settle", quietFor(5_000), { timeout: 10_000 }),
];

const params = z.strictObject({
  // "stop": the agent stopped (`claude stop`), then the daemon's exit awaited (it does not exit while an agent is held:
  // still running 60 s later on 2.1.332); "none": the control, resumed while the agent still runs, where the refusal
  // is the release's rule.
  end: choice(["stop", "none"], { default: "stop" }),
  // "agents-view": before the resumes, the background session is opened from the agents view of a new UI, which is
  // then SIGKILLed (#86764's trigger: the attach wedged, the reporter killed the UI, and `--resume` was refused with
  // no process holding the session); every listed session is stopped, and the daemon, which does not exit then
  // (measured on 2.1.223), is left running. "none": no attach.
  attach: choice(["none", "agents-view"], { default: "none" }),
});

export default defineScenario({
  name: "resume-background-daemon-gone",
  summary:
    "Guard: a session sent to the background, once its background agent is stopped and its daemon has exited (or, with " +
    "attach=agents-view, once it was opened from the agents view and that UI killed), resumes with `-p --resume ID` " +
    "instead of being refused as still running in the background.",
  source:
    "anthropics/claude-code#70170 (2.1.177: `--resume <id>` refused, \"is currently running as a background agent (bg)\"), " +
    "#86764 (2.1.223: the same refusal with no process holding the session).",
  link: "https://github.com/anthropics/claude-code/issues/86764",
  params,
  findings: ["resume-refused-as-background"],
  sessions: [ui, s2, s3, ui2],
  // The turn runs a short foreground tool, long enough to type `/background` into; whatever follows (the background
  // session's continuation, each resume, which carries the first prompt too) gets the answer.
  mockScript: () => conversation({ main: { marker: MARKER, replies: [bash(`${foregroundWait(8_000)}; echo ${TOOL_DONE}`, "short foreground wait")], then: text("finished") } }),
  steps: ({ end, attach }) => [
    terminal(ui, { args: ["--session-id", UI_ID] }),
    type(ui, `${MARKER} run the command, then reply with exactly the word: finished`),
    press(ui, "enter"),
    screenWait(ui, "the tool runs", ({ screen }) => screen.includes(TOOL_DONE), { timeout: 40_000 }),
    type(ui, "/background"),
    screenWait(ui, "the input line holds /background", ({ screen }) => /^❯\s*\/background\s*$/m.test(screen), { timeout: 10_000 }),
    press(ui, "enter"),
    screenWait(ui, "the UI exited after /background", ({ exited }) => exited, { timeout: 30_000 }),
    watch("the background session answers the turn", allOf((rec) => turnAnswered(rec, "main", sessionOf(rec, ui)?.process?.pid ?? null), quietFor(3_000)), { timeout: 25_000 }),
    command("agents", ["agents", "--json"]),
    // The trigger: the agent stopped and no daemon of the run left before the resume starts (a timeout here ends the run).
    attach === "agents-view"
      ? attachSteps()
      : end === "stop"
        ? [command("stop", (view) => { const job = listed(view); return job ? ["stop", job.short] : null; }), daemonExit("the daemon exited", { timeout: 30_000 })]
        : [],
    // Both ids the conversation may be under: the UI's own, then the background session's.
    print(s2, "go on", { args: ["--resume", UI_ID] }),
    print(s3, "go on", { resumeFrom: (view) => listed(view)?.sessionId ?? null }),
  ],
  check(rec, { end, attach }) {
    // Each resume whose conversation was on disk before it started (the trigger, from the files) must be answered.
    const tries = [s2, s3].flatMap((s) => {
      const p = sessionOf(rec, s)?.process;
      if (!p) return [];
      const at = p.argv.indexOf("--resume");
      const id = at === -1 ? undefined : p.argv[at + 1];
      if (!id) return [];
      const onDisk = transcriptsOf(rec).some((t) => t.sessionId === id && t.rows.some((row) => row.at !== null && row.at < p.startedAt && row.text.includes(MARKER)));
      const result = resultOf(rec, s);
      const said = JSON.stringify(result?.result ?? result?.errors ?? "").slice(0, 200);
      const asked = requestsOf(rec, { session: s }).length;
      return [{ s, id, onDisk, refused: asked === 0 && p.exitCode !== 0, note: `--resume ${id} (${id === UI_ID ? "the UI's id" : "the background session's id"}, ${onDisk ? "on disk" : "no transcript"}): exit ${p.exitCode ?? "-"}, ${asked} request(s), ${said}` }];
    });
    const notes = tries.map((t) => t.note);
    if (!tries.some((t) => t.onDisk)) return { reached: notReached("no resume ran on a conversation on disk: no background session was listed, the daemon did not exit, or nothing was written"), findings: [], notes };
    // #86764's path is about the session the agents view opened: without a resume of its id on disk (it stopped by
    // itself before its first response, and the view offered only a fresh restart), the run says nothing about it.
    if (attach === "agents-view" && !tries.some((t) => t.s === s3 && t.onDisk)) return { reached: notReached("the background session's id was not resumed from disk: nothing the agents view opened was tried"), findings: [], notes };
    const findings = tries
      .filter((t) => t.onDisk && t.refused)
      .map((t) => finding({ id: "resume-refused-as-background", red: end !== "none", title: `--resume ${t.id} was refused ${end === "none" ? "while its background agent still runs (the control)" : "with no daemon left"}`, where: `session ${t.s.name}`, detail: [t.note] }));
    return { reached: reached(), findings, notes };
  },
  // Not reproduced: `ccrepro run resume-background-daemon-gone --claude V` (2026-12-02, one run each).
  known: [
    { versions: "2.1.152 || 2.1.177", verdict: "GREEN", note: "the UI's id resumes (exit 0); the background session's id has no transcript (\"No conversation found\", not this class)" },
    { versions: "2.1.223 || 2.1.235 || 2.1.281 || 2.1.332", verdict: "GREEN", note: "both the UI's id and the background session's id resume and are answered once the agent is stopped and the daemon exited" },
    { versions: "2.1.119 - 2.1.120 || 2.1.139 - 2.1.176 || >=2.1.178", params: { end: "none" }, verdict: "GREEN", note: "control: while the agent still runs, --resume of the background session's id exits 1 with no request (finding, not red); 2.1.332 again 2026-12-06 (1 run); the atlas, 2026-12-07, every release from 2.1.139 and 2.1.119–2.1.120, 33 measured" },
    { versions: "2.1.121 - 2.1.138", params: { end: "none" }, verdict: "INCONCLUSIVE", note: "no resume ran on a conversation on disk: no background session was listed, the daemon did not exit, or nothing was written (the atlas, 2026-12-07: 2.1.121, 2.1.123, 2.1.129, 2.1.136, 2.1.138)" },
    {
      versions: "2.1.177",
      params: { end: "none" },
      verdict: "GREEN",
      note:
        "#70170's case, measured 2026-12-06 (1 run): while the agent is held, --resume of the background session's id exits 1 " +
        "with #70170's words (\"is currently running as a background agent (bg)\"), no request; it has no transcript yet, so it " +
        "is not counted (not red either way in the control); the UI's id resumes",
    },
    {
      versions: "2.1.223",
      params: { attach: "agents-view" },
      verdict: "GREEN",
      note:
        "#86764's path, measured 2026-12-06: the agents view opened the background session within 5 s (no wedge) in every run that " +
        "reached it; after SIGKILL of that UI and `claude stop` of each listed session, both ids resume and are answered. Of 8 runs, 5 opened the session (never wedged): GREEN; in 2 the " +
        "background session had stopped by itself before its first response and the view offered only a fresh restart " +
        "(nothing to open: INCONCLUSIVE); 1 INCONCLUSIVE from a step that then missed the view's \"enter to resume\" wording (fixed)",
    },
    {
      versions: "2.1.177",
      params: { attach: "agents-view" },
      verdict: "INCONCLUSIVE",
      note: "measured 2026-12-06, 3 of 3 runs: `←` on the new UI's empty prompt did not open the agents view within 15 s, so #86764's path is not reachable here",
    },
    {
      versions: "2.1.196 - 2.1.337",
      params: { attach: "agents-view" },
      verdict: "GREEN",
      note: "the atlas, 2026-12-07: every release from 2.1.196 to 2.1.337, 22 measured and 21 drawn at random to check the assumed ones, none differing; the view opened the session and both ids resumed",
    },
    {
      versions: "2.1.119 - 2.1.195",
      params: { attach: "agents-view" },
      verdict: "INCONCLUSIVE",
      note: "the atlas, 2026-12-07, 13 measured: no resume ran on a conversation on disk (the agents view opened no background session), so #86764's path is not reached before 2.1.196; UNSUPPORTED before 2.1.119",
    },
  ],
  publicRecord: {
    role: "guard",
    guard:
      "#86764's trigger is an attach from the agents view that wedges the UI, after which `--resume` is refused with no process " +
      "holding the session; ccrepro drives that attach (attach=agents-view), but on Linux 2.1.223 it never wedged, and once " +
      "the sessions are stopped both ids resume. #70170 asks for a way to take back a session the daemon still holds, which " +
      "the control (end=none) shows is the release's rule. The default trigger reaches the report's state (no process holds " +
      "the session) by stopping the agent and waiting for its daemon to exit.",
    releases: [
      { version: "2.1.177", says: "reported", source: "#70170 (held as a background agent)", params: { end: "none" } },
      { version: "2.1.223", says: "reported", source: "#86764 (attach from the agents view)", params: { attach: "agents-view" } },
    ],
  },
  timeoutMs: 240_000,
  needs: ["interactive-background", "resume"],
});
