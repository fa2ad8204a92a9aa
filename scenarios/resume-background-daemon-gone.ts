// A session sent to the background with `/background`, whose daemon is gone, must resume with `-p --resume ID`,
// not be refused as "currently running as a background agent" with no process holding it.
import { allOf, bash, command, conversation, daemonExit, defineScenario, choice, foregroundWait, press, print, quietFor, screenWait, session, terminal, text, type, watch, z, type CommandView } from "../kit/index.ts";
import { finding, notReached, reached, requestsOf, resultOf, sessionOf, transcriptsOf, turnAnswered } from "../kit/checkers.ts";

const [ui, s2, s3] = [session("ui"), session("s2"), session("s3")];
const MARKER = "CCREPRO_BGGONE_4T";
const TOOL_DONE = "BGGONE_TOOL_DONE";
// The UI's own id; `/background` may carry the conversation on under another one, which `claude agents --json` lists.
const UI_ID = "7b1d2c3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e";
const agents = z.array(z.looseObject({ id: z.string().optional(), sessionId: z.string().optional() }));

// The one background session `claude agents --json` listed: its short id (for `claude stop`) and its session id.
function listed(view: CommandView): { short: string; sessionId: string } | null {
  const out = view.commands["agents"];
  let parsed: unknown = null;
  try {
    parsed = out?.exitCode === 0 ? JSON.parse(out.stdout) : null;
  } catch {
    return null;
  }
  const list = agents.safeParse(parsed);
  const job = list.success && list.data.length === 1 ? list.data[0]! : null;
  return job?.sessionId ? { short: job.id ?? job.sessionId.slice(0, 8), sessionId: job.sessionId } : null;
}

const params = z.strictObject({
  // "stop": the agent stopped (`claude stop`), then the daemon's exit awaited (it does not exit while an agent is held:
  // still running 60 s later on 2.1.332); "none": the control, resumed while the agent still runs, where the refusal
  // is the release's rule.
  end: choice(["stop", "none"], { default: "stop" }),
});

export default defineScenario({
  name: "resume-background-daemon-gone",
  summary: "A session sent to the background, once its background agent is stopped and its daemon has exited, resumes with `-p --resume ID` instead of being refused as still running in the background.",
  source:
    "anthropics/claude-code#70170 (2.1.177: `--resume <id>` refused, \"is currently running as a background agent (bg)\"), " +
    "#86764 (2.1.223: the same refusal with no process holding the session).",
  link: "https://github.com/anthropics/claude-code/issues/86764",
  params,
  findings: ["resume-refused-as-background"],
  sessions: [ui, s2, s3],
  // The turn runs a short foreground tool, long enough to type `/background` into; whatever follows (the background
  // session's continuation, each resume, which carries the first prompt too) gets the answer.
  mockScript: () => conversation({ main: { marker: MARKER, replies: [bash(`${foregroundWait(8_000)}; echo ${TOOL_DONE}`, "short foreground wait")], then: text("finished") } }),
  steps: ({ end }) => [
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
    end === "stop" ? [command("stop", (view) => { const job = listed(view); return job ? ["stop", job.short] : null; }), daemonExit("the daemon exited", { timeout: 30_000 })] : [],
    // Both ids the conversation may be under: the UI's own, then the background session's.
    print(s2, "go on", { args: ["--resume", UI_ID] }),
    print(s3, "go on", { resumeFrom: (view) => listed(view)?.sessionId ?? null }),
  ],
  check(rec, { end }) {
    // Each resume whose conversation was on disk before it started (the trigger, from the files) must be answered.
    const tries = [s2, s3].flatMap((s) => {
      const p = sessionOf(rec, s)?.process;
      const id = p?.argv[p.argv.indexOf("--resume") + 1];
      if (!p || !id) return [];
      const onDisk = transcriptsOf(rec).some((t) => t.sessionId === id && t.rows.some((row) => row.at !== null && row.at < p.startedAt && row.text.includes(MARKER)));
      const result = resultOf(rec, s);
      const said = JSON.stringify(result?.result ?? result?.errors ?? "").slice(0, 200);
      const asked = requestsOf(rec, { session: s }).length;
      return [{ s, id, onDisk, refused: asked === 0 && p.exitCode !== 0, note: `--resume ${id} (${id === UI_ID ? "the UI's id" : "the background session's id"}, ${onDisk ? "on disk" : "no transcript"}): exit ${p.exitCode ?? "-"}, ${asked} request(s), ${said}` }];
    });
    const notes = tries.map((t) => t.note);
    if (!tries.some((t) => t.onDisk)) return { reached: notReached("no resume ran on a conversation on disk: no background session was listed, the daemon did not exit, or nothing was written"), findings: [], notes };
    const findings = tries
      .filter((t) => t.onDisk && t.refused)
      .map((t) => finding({ id: "resume-refused-as-background", red: end !== "none", title: `--resume ${t.id} was refused ${end === "none" ? "while its background agent still runs (the control)" : "with no daemon left"}`, where: `session ${t.s.name}`, detail: [t.note] }));
    return { reached: reached(), findings, notes };
  },
  // Not reproduced: `ccrepro run resume-background-daemon-gone --claude V` (2026-12-02, one run each).
  known: [
    { versions: "2.1.152 || 2.1.177", verdict: "GREEN", note: "the UI's id resumes (exit 0); the background session's id has no transcript (\"No conversation found\", not this class)" },
    { versions: "2.1.223 || 2.1.235 || 2.1.281 || 2.1.332", verdict: "GREEN", note: "both the UI's id and the background session's id resume and are answered once the agent is stopped and the daemon exited" },
    { versions: "2.1.332", params: { end: "none" }, verdict: "GREEN", note: "control: while the agent still runs, --resume of the background session's id exits 1 with no request (finding, not red)" },
  ],
  timeoutMs: 240_000,
  needs: ["interactive-background", "resume"],
});
