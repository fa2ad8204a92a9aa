// One headless turn (`claude -p PROMPT --mcp-config …`) whose stdio MCP server takes a while to initialise: the
// turn's first model request must offer the server's tools (anthropics/claude-code#76239, #65094, #60224, #74926).
import { conversation, defineScenario, mcpServer, milliseconds, print, session, text, z } from "../kit/index.ts";
import { finding, initOf, mcpEventsOf, notReached, reached, requestsOf, resultOf } from "../kit/checkers.ts";

const MARKER = "MCP_FIRST_TURN_8D";
const SERVER = "slowfix";
const TOOL = `mcp__${SERVER}__lookup`;
const s1 = session("s1");

export default defineScenario({
  name: "mcp-tools-first-turn",
  summary: "A `claude -p` turn whose stdio MCP server is slow to initialise still offers the server's tools in its first model request.",
  source: "anthropics/claude-code#76239 (open), #65094, #60224, #74926: MCP tools missing on the first headless turn while the server starts.",
  link: "https://github.com/anthropics/claude-code/issues/76239",
  // How long the server takes before it reads `initialize` (the reports: a few seconds, and servers slower than 15 s).
  params: z.strictObject({ delayMs: milliseconds({ default: 3000, max: 30_000 }) }),
  findings: ["mcp-tools-missing-first-turn"],
  sessions: [s1],
  mcpServers: (p) => [mcpServer(SERVER, { tools: ["lookup"], startupDelayMs: p.delayMs })],
  mockScript: () => conversation({ main: { marker: MARKER, replies: [], then: text("done") } }),
  steps: () => [print(s1, `${MARKER} use the lookup tool`)],
  check(rec, p) {
    const init = initOf(rec, s1);
    const first = requestsOf(rec, { stream: "main" })[0];
    if (!init || !first || !resultOf(rec, s1)) return { reached: notReached("the turn never made its first model request and printed a result"), findings: [] };
    // The trigger: claude started this server, and the server spent the delay before it read anything.
    const started = mcpEventsOf(rec, SERVER).find((e) => e.event === "started" && e.t < first.receivedAt);
    if (!started) return { reached: notReached(`claude never started the MCP server before its first request`), findings: [] };
    const initialize = mcpEventsOf(rec, SERVER).find((e) => e.method === "initialize" && e.pid === started.pid);
    const status = init.mcp_servers.find((s) => s.name === SERVER)?.status ?? "absent";
    // Offered with its schema in `tools`, or (releases with ToolSearch) named among the deferred tools the request lists.
    const offered = first.tools.includes(TOOL) ? "in tools" : first.raw().includes(TOOL) ? "deferred (named for ToolSearch)" : null;
    const answeredAt = initialize ? `${((initialize.t - started.t) / 1000).toFixed(1)} s after it started` : "never";
    const seen = `server started ${((first.receivedAt - started.t) / 1000).toFixed(1)} s before request #${first.seq}, read initialize ${answeredAt}; init status ${status}; ${TOOL} ${offered ?? "not offered"} in request #${first.seq}`;
    const findings = offered
      ? []
      : [finding({ id: "mcp-tools-missing-first-turn", title: `the first request offers no ${TOOL} (the server took ${p.delayMs} ms to initialise; init says ${status})`, where: `request #${first.seq}; s1 stdout line ${init.line}`, detail: [seen] })];
    return { reached: reached(), findings, notes: [seen] };
  },
  // ccrepro bisect mcp-tools-first-turn --old 2.1.119 --new 2.1.150, --old 2.1.150 --new 2.1.332, and with
  // --param delayMs=16000 --old 2.1.0 --new 2.1.110; then run … --repeat 5 on both sides of each boundary (5 of 5 alike).
  known: [
    { versions: "0.2.118 - 2.1.141", verdict: "GREEN", note: "waits for a 3 s server: 1.0.128, 2.0.77, 2.1.110, 2.1.112 (cli.js), 2.1.113 (native), 2.1.119, 2.1.137, 2.1.140, 2.1.141 (5 runs 2026-12-02, 3 more 2026-12-06)" },
    { versions: ">=2.1.142 <=2.1.220", verdict: "RED", finding: "mcp-tools-missing-first-turn", note: "first request ~1.5–2 s after the server started, init status pending: 2.1.142 (5 runs 2026-12-02, 3 more 2026-12-06), 2.1.143, 2.1.144 (3 runs, the release the record names), 2.1.150, 2.1.199, 2.1.219, 2.1.220 (5 runs); GREEN with delayMs 0 (2.1.142, 2.1.220)" },
    { versions: ">=2.1.221", verdict: "GREEN", note: "waits for the server again: 2.1.221 (5 runs), 2.1.224, 2.1.229, 2.1.240, 2.1.332 (names the tool for ToolSearch)" },
    { versions: "0.2.118 - 2.1.88", params: { delayMs: 16000 }, verdict: "GREEN", note: "waits 16 s for the server (the atlas, 2026-12-07, every release from 0.2.118): 1.0.128, 2.0.77, 2.1.0, 2.1.52, 2.1.79, 2.1.86, 2.1.87, 2.1.88 (5 runs)" },
    { versions: ">=2.1.89 <=2.1.220", params: { delayMs: 16000 }, verdict: "RED", finding: "mcp-tools-missing-first-turn", note: "gives up after ~5 s (2.1.89 (5 runs), 2.1.92, 2.1.110, 2.1.112, 2.1.113, 2.1.119), ~1.5 s from 2.1.142 (2.1.220, 5 runs)" },
    { versions: ">=2.1.221", params: { delayMs: 16000 }, verdict: "GREEN", note: "waits 16 s: 2.1.221 (5 runs), 2.1.332" },
  ],
  // The record (CHANGELOG and #76239) dates the ~2 s wait from 2.1.144; ccrepro measures it from 2.1.142 (2.1.141
  // GREEN, 2.1.142 and 2.1.144 RED, 3 runs each on 2026-12-06): the changelog dates a note, not the commit.
  publicRecord: {
    role: "reproduction",
    releases: [
      { version: "2.1.144", says: "reported", source: "#76239; CHANGELOG 2.1.144" },
    ],
  },
  needs: ["stream-json-output"],
  timeoutMs: 120_000,
});
