// `/background` typed while a foreground tool runs must hand the in-flight turn on, answered exactly once.
import { allOf, bash, command, conversation, count, daemonExit, defineScenario, milliseconds, foregroundWait, press, quietFor, screenWait, session, terminal, text, type, watch, z, type CommandView, type Condition } from "../kit/index.ts";
import { checkContinuation, sessionOf, turnAnswered, type Recordings } from "../kit/checkers.ts";

const MARKER = "CCREPRO_BGTURN_7Q";
const PROMPT = `${MARKER} run the slow command, then reply with exactly the word: finished`;
const TOOL_DONE = "SLOW_TOOL_DONE";
const ui = session("ui");
const AGENTS = "agents";
const AGENTS_LATER = "agents-later";
// After the answer, how long the log must stay quiet before the watch ends: a second answer would come in this window.
const QUIET_MS = 5_000;

const params = z.strictObject({
  // How long the foreground tool runs when nobody interrupts it.
  toolMs: milliseconds({ default: 20_000, max: 120_000 }),
  // Seconds of tool run time the UI shows before `/background` is typed.
  backgroundAfter: count({ default: 3, min: 1, max: 60 }),
});
type Params = z.output<typeof params>;

// The elapsed time the UI shows for the running tool, on the rows from its command on: "Running… (5s)" on older
// releases, "$ command sleep … (5s)" on newer ones. The spinner's "(5s · ↓ 27 tokens)" does not match.
function toolSecondsShown(screen: string): number {
  const rows = screen.split("\n");
  const at = rows.findIndex((row) => row.includes(TOOL_DONE));
  const shown = at === -1 ? null : /\((\d+)s\)/.exec(rows.slice(at, at + 3).join("\n"));
  return shown ? Number(shown[1]) : 0;
}

const toolCallDelivered = (rec: Recordings) =>
  rec.requests.some((r) => r.stream === "main" && r.reply.stopReason === "tool_use" && rec.responseEnds.get(r.seq)?.outcome === "complete");

// Another process than the UI answered the turn; the UI's own answer does not count: it may come on its way out,
// before the background session's.
const answeredElsewhere: Condition = (rec) => turnAnswered(rec, "main", sessionOf(rec, ui)?.process?.pid ?? null);

// `claude agents --json`: the sessions the daemon knows. Fields this scenario does not read may come and go by release.
// 2.1.150 lists no `id`, only `sessionId`; its short id, the one `claude logs`/`stop` take and the config dir's
// `jobs/<id>/` is named by, is the session id's first 8 hex digits (2.1.150 and 2.1.200: `daemonShort` in state.json).
const agentsList = z.array(z.looseObject({ id: z.string().optional(), name: z.string().optional(), sessionId: z.string().optional() }));
const SHORT_ID = /^[0-9a-f]{8}/;

// The background session `/background` made of this turn, from `claude agents --json` rather than the screen: some
// releases clear the screen as the UI exits, and the "backgrounded · <id>" line is gone with it. The run's isolated
// config dir holds only this run's sessions; the one named after the prompt is ours. Null when none is listed, so the
// steps that need it are skipped and the checker judges the turn from the request log alone.
export function backgroundJobId(commands: CommandView["commands"]): string | null {
  // Right after the UI exits, the daemon may not list the job yet (2.1.150 printed [] once): the second listing,
  // taken once the turn had its chance to be answered, is asked when the first named nothing.
  return jobIdIn(commands[AGENTS]) ?? jobIdIn(commands[AGENTS_LATER]);
}

function jobIdIn(out: CommandView["commands"][string] | undefined): string | null {
  if (!out || out.exitCode !== 0) return null;
  let parsed: z.output<typeof agentsList>;
  try {
    parsed = agentsList.parse(JSON.parse(out.stdout));
  } catch {
    return null;
  }
  const named = parsed.filter((agent) => agent.name?.includes(MARKER));
  const ours = named.length > 0 ? named : parsed;
  const agent = ours.length === 1 ? ours[0]! : null;
  return agent?.id ?? SHORT_ID.exec(agent?.sessionId ?? "")?.[0] ?? null;
}

