// The thinking blocks the API signed must come back byte-identical: in the tool loop, after a kill and `--resume`, and
// after an interrupt in the middle of a thinking block.
import { bash, choice, conversation, defineScenario, httpError, interrupt, midStreamError, pause, resultPrinted, resume, send, session, stall, start, stop, text, thinking, wait, z } from "../kit/index.ts";
import { blocksOf, finding, notReached, reached, requestsOf, resultsOf, type RequestView } from "../kit/checkers.ts";

const MARKER = "CCREPRO_THINKSIG_2M";
// Three signed replies: thinking, text and a tool call; thinking and a second tool call; thinking and the answer.
const THOUGHTS = ["I should run the first command.\nThen look at its output.", "The first one ran. Now the second.", "Both ran. I can answer."];
// Streamed in several thinking_delta events each, as the API streams thinking.
const CHUNKS = 5;
const SIGNED = { signed: true, chunks: CHUNKS };
// message_start, ping, the thinking block's start and its deltas: the stall leaves the block without its signature.
const MID_THINKING = 3 + CHUNKS;
const s1 = session("s1");
const s2 = session("s2");
const params = z.strictObject({
  // kill-resume: the turn runs its tool loop, the process is killed, and `--resume` asks again. interrupt: the first
  // reply stalls inside its thinking block (before the signature) and the session is interrupted, then asked again.
  // error-after-thinking: the first reply's stream ends in an overloaded error event right after its whole thinking
  // block, once; the turn goes on however the release recovers (kept partial, retry, non-streaming fallback).
  // fallback: --model claude-opus-4-5 --fallback-model claude-haiku-4-5, and the tool loop's second request is
  // overloaded (529) for the main model on every try, so the fallback model gets the thinking the main one signed.
  // interleaved: as kill-resume, but the first reply interleaves thinking between two parallel tool calls (thinking,
  // text, tool_use, thinking, tool_use: one assistant message of five blocks), as a long Opus turn does.
  how: choice(["kill-resume", "interrupt", "error-after-thinking", "fallback", "interleaved"], { default: "kill-resume" }),
  // The --model of every session ("default": the release's own), since releases treat thinking per model.
  model: z.string().min(1).default("default"),
});
type Params = z.output<typeof params>;
const modelArgs = (model: string) => (model === "default" ? [] : ["--model", model]);

// The rules the API checks thinking against when it comes back: the text and signature served, a signature at all,
// and, in a tool loop, the turn's first assistant message still starting with its thinking.
const THINKING_RULES = new Set(["thinking-signature-invalid", "thinking-signature-missing", "thinking-dropped-in-tool-loop"]);
const changed = (r: RequestView) => r.entry.conformance.filter((v) => THINKING_RULES.has(v.rule));
const sentBack = (r: RequestView) => blocksOf(r, "thinking");

// The interleaved first reply: two thoughts, each before a tool call, in one message.
const interleaved = thinking(
  THOUGHTS[0]!,
  { content: [{ type: "text", text: "Running both." }, { type: "tool_use", name: "Bash", input: { command: "echo one", description: "first" } }, ...thinking(THOUGHTS[1]!, bash("echo two", "second"), SIGNED).content!] },
  SIGNED,
);
const first = thinking(THOUGHTS[0]!, { content: [{ type: "text", text: "Running it." }, { type: "tool_use", name: "Bash", input: { command: "echo one", description: "first" } }] }, SIGNED);

