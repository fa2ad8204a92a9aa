// An `event: error` (overloaded) after a 200 and partial output: the partial is kept, once, not lost and not duplicated.
import { choice, conversation, defineScenario, midStreamError, print, session, text, z } from "../kit/index.ts";
import { apiRetriesOf, exitOf, fileOf, finding, notReached, reached, requestsOf, resultOf } from "../kit/checkers.ts";

const MARKER = "CCREPRO_MIDSTREAM_5T";
const PARTIAL = "PARTIAL_OUTPUT_KEPT_9X";
const s1 = session("s1");
// A text block and a whole tool_use block are streamed, then the error event; a retry gets the same reply whole.
const reply = { content: [{ type: "text" as const, text: PARTIAL }, { type: "tool_use" as const, name: "Bash", input: { command: "echo ran >> side.txt", description: "append a line" } }] };

export default defineScenario({
  name: "mid-stream-error-partial",
  summary: "After a mid-stream overloaded_error that follows partial output, claude keeps that partial once: not discarded, not sent twice.",
  source:
    "Claude Code CHANGELOG 2.1.199: streaming responses were discarded when the API emitted a mid-stream overloaded or server error " +
    "after partial output; the partial is now kept.",
  // What was streamed before the error: the text block and the whole tool_use block, or the text block only.
  params: z.strictObject({ partial: choice(["text-and-tool", "text"], { default: "text-and-tool" }) }),
  findings: ["partial-output-discarded", "partial-output-duplicated"],
  sessions: [s1],
  mockScript: (p) => conversation({ main: { marker: MARKER, replies: [midStreamError(reply, { afterBlocks: p.partial === "text" ? 1 : 2, times: 1 })], then: text("done") } }),
  steps: () => [print(s1, `${MARKER} append the line`, { timeout: 90_000 })],
  check(rec, p) {
    const main = requestsOf(rec, { stream: "main" });
    const faulted = main.find((r) => r.reply.fault !== null);
    const exit = exitOf(rec, s1);
    if (!faulted) return { reached: notReached("no request was answered with the mid-stream error"), findings: [] };
    if (!exit || exit.exitCode === null) return { reached: notReached("claude -p did not exit by itself"), findings: [] };
    const partialId = `toolu_mock_${faulted.seq}_1`;
    const later = main.filter((r) => r.seq > faulted.seq);
    // Kept: a later request carries the partial back (its tool call by id; with text only, its text in an assistant message).
    const carrying = later.filter((r) =>
      p.partial === "text" ? r.messages.some((m) => m.role === "assistant" && JSON.stringify(m.content).includes(PARTIAL)) : r.toolUses.some((u) => u.id === partialId),
    );
    const findings = [];
    const reAsked = later.filter((r) => r.entry.step === faulted.entry.step);
    if (carrying.length === 0) {
      findings.push(finding({ id: "partial-output-discarded", title: reAsked.length > 0 ? "the output streamed before the error was dropped; the turn was asked again" : "the turn ended on the error; the output streamed before it was never carried on", where: `request #${faulted.seq} (error after ${p.partial === "text" ? 1 : 2} blocks) → ${reAsked.map((r) => `#${r.seq}`).join(", ") || "no retry"}` }));
    }
    const twice = later.find((r) => r.toolUses.filter((u) => u.id === partialId).length > 1 || JSON.stringify(r.messages).split(PARTIAL).length > 2);
    if (twice) findings.push(finding({ id: "partial-output-duplicated", title: "the partial output is sent back twice", where: `request #${twice.seq}` }));
    const side = fileOf(rec, "side.txt");
    const runs = side?.text ? side.text.split("ran").length - 1 : 0;
    const retries = apiRetriesOf(rec, s1);
    return {
      reached: reached(),
      findings,
      notes: [
        `error after partial output on #${faulted.seq}; later: ${later.map((r) => `#${r.seq} step ${r.entry.step}${r.streaming ? "" : " (not streamed)"}`).join(", ") || "none"}`,
        `api_retry: ${retries.map((r) => `#${r.attempt} ${r.retryDelayMs} ms (${r.errorStatus})`).join(", ") || "none"}; tool ran ${runs}×; result ${resultOf(rec, s1)?.subtype ?? "none"}; exit ${exit.exitCode}`,
      ],
    };
  },
  needs: ["stream-json-output"],
  // Measured 2026-12-01: node bin/ccrepro.mjs bisect mid-stream-error-partial --param partial=text --old 2.1.112 --new 2.1.281,
  // then run … --claude 2.1.245|2.1.246 --param partial=text --repeat 5 (docs/scenarios/mid-stream-error-partial.md).
  known: [
    { versions: "<=2.1.245", params: { partial: "text" }, verdict: "RED", finding: "partial-output-discarded", note: "the turn ends on the error (is_error, exit 1), no retry, the text never carried on (2.1.112, 2.1.199, 2.1.236, 2.1.240–2.1.245)" },
    { versions: ">=2.1.246", params: { partial: "text" }, verdict: "GREEN", note: "the next request carries the partial text, the turn goes on (2.1.246, 2.1.260, 2.1.281, 2.1.332)" },
    { versions: ">=2.1.112", verdict: "GREEN", note: "text and a whole tool_use before the error: the tool runs once and the turn goes on (2.1.112, 2.1.281, 2.1.332)" },
  ],
});
