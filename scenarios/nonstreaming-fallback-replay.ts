// A stream cut after its tool_use block and retried (streamed, or by the non-streaming fallback) runs the tool once.
import { choice, conversation, defineScenario, drop, midStreamError, print, session, text, z } from "../kit/index.ts";
import { exitOf, fileOf, finding, notReached, reached, requestsOf } from "../kit/checkers.ts";

const MARKER = "CCREPRO_NONSTREAM_6P";
const s1 = session("s1");
// toolId=same: the tool_use keeps one id on every try (the cut stream's and the retry's answer carry the same id).
const SAME_ID = "toolu_ccrepro_same_1";
const replyOf = (toolId: "new" | "same") => ({
  content: [{ type: "tool_use" as const, name: "Bash", input: { command: "echo ran >> side.txt", description: "append a line" }, ...(toolId === "same" ? { id: SAME_ID } : {}) }],
});

export default defineScenario({
  name: "nonstreaming-fallback-replay",
  summary:
    "Guard: when a stream that sent a tool_use is cut (an error event, or a dropped connection) and retried (streamed, or by the non-streaming fallback), " +
    "the tool runs once and its id is sent once.",
  source:
    "anthropics/claude-code#21083, #20901, #21072, #20751 (and #21071, #38569): on 2.1.19 (2.1.17 and 2.1.18 fine) any tool call in `claude -p` failed: the next request, " +
    "made by the non-streaming fallback per #21083's debug log, carried one tool_use id twice (400 \"tool_use ids must be unique\"). Control: " +
    "CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK=1 in the caller's environment (passed through).",
  link: "https://github.com/anthropics/claude-code/issues/21083",
  params: z.strictObject({
    // none: no fault at all, a plain tool call in `claude -p`: the trigger the 2.1.19 reports name ("any tool use").
    cut: choice(["error-event", "drop", "none"], { default: "drop" }),
    // new: each try's tool_use gets an id of its own (as a new generation does); same: the retry answers with the
    // tool_use id the cut stream already sent, so a client that keeps both copies sends one id twice.
    toolId: choice(["new", "same"], { default: "new" }),
  }),
  findings: ["tool-run-twice", "duplicate-tool-use-ids"],
  sessions: [s1],
  passEnv: ["CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK"],
  // The first try of the turn's first call is cut right after the tool_use block; its retry gets the reply whole.
  mockScript: (p) => {
    const call = replyOf(p.toolId);
    const first = p.cut === "drop" ? drop(call, { afterBlocks: 1, times: 1 }) : p.cut === "error-event" ? midStreamError(call, { afterBlocks: 1, times: 1 }) : call;
    return conversation({ main: { marker: MARKER, replies: [first], then: text("done") } });
  },
  steps: () => [print(s1, `${MARKER} append the line`, { timeout: 90_000 })],
  check(rec, p) {
    const main = requestsOf(rec, { stream: "main" });
    // With cut=none the turn's first request stands in for the cut one; the point is then the tool loop's next request.
    const cut = p.cut === "none" ? main[0] : main.find((r) => r.reply.fault !== null);
    const exit = exitOf(rec, s1);
    if (!cut) return { reached: notReached(p.cut === "none" ? "no request of the turn was made" : "no request was cut after its tool_use"), findings: [] };
    if (p.cut === "none" && !main.some((r) => (r.entry.step ?? 0) > 0)) return { reached: notReached("the tool loop made no request after the tool call"), findings: [] };
    if (!exit || exit.exitCode === null) return { reached: notReached("claude -p did not exit by itself"), findings: [] };
    const runs = (fileOf(rec, "side.txt")?.text ?? "").split("ran").length - 1;
    const findings = [];
    if (runs > 1) findings.push(finding({ id: "tool-run-twice", title: `the tool of the cut turn ran ${runs} times`, where: "side.txt" }));
    const dup = main.find((r) => new Set(r.toolUses.map((u) => u.id)).size < r.toolUses.length);
    if (dup) findings.push(finding({ id: "duplicate-tool-use-ids", title: "a request carries the same tool_use id twice (the API answers 400)", where: `request #${dup.seq}` }));
    const later = main.filter((r) => r.seq > cut.seq).map((r) => `#${r.seq} step ${r.entry.step}${r.streaming ? "" : " NOT streamed"}`);
    return { reached: reached(), findings, notes: [`${p.cut === "none" ? "first" : "cut"} #${cut.seq} (${cut.reply.fault ?? "no fault"}); later: ${later.join(", ") || "none"}; tool ran ${runs}×; exit ${exit.exitCode}`] };
  },
  needs: ["stream-json-output"],
  // Measured 2026-12-01 and 2026-12-06: node bin/ccrepro.mjs run nonstreaming-fallback-replay --claude V --param cut=C
  // [--param toolId=same] [--repeat 3] (docs/scenarios/nonstreaming-fallback-replay.md). Not reproduced on any release.
  known: [
    { versions: "0.2.70 - 1.0.5 || 1.0.31 - 1.0.64", verdict: "RED", finding: "duplicate-tool-use-ids", note: "the atlas, 2026-12-07 (every release sampled in the ranges; 1.0.5, 1.0.31 and 1.0.64 re-run 3 of 3)" },
    { versions: "1.0.8 - 1.0.9 || 1.0.65 - 2.1.16", verdict: "GREEN", note: "the atlas, 2026-12-07 (1.0.8, 1.0.9 and 1.0.65 re-run 3 of 3)" },
    { versions: "1.0.10 - 1.0.30", verdict: "RED", finding: "tool-run-twice", note: "and duplicate-tool-use-ids: the atlas, 2026-12-07 (1.0.10 and 1.0.30 re-run 3 of 3)" },
    { versions: ">=2.1.17", verdict: "GREEN", note: "not reproduced: 2.1.17, 2.1.19 (3 runs), 2.1.90 retry the cut call non-streamed, 2.1.332 streamed; the tool runs once, no duplicate ids" },
    // The other variants on every release (the atlas, 2026-12-07, `--param …`); each edge re-run 3 of 3 each side.
    { versions: "0.2.70 - 1.0.5 || 1.0.10 - 1.0.64", params: { cut: "error-event" }, verdict: "RED", finding: "duplicate-tool-use-ids", note: "the atlas: as cut=drop, without the tool run twice on 1.0.10 - 1.0.30" },
    { versions: "1.0.8 - 1.0.9 || >=1.0.65", params: { cut: "error-event" }, verdict: "GREEN", note: "as cut=drop (2.1.19, 2.1.90, 2.1.332; the atlas on every release)" },
    { versions: "0.2.70 - 1.0.5 || 1.0.31 - 1.0.64", params: { toolId: "same" }, verdict: "RED", finding: "duplicate-tool-use-ids", note: "the atlas: as cut=drop toolId=new" },
    { versions: "1.0.10 - 1.0.30", params: { toolId: "same" }, verdict: "RED", finding: "tool-run-twice", note: "and duplicate-tool-use-ids: the atlas, as cut=drop toolId=new" },
    { versions: "1.0.8 - 1.0.9 || >=1.0.65", params: { toolId: "same" }, verdict: "GREEN", note: "the non-streamed retry answers with the cut stream's tool_use id: the next request carries it once, the tool runs once (2.1.17, 2.1.19, 2.1.20, 2.1.332; the atlas on every release)" },
    { versions: "0.2.70 - 1.0.5 || 1.0.10 - 1.0.64", params: { cut: "error-event", toolId: "same" }, verdict: "RED", finding: "duplicate-tool-use-ids", note: "the atlas: as cut=error-event" },
    { versions: "1.0.8 - 1.0.9 || >=1.0.65", params: { cut: "error-event", toolId: "same" }, verdict: "GREEN", note: "as cut=drop toolId=same (2.1.17, 2.1.19, 2.1.20, 2.1.332; the atlas on every release)" },
    { versions: "0.2.70 - 1.0.64", params: { cut: "none" }, verdict: "RED", finding: "duplicate-tool-use-ids", note: "no cut at all: the next request carries the Bash call's tool_use twice under one id, the history's own (the atlas, 2026-12-07)" },
    { versions: ">=1.0.65", params: { cut: "none" }, verdict: "GREEN", note: "the reports' trigger, a plain tool call in claude -p: the next request carries the tool_use once, no fallback request (2.1.17, 2.1.18, 2.1.19 3/3, 2.1.332; the atlas on every release)" },
  ],
  publicRecord: {
    role: "guard",
    guard:
      "the reports' trigger is any tool call in `claude -p` on 2.1.19, whose next request (its debug log: the non-streaming fallback's) carries one tool_use id twice (400 " +
      "\"messages.1.content.1: `tool_use` ids must be unique\"). Against the mock neither that (`cut=none`) nor a stream cut after its tool_use and replayed by the " +
      "non-streaming fallback, with a new or the same tool_use id (`cut=drop|error-event`, `toolId=new|same`), ever sends an id twice on 2.1.19: what made the reporters' " +
      "streams fail (their accounts, or the API's side) is not something the mock plays, so this scenario guards the fallback path only.",
    releases: [
      { version: "2.1.17", says: "works", source: "#21083, #21072", params: { cut: "none" } },
      { version: "2.1.18", says: "works", source: "#20751", params: { cut: "none" } },
      { version: "2.1.19", says: "reported", source: "#21083, #20901, #21072, #20751", params: { cut: "none" } },
      { version: "2.1.19", says: "reported", source: "#21083 (its debug log: the non-streaming fallback)", params: { cut: "drop", toolId: "same" } },
    ],
  },
});