export default defineScenario({
  name: "thinking-changed-on-replay",
  summary:
    "Guard: signed thinking blocks are sent back exactly as served: in the tool loop, after a kill and `--resume`, after an interrupt mid-thinking, " +
    "between parallel tool calls, and when --fallback-model takes over.",
  source:
    "anthropics/claude-code#63357, #63246, #21289, #19460, #13648: a request sends back a thinking block whose text or signature " +
    "changed (empty thinking with the signature kept, a rebuilt history, a half-streamed block), so the API answers 400 \"Invalid " +
    "`signature` in `thinking` block\" or \"thinking blocks in the latest assistant message cannot be modified\", and every later turn fails.",
  link: "https://github.com/anthropics/claude-code/issues/63357",
  params,
  findings: ["thinking-changed-on-replay"],
  sessions: [s1, s2],
  mockScript: (p: Params) =>
    conversation({
      main: {
        marker: MARKER,
        replies:
          p.how === "interleaved"
            ? [interleaved, thinking(THOUGHTS[2]!, text("both ran"), SIGNED)]
            : [
                p.how === "interrupt"
                  ? stall(first, { afterEvents: MID_THINKING, times: 1 })
                  : p.how === "error-after-thinking"
                    ? midStreamError(first, { afterBlocks: 1, times: 1 })
                    : first,
                p.how === "fallback" ? httpError(529, { model: "opus", then: thinking(THOUGHTS[1]!, bash("echo two", "second"), SIGNED) }) : thinking(THOUGHTS[1]!, bash("echo two", "second"), SIGNED),
                thinking(THOUGHTS[2]!, text("both ran"), SIGNED),
              ],
        then: text("ok"),
      },
    }),
  steps: (p: Params) =>
    p.how === "error-after-thinking" || p.how === "fallback"
      ? [
          start(s1, { prompt: `${MARKER} run the two commands`, args: p.how === "fallback" ? ["--model", "claude-opus-4-5", "--fallback-model", "claude-haiku-4-5"] : modelArgs(p.model) }),
          wait("the turn's result", resultPrinted(s1), { timeout: 90_000 }),
          send(s1, "and now say ok"),
          wait("the next turn's result", resultPrinted(s1, { count: 2 }), { timeout: 90_000 }),
          stop(s1),
        ]
      : p.how === "kill-resume" || p.how === "interleaved"
      ? [
          start(s1, { prompt: `${MARKER} run the two commands`, args: modelArgs(p.model) }),
          wait("the first turn's result", resultPrinted(s1), { timeout: 90_000 }),
          stop(s1, { how: "sigkill" }),
          resume(s2, { from: s1, prompt: "and now say ok", args: modelArgs(p.model) }),
          wait("the resumed turn's result", resultPrinted(s2), { timeout: 90_000 }),
          stop(s2),
        ]
      : [
          start(s1, { prompt: `${MARKER} run the two commands`, args: modelArgs(p.model) }),
          wait("the first reply started", (rec) => requestsOf(rec, { stream: "main" }).some((r) => r.reply.fault !== null), { timeout: 60_000 }),
          pause("the thinking deltas arrive", 1500),
          interrupt(s1),
          wait("the interrupted turn settled", resultPrinted(s1), { timeout: 30_000 }),
          send(s1, "go on and run them"),
          wait("the next turn's result", resultPrinted(s1, { count: 2 }), { timeout: 90_000 }),
          stop(s1),
        ],
  check(rec, p) {
    const main = requestsOf(rec, { stream: "main" });
    const stalled = main.find((r) => r.reply.fault !== null);
    if (p.how !== "kill-resume" && p.how !== "interleaved") {
      if (!stalled) return { reached: notReached(p.how === "interrupt" ? "no reply stalled inside its thinking block" : p.how === "fallback" ? "no request was answered 529" : "no stream ended in an error after its thinking block"), findings: [] };
      if (!main.some((r) => r.seq > stalled.seq && r.session === "s1")) return { reached: notReached(`no request followed the ${p.how === "interrupt" ? "interrupt" : "error"}`), findings: [] };
    } else {
      if (!main.some((r) => sentBack(r).length > 0)) return { reached: notReached("no request sent back a thinking block the mock served"), findings: [] };
      if (resultsOf(rec, s2).length === 0 || !main.some((r) => r.session === "s2")) return { reached: notReached("the resumed session made no request or printed no result"), findings: [] };
    }
    const bad = main.filter((r) => changed(r).length > 0);
    if (p.how === "fallback" && !main.some((r) => r.model === "claude-haiku-4-5")) return { reached: notReached("the fallback model was never asked"), findings: [] };
    const at = (r: RequestView) => (r.session === "s2" ? "after the resume" : stalled && r.seq > stalled.seq ? `after the ${p.how === "interrupt" ? "interrupt" : p.how === "fallback" ? "switch to the fallback model" : "error"}` : "in the tool loop");
    const findings = bad.length
      ? [
          finding({
            id: "thinking-changed-on-replay",
            title: `${at(bad[0]!)}, a thinking block came back changed or was dropped mid tool loop: the API would answer 400 "${changed(bad[0]!)[0]!.message}"`,
            where: `request #${bad[0]!.seq} ${changed(bad[0]!)[0]!.path}`,
            detail: bad.map((r) => `#${r.seq} (${r.session ?? "?"}): ${changed(r).map((v) => `${v.rule} at ${v.path}`).join(", ")}`),
          }),
        ]
      : [];
    const line = (r: RequestView) => `#${r.seq} ${r.session ?? "?"} step ${r.entry.step} ${r.model ?? "?"}${r.reply.fault ? ` (${r.reply.fault})` : ""}: ${sentBack(r).length} sent back${changed(r).length ? `, ${changed(r).length} changed` : ""}`;
    return { reached: reached(), findings, notes: [`thinking sent back: ${main.map(line).join("; ")}`] };
  },
  needs: (p) => ["stream-json-output", ...(p.how === "fallback" ? (["flag:--fallback-model"] as const) : [])],
  // Measured 2026-12-02: node bin/ccrepro.mjs run thinking-changed-on-replay --claude V [--param how=H]
  // (docs/scenarios/thinking-changed-on-replay.md); how=fallback bisected --old 2.1.112 --new 2.1.154, then run …
  // --claude 2.1.150|2.1.152 --param how=fallback --repeat 5. The other three ways are not reproduced: GREEN guards.
  known: [
    { versions: ">=1.0.22", verdict: "GREEN", note: "every thinking block sent back as served, in the tool loop and after the resume (the atlas, 2026-12-07: 1.0.22, 1.0.51, 1.0.53 3/3; 1.0.128, 2.0.60, 2.0.64, 2.0.69, 2.1.12, 2.1.20, 2.1.113, 2.1.152–2.1.154, 2.1.332); 2.1.113 and 2.1.152/2.1.154 sometimes resume with fewer blocks, none changed" },
    { versions: ">=1.0.69", params: { how: "interrupt" }, verdict: "GREEN", note: "the half-streamed thinking block is dropped, not sent back unsigned (2.0.60, 2.0.69, 2.1.12, 2.1.20, 2.1.112, 2.1.154, 2.1.332; the atlas, 2026-12-07, every release from 1.0.69, 74 measured)" },
    { versions: "1.0.45 - 1.0.68", params: { how: "interrupt" }, verdict: "INCONCLUSIVE", note: "no request follows the interrupt, so nothing is sent back to judge (the atlas, 2026-12-07: 1.0.45, 1.0.51, 1.0.56, 1.0.64, 1.0.67, 1.0.68); 1.0.21–1.0.44 refuse the interrupt request itself (UNSUPPORTED)" },
    { versions: ">=2.1.94 <=2.1.150", params: { how: "fallback" }, verdict: "GREEN", note: "the fallback model gets the main model's thinking blocks as served (2.1.112, 2.1.133, 2.1.144, 2.1.148, 2.1.150 5/5; the atlas, 2026-12-07, every release from 2.1.94, 12 measured)" },
    { versions: ">=2.1.152", params: { how: "fallback" }, verdict: "RED", finding: "thinking-changed-on-replay", note: "on the switch to the fallback model the thinking blocks are stripped mid tool loop; the loop's next request starts its turn with text, which the API refuses (2.1.152 5/5, 2.1.154, 2.1.220, 2.1.281, 2.1.332)" },
    { versions: "1.0.30 - 2.1.92", params: { how: "fallback" }, verdict: "INCONCLUSIVE", note: "no fallback on this path: the fallback model is never asked, or no request is answered 529 (2.1.20; the atlas, 2026-12-07: 41 releases measured; before 1.0.30 there is no --fallback-model)" },
    { versions: ">=1.0.64", params: { how: "error-after-thinking" }, verdict: "GREEN", note: "the thinking block before the error is dropped or asked again; none sent back changed (2.0.69, 2.1.20, 2.1.153, 2.1.154, 2.1.246, 2.1.332; the atlas, 2026-12-07, every release from 1.0.64, 71 measured)" },
    { versions: "1.0.21 - 1.0.63", params: { how: "error-after-thinking" }, verdict: "INCONCLUSIVE", note: "no request follows the error: the turn ends there, so nothing is sent back to judge (the atlas, 2026-12-07: 11 releases measured)" },
    { versions: ">=1.0.22", params: { model: "claude-opus-4-8" }, verdict: "GREEN", note: "Opus 4.8 (2.1.153 and 2.1.154 send adaptive thinking, effort high, clear_thinking keep all): every block sent back as served, also after the resume (2.1.153, 2.1.154; 2026-12-06; the atlas, 2026-12-07, every release from 1.0.22, 76 measured)" },
    { versions: ">=1.0.64", params: { how: "error-after-thinking", model: "claude-opus-4-8" }, verdict: "GREEN", note: "Opus 4.8: the block before the error is asked again, none sent back changed (2.1.153, 2.1.154; the atlas, 2026-12-07, every release from 1.0.64, 70 measured)" },
    { versions: "1.0.21 - 1.0.63", params: { how: "error-after-thinking", model: "claude-opus-4-8" }, verdict: "INCONCLUSIVE", note: "no request follows the error, as with the default model (the atlas, 2026-12-07: 12 releases measured)" },
    { versions: ">=1.0.69", params: { how: "interrupt", model: "claude-opus-4-8" }, verdict: "GREEN", note: "Opus 4.8: the half-streamed block is dropped, not sent back unsigned (2.1.153, 2.1.154; the atlas, 2026-12-07, every release from 1.0.69, 72 measured)" },
    { versions: "1.0.45 - 1.0.68", params: { how: "interrupt", model: "claude-opus-4-8" }, verdict: "INCONCLUSIVE", note: "no request follows the interrupt, as with the default model (the atlas, 2026-12-07: 9 releases measured)" },
    { versions: "1.0.22 - 2.1.68 || >=2.1.70", params: { how: "interleaved", model: "claude-opus-4-8" }, verdict: "GREEN", note: "Opus 4.8, thinking between two parallel tool calls: every block's text and signature as served; the resumed request carries 2 or 3 blocks, the last reply's only when written before the kill (2.1.153 3/3, 2.1.154 3/3, 2.1.156, 2.1.332; the atlas, 2026-12-07, every release from 1.0.22, 80 measured); every release sends the second thinking block before both tool calls (served after the first), an order the mock does not judge" },
    { versions: "2.1.69", params: { how: "interleaved", model: "claude-opus-4-8" }, verdict: "INCONCLUSIVE", note: "no request sent back a thinking block the mock served (the atlas, 2026-12-07)" },
  ],
  publicRecord: {
    role: "guard",
    guard:
      "the Opus 4.8 reports (#63265, #63250 on 2.1.154; #63607 on 2.1.156) name long tool-heavy turns with thinking whose blocks come back modified (400 \"thinking blocks in the " +
      "latest assistant message cannot be modified\"), fixed per CHANGELOG 2.1.156. With `--model claude-opus-4-8` on 2.1.153, 2.1.154 and 2.1.156 (a tool loop, a kill and " +
      "--resume, an interrupt, an error after thinking, thinking between parallel tool calls) every block came back with the text and signature served, so the reports' " +
      "modification is not reproduced here. The one RED (`how=fallback`, from 2.1.152) is another trigger, and rests on a conformance rule whose reading of the API is unverified.",
    releases: [
      { version: "2.1.154", says: "reported", source: "#63265, #63250", params: { how: "interleaved", model: "claude-opus-4-8" } },
      { version: "2.1.154", says: "reported", source: "#63265", params: { model: "claude-opus-4-8" } },
      { version: "2.1.156", says: "fixed", source: "CHANGELOG 2.1.156", params: { how: "interleaved", model: "claude-opus-4-8" } },
      { version: "2.1.156", says: "reported", source: "#63607", params: { how: "interleaved", model: "claude-opus-4-8" } },
    ],
  },
});
