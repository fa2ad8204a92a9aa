// A session resumed after its last run left a Monitor running must wait for the user: no request before a prompt.
import { allOf, choice, conversation, defineScenario, press, quietFor, requestsMade, screenWait, session, stop, terminal, text, toolCall, type, wait, watch, z } from "../kit/index.ts";
import { finding, notReached, reached, requestsOf, type Recordings } from "../kit/checkers.ts";

const [MARKER, TYPED] = ["CCREPRO_MONITOR_RESUME_8M", "CCREPRO_MONITOR_TYPED_8M"];
const [s1, s2] = [session("s1"), session("s2")];
const params = z.strictObject({
  // How the first UI ends with the monitor running: SIGKILL (no completion record, as the report's resume shows), SIGTERM,
  // or /exit and "Exit anyway" in the dialog it opens.
  exit: choice(["sigkill", "sigterm", "exit-anyway"], { default: "sigkill" }),
});

// The resumed session's main-loop requests that carry no typed prompt: a turn it started by itself.
const unprompted = (rec: Recordings) => requestsOf(rec, { session: s2, stream: "main" }).filter((r) => !r.raw().includes(TYPED));

export default defineScenario({
  name: "resume-monitor-starts-turn",
  summary: "A session resumed after a Monitor was left running waits for the user: it sends no request before a prompt is typed.",
  source: "anthropics/claude-code#80373 (2.1.218, win32): exiting claude with a Monitor still running, then resuming the session, " +
    "auto-starts a turn (\"No completion record was found for this background shell command from the previous session…\"): unexpected token usage.",
  link: "https://github.com/anthropics/claude-code/issues/80373",
  params,
  findings: ["resume-starts-turn-unprompted"],
  sessions: [s1, s2],
  mockScript: () => conversation({ main: { marker: MARKER, replies: [toolCall("Monitor", { command: "touch app.log; tail -f app.log | grep --line-buffered ERROR", description: "errors in app.log", persistent: true }), text("watching")], then: text("ok") } }),
  // Monitor is compiled in from 2.1.98 but behind GrowthBook flag tengu_amber_sentinel (read from the config's cache
  // with telemetry off from 2.1.211), and deferred behind ToolSearch: these switch it on and list it up front.
  env: { CLAUDE_CODE_GB_DISK_CACHE_WHEN_TELEMETRY_OFF: "1", ENABLE_TOOL_SEARCH: "false" },
  files: { config: { ".claude.json": JSON.stringify({ cachedGrowthBookFeatures: { tengu_amber_sentinel: true } }) } },
  steps: (p) => [
    terminal(s1),
    [type(s1, `${MARKER} watch app.log for errors`), press(s1, "enter")],
    wait("the monitor started and the turn was answered", allOf(requestsMade(2, { session: s1, stream: "main" }), quietFor(2_000)), { onTimeout: "error" }),
    p.exit === "exit-anyway" ? [type(s1, "/exit"), press(s1, "enter"), screenWait(s1, "the exit dialog", ({ screen }) => /Exit anyway/.test(screen), { timeout: 15_000 }), press(s1, "enter"), screenWait(s1, "exited", ({ exited }) => exited, { timeout: 15_000 })] : stop(s1, { how: p.exit === "sigterm" ? "sigterm" : "sigkill" }),
    terminal(s2, { resume: s1 }),
    watch("the resumed UI starts no turn by itself", (rec) => unprompted(rec).length > 0, { timeout: 15_000 }),
    [type(s2, `${TYPED} say ok`), press(s2, "enter")],
    wait("the typed prompt was answered", (rec) => requestsOf(rec, { session: s2, stream: "main" }).some((r) => r.raw().includes(TYPED) && rec.responseEnds.has(r.seq))),
  ],
  check(rec) {
    const started = requestsOf(rec, { session: s1, stream: "main" })[1]?.toolResults.some((r) => r.text.includes("Monitor started"));
    if (!started) return { reached: notReached("the first session's Monitor call never started a monitor (no \"Monitor started\" tool result)"), findings: [] };
    const extra = unprompted(rec);
    const typed = requestsOf(rec, { session: s2, stream: "main" }).some((r) => r.raw().includes(TYPED));
    if (extra.length === 0 && !typed) return { reached: notReached("the resumed UI never sent the typed prompt"), findings: [] };
    const findings = extra.length === 0 ? [] : [finding({ id: "resume-starts-turn-unprompted", title: "the resumed session sent a request before the user typed anything", where: `request${extra.length > 1 ? "s" : ""} ${extra.map((r) => `#${r.seq}`).join(", ")} of the resumed session, before the typed prompt` })];
    return { reached: reached(), findings, notes: [`${extra.length} unprompted request(s) after the resume`] };
  },
  // ccrepro run resume-monitor-starts-turn --claude V --param exit=… [--repeat 3]; bisect … --old 2.1.218 --new 2.1.332 --param exit=sigkill (2026-12-06)
  known: [
    { versions: "2.1.98 - 2.1.210", verdict: "INCONCLUSIVE", note: "Monitor stays off: these read tengu_amber_sentinel only with telemetry on (2.1.98; 2.1.210 3 of 3, re-run beside 2.1.211; the atlas, 2026-12-07, on every release between; before 2.1.98 there is no Monitor tool: UNSUPPORTED)" },
    { versions: "2.1.211 - 2.1.238 || >=2.1.280", params: { exit: "sigterm" }, verdict: "GREEN", note: "the dying UI answers the monitor's killed notification itself; the resume then waits (2.1.218 2 of 2, exit-anyway 1 of 1; the atlas, 2026-12-07, on every release from 2.1.211)" },
    { versions: "2.1.239 - 2.1.278", params: { exit: "sigterm" }, verdict: "RED", finding: "resume-starts-turn-unprompted", note: "a SIGTERM no longer saves the session from it: the resumed UI starts a turn nobody asked for, as after a SIGKILL (the atlas, 2026-12-07; 2.1.238, 2.1.239, 2.1.278 and 2.1.280 re-run 3 of 3)" },
    { versions: "2.1.98 - 2.1.210", params: { exit: "sigterm" }, verdict: "INCONCLUSIVE", note: "the first session's Monitor call never started a monitor (the atlas)" },
    { versions: ">=2.1.211 <=2.1.278", verdict: "RED", finding: "resume-starts-turn-unprompted", note: "bisected (last RED 2.1.278, 3 of 3): the resumed UI sends \"No completion record was found…\" before any prompt (2.1.211 3 of 3, 2.1.218 5 of 5, 2.1.277)" },
    { versions: ">=2.1.280", verdict: "GREEN", note: "the resumed UI waits for the typed prompt (first GREEN 2.1.280, 3 of 3; 2.1.281, 2.1.284, 2.1.290, 2.1.305; 2.1.332 4 of 4)" },
  ],
  publicRecord: { role: "reproduction", releases: [{ version: "2.1.218", says: "reported", source: "#80373 (win32)" }] },
  drivers: ["terminal"],
  needs: ["tool:Monitor", "resume"],
});
