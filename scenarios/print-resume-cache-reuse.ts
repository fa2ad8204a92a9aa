// A `claude -p --resume` turn must be able to read from the prompt cache all of the conversation the previous turn cached.
import { bash, choice, conversation, defineScenario, flag, mcpServer, print, session, text, z } from "../kit/index.ts";
import { auditCache, describeBoundary, finding, notReached, reached, resultOf, resumeCacheFindings } from "../kit/checkers.ts";

const params = z.strictObject({
  // The first turn runs a Bash tool call before its answer (two requests), or answers at once.
  tool: flag({ default: true }),
  // How each prompt reaches `claude -p`: as its argument, or on stdin.
  prompt: choice(["arg", "stdin"], { default: "arg" }),
  // Every turn gets an MCP server (one tool): one of the triggers CHANGELOG 2.1.90 names for its resume fix.
  mcp: flag({ default: false }),
});
type Params = z.output<typeof params>;

const MARKER = "CCREPRO_CACHE_7Q";
const PROMPTS = [`${MARKER} first turn: reply with exactly the word: one`, "second turn: reply with exactly the word: two", "third turn: reply with exactly the word: three"];
const SESSIONS = [session("p1"), session("p2"), session("p3")];
const FINDING = "resume-reads-less-than-readable";
// #34629's own symptom, "cache_read never grows": the last resume reads no more than the first did, though the conversation grew.
const NEVER_GROWS = "resume-reads-never-grow";

// The rule (checker/cache-audit.ts, resumeCacheFindings): at each `--resume` boundary, the last request of the previous
// process wrote a cache entry for its prompt up to its last cache_control breakpoint (when long enough, and still alive
// when the resumed request arrives). That prefix is history a correct client re-sends unchanged, with a breakpoint
// within the API's lookback of its end, so the resumed request can read all of it. RED when the resumed request, as
// the prompt-cache model reads it, reads fewer tokens than that prefix. Not "identical prefix": a request that differs
// only after the cached prefix is fine, and an identical one whose breakpoints leave the prefix out of reach is not.
const steps = (p: Params) => SESSIONS.map((s, i) => print(s, PROMPTS[i]!, { via: p.prompt, resume: SESSIONS[i - 1], timeout: 90_000 }));