const withJob = (command: string) => (view: CommandView) => {
  const id = backgroundJobId(view.commands);
  return id === null ? null : [command, id];
};

const steps = (p: Params) => [
  terminal(ui),
  type(ui, PROMPT),
  press(ui, "enter"),
  screenWait(ui, `the slow tool has run ${p.backgroundAfter} s`, ({ screen, rec }) => toolCallDelivered(rec) && toolSecondsShown(screen) >= p.backgroundAfter, {
    timeout: 30_000 + p.backgroundAfter * 1000,
  }),
  type(ui, "/background"),
  screenWait(ui, "the input line holds /background", ({ screen }) => /^❯\s*\/background\s*$/m.test(screen), { timeout: 10_000 }),
  press(ui, "enter"),
  screenWait(ui, "the UI exited after /background", ({ exited }) => exited, { timeout: 30_000 }),
  command(AGENTS, ["agents", "--json"]),
  // The background session may run the whole tool again before it answers.
  watch("another process answers the turn, then the log stays quiet", allOf(answeredElsewhere, quietFor(QUIET_MS)), { timeout: p.toolMs + 30_000 }),
  command(AGENTS_LATER, ["agents", "--json"]),
  command("logs", withJob("logs")),
  command("stop", withJob("stop")),
  // 2.1.139–2.1.141 have no `agents --json`, so no job id to stop: their daemon idles on and the reaper ends it.
  daemonExit("the transient daemon exited", { timeout: 30_000, onTimeout: "continue" }),
];

export default defineScenario({
  name: "background-mid-turn",
  summary: "`/background` typed while a foreground tool runs hands the in-flight turn to the background session, which answers it exactly once.",
  source:
    "anthropics/claude-code#62118: typing /background while a turn is in flight forks the session into the background, " +
    "but the forked session silently drops the in-flight turn instead of continuing it.",
  link: "https://github.com/anthropics/claude-code/issues/62118",
  params,
  findings: ["turn-dropped", "turn-duplicated", "tool-killed"],
  // Step 0 (the prompt, and any re-send of it) gets the slow tool call; whatever follows it gets the answer.
  mockScript: ({ toolMs }) =>
    conversation({ main: { marker: MARKER, replies: [bash(`${foregroundWait(toolMs)}; echo ${TOOL_DONE}`, "slow foreground wait")], then: text("finished") } }),
  sessions: [ui],
  steps,
  check: (rec) => checkContinuation(rec, { stream: "main", foregroundPid: sessionOf(rec, ui)?.process?.pid ?? null }),
  known: [
    // The atlas (2026-12-07, `ccrepro atlas background-mid-turn --until-red 2`, alone), one run a release.
    { versions: "2.1.119 || 2.1.120", verdict: "RED", finding: "turn-dropped", note: "the atlas, 2026-12-07: the first releases with an interactive `/background` drop the turn" },
    { versions: "2.1.121 - 2.1.138", verdict: "INCONCLUSIVE", note: "the atlas, 2026-12-07: the foreground UI finished the tool itself, so `/background` came after the turn's tool call" },
    { versions: "2.1.139 - 2.1.148", verdict: "RED", note: "the atlas, 2026-12-07: turn-duplicated and tool-killed on 2.1.139 - 2.1.141, turn-dropped from 2.1.143" },
    {
      versions: "2.1.150",
      verdict: "RED",
      finding: "turn-dropped",
      note: "the background session never continues the turn (10 of 10 runs); in 7 of them the exiting UI also reported the tool as killed (Exit code 137, tool-killed)",
    },
    { versions: "2.1.332", verdict: "GREEN", note: "10 of 10 runs: the background session re-sends the prompt, runs the tool again and answers once (turn-rerun, informational)" },
    // `ccrepro run background-mid-turn --claude V --repeat 10` on 2026-11-30, and two bisects with --repeat 2:
    // `--old 2.1.231 --new 2.1.260` (first GREEN 2.1.239) and `--old 2.1.231 --new 2.1.236 --finding turn-dropped`.
    {
      versions: "2.1.153",
      verdict: "RED",
      finding: "turn-dropped",
      note:
        "measured 2026-12-06, 3 of 3 runs (tool-killed too in 2): the changelog's 2.1.153 fix of `/bg` while Claude is responding " +
        "does not reach `/background` typed while a foreground tool runs",
    },
    { versions: "2.1.160 || 2.1.170 || 2.1.200", verdict: "RED", finding: "turn-dropped", note: "measured, 10 of 10 runs: the turn is dropped (the UI also kills the tool: tool-killed)" },
    {
      versions: "2.1.231",
      verdict: "RED",
      note:
        "measured, 10 of 10 runs RED: 8 turn-dropped; in 2 the background session did re-run the turn after the exiting UI had " +
        "answered it with the killed tool's result (turn-duplicated), a race of the release's own",
    },
    { versions: "2.1.233", verdict: "RED", finding: "turn-dropped", note: "bisected, 2 of 2 runs each time: the turn is dropped (tool-killed too)" },
    {
      versions: "2.1.234 || 2.1.235",
      verdict: "RED",
      note:
        "RED in every run, the turn dropped in most (tool-killed too); answered twice (turn-duplicated) in 1 of 4 runs on " +
        "2.1.234 and 1 of 8 on 2.1.235 in rate bisections (2026-12-02), the race 2.1.231 shows",
    },
    {
      versions: "2.1.236 || 2.1.237 || 2.1.238",
      verdict: "RED",
      finding: "tool-killed",
      note:
        "measured, RED in most runs, GREEN in some on 2.1.236, 2.1.237 and 2.1.238: the background session always continues the " +
        "turn, but from a copy of the transcript made in a race with the exiting UI. When the copy holds the tool call and " +
        "the UI's kill of it, the model is told the tool was killed (Exit code 137, tool-killed); when it was made before " +
        "the tool call, the prompt is re-sent and the tool runs again (turn-rerun, GREEN). 2.1.236: 8 of 8 RED, then GREEN in 2 of the " +
        "10 runs of a rate bisection (2026-12-02); 2.1.237: 5 RED, 1 GREEN of 6 runs beside another run; 2.1.238: 18 of 18 RED alone, 3 RED and 1 " +
        "GREEN beside two other runs; with nothing beside them, RED in all 22 runs of four rate bisections (2026-12-02). A " +
        "nightly runs this scenario alone (runsAlone)",
    },
    {
      versions: "2.1.239 || 2.1.242",
      verdict: "GREEN",
      note:
        "bisected, 2 of 2 runs each, and 2.1.239 6 of 6 beside another run and 4 of 4 beside up to two: the first releases " +
        "that re-run the tool in the background session every time (turn-rerun)",
    },
    { versions: "2.1.260 || 2.1.290 || 2.1.310", verdict: "GREEN", note: "measured, 10 of 10 runs each: re-run once in the background session (turn-rerun)" },
  ],
  publicRecord: {
    role: "reproduction",
    releases: [
      { version: "2.1.150", says: "reported", source: "#62118 (\"the latest version\" on 2026-05-25, the report's date)" },
      { version: "2.1.153", says: "fixed", source: "CHANGELOG 2.1.153 (`/bg` while Claude is responding)" },
    ],
  },
  timeoutMs: 240_000,
  needs: ["interactive-background"],
  // The window's race is the machine's as much as the release's: 2.1.238 was RED in 18 of 18 runs alone and GREEN in
  // 1 of 4 beside two other runs. Repeats, sweeps and the nightly run it with nothing beside it.
  runsAlone: true,
});