export default defineScenario({
  name: "print-resume-cache-reuse",
  summary: "Each `claude -p --resume` turn reads from the prompt cache all of the conversation that the previous turn cached.",
  source:
    "anthropics/claude-code#34629: from 2.1.69, `claude --print --resume` stopped reusing the prompt cache; cache reads no longer grow " +
    "beyond the system prompt, so every resumed turn pays to write the whole conversation again (2.1.68 works). CHANGELOG 2.1.90 fixed a " +
    "full cache miss on --resume's first request for users with deferred tools, MCP servers or custom agents (regression since 2.1.69).",
  link: "https://github.com/anthropics/claude-code/issues/34629",
  params,
  findings: [FINDING, NEVER_GROWS],
  mockScript: ({ tool }) =>
    conversation(
      { main: { marker: MARKER, replies: tool ? [bash("echo CACHE_TOOL_DONE", "print a word"), text("one")] : [text("one")], then: text("ok") } },
      // Any user message, not the first: from 2.1.69 the first is a list of deferred tools, and Bash is one of them (not
      // in `tools`). claude's own result usage then shows what the modelled cache read and wrote.
      { streams: [{ stream: "main", anyUserContains: MARKER }], usage: "cache-model" },
    ),
  mcpServers: ({ mcp }) => (mcp ? [mcpServer("cachemcp", { tools: ["lookup"] })] : []),
  sessions: SESSIONS,
  steps,
  check(rec) {
    const missing = SESSIONS.find((s) => resultOf(rec, s) === null);
    const audit = auditCache(rec);
    const main = audit.streams.find((s) => s.stream === "main");
    const stops = main?.boundaries.filter((b) => b.boundary.kind === "stop") ?? [];
    const findings = resumeCacheFindings({ ...audit, streams: main ? [main] : [] })
      .filter((f) => f.boundary.kind === "stop")
      .map((f) =>
        finding({
          id: FINDING,
          title: "a resumed request reads less of the previous conversation from the cache than a correct client makes readable",
          where: describeBoundary(f.boundary),
          detail: [f.message],
          data: { cost: f.cost },
        }),
      );
    // The resumed requests' reads, in order: #34629 saw them stuck at the system prompt, however long the conversation.
    const reads = stops.map((b) => b.read);
    if (reads.length >= 2 && reads.at(-1)! <= reads[0]!) {
      findings.push(
        finding({
          id: NEVER_GROWS,
          title: "the cache reads of resumed requests never grow: the last resume reads no more than the first, as #34629 reports",
          where: describeBoundary(stops.at(-1)!.boundary),
          detail: [`tokens read per resume, of those readable: ${stops.map((b) => `~${b.read} of ~${b.readable}`).join(", ")}`],
          data: { reads },
        }),
      );
    }
    const point =
      missing !== undefined
        ? notReached(`session ${missing.name} printed no result`)
        : stops.length < 2
          ? notReached(`the mock saw ${stops.length} of 2 resumed turns of the conversation`)
          : reached();
    return { reached: point, findings, notes: audit.notes };
  },
  // Measured 2026-12-06 with `ccrepro run print-resume-cache-reuse --claude V [--param mcp=true] --repeat 3` (docs/scenarios/print-resume-cache-reuse.md).
  known: [
    { versions: "0.2.118 - 1.0.5 || 2.1.63 - 2.1.67", verdict: "RED", finding: FINDING, note: "the atlas, 2026-12-07 (every release sampled in the ranges; 1.0.5 and 2.1.63 re-run 3 of 3)" },
    { versions: "1.0.8 - 2.0.15", verdict: "RED", finding: NEVER_GROWS, note: "and the resumes read less than readable: the atlas, 2026-12-07 (1.0.8 and 2.0.15 re-run 3 of 3)" },
    { versions: "2.0.19 - 2.1.62", verdict: "GREEN", note: "the atlas, 2026-12-07 (2.0.19 and 2.1.62 re-run 3 of 3)" },
    {
      versions: "2.1.68",
      verdict: "RED",
      finding: FINDING,
      note:
        "small, and the reads grow (3 of 3 runs): on resume the skills reminder leaves the first user message, so the 1st resume reads tools + system only (~290 tokens lost); " +
        "a breakpoint on the message before the last lets the 2nd resume read up to the previous reply (~95 lost). #34629 calls 2.1.68 working: its cost was the reads that never grow",
    },
    {
      versions: "2.1.69 || 2.1.87 || 2.1.90 || 2.1.91 || 2.1.92",
      verdict: "RED",
      finding: NEVER_GROWS,
      note:
        "#34629: the skills reminder still moves to the newest prompt on every resume and only the last message has a breakpoint, so every resume reads tools + system only " +
        "(2.1.69, 2.1.90 and 2.1.92 3 of 3 runs; 2.1.87, 2.1.91 2 of 2 in the bisection)",
    },
    {
      versions: "2.1.89 || 2.1.90",
      params: { mcp: true },
      verdict: "RED",
      finding: NEVER_GROWS,
      note:
        "the 2.1.90 fix's trigger (an MCP server; its tool is loaded, not deferred, against a custom base URL) changes nothing here: 2.1.89 and 2.1.90 send the same requests " +
        "and read tools + system only on each resume, the skills reminder breaking messages[0] (3 of 3 runs each)",
    },
    { versions: "2.1.94 || 2.1.97 || 2.1.110", verdict: "GREEN", note: "2.1.94 (3 of 3 runs) is the first release that keeps the skills reminder in the first message on resume: each resume reads all the previous turn wrote (2.1.97, 2.1.110 bisected, 2 of 2)" },
    { versions: ">=2.1.150", verdict: "GREEN", note: "history re-sent byte for byte; each resume reads all the previous turn wrote (measured on 2.1.150, 2.1.281, 2.1.332)" },
    { versions: "2.0.19 - 2.1.62 || >=2.1.94", params: { mcp: true }, verdict: "GREEN", note: "with an MCP server too (2.1.332; the atlas, 2026-12-07, 59 releases measured; each side of its edges re-run 3 of 3)" },
    { versions: "0.2.118 - 2.0.15 || 2.1.69 - 2.1.88 || 2.1.91 - 2.1.92", params: { mcp: true }, verdict: "RED", finding: NEVER_GROWS, note: "and the resumes read less than readable; with the server the reads never grow from 0.2.118 on, where without it they begin to on 1.0.8 (the atlas, 2026-12-07: 27 releases measured; 1.0.5, 2.0.15, 2.1.69 and 2.1.92 re-run 3 of 3)" },
    { versions: "2.1.63 - 2.1.68", params: { mcp: true }, verdict: "RED", finding: FINDING, note: "as without the server (the atlas, 2026-12-07: 2.1.63, 2.1.67, 2.1.68; 2.1.63 and 2.1.68 re-run 3 of 3)" },
  ],
  publicRecord: {
    role: "reproduction",
    releases: [
      { version: "2.1.68", says: "works", source: "#34629" },
      { version: "2.1.69", says: "reported", source: "#34629" },
      { version: "2.1.90", says: "fixed", source: "CHANGELOG 2.1.90", params: { mcp: true } },
    ],
  },
  // Plain `claude -p` turns: no stream-json input, only --resume and stream-json output.
  needs: ["stream-json-output", "resume"],
  timeoutMs: 360_000,
});
