// An `event: error` (overloaded) after a 200 and partial output: the partial is kept in the transcript, once, not lost and
// not duplicated; informational: the transcript's incomplete-response notice (2.1.199) and claude resuming the cut reply (2.1.246).
import { choice, conversation, defineScenario, midStreamError, print, session, text, z } from "../kit/index.ts";
import { apiRetriesOf, conversationRows, exitOf, fileOf, finding, notReached, reached, requestsOf, resultOf, transcriptOf } from "../kit/checkers.ts";

const MARKER = "CCREPRO_MIDSTREAM_5T";
const PARTIAL = "PARTIAL_OUTPUT_KEPT_9X";
const s1 = session("s1");
// A text block and a whole tool_use block are streamed, then the error event; a retry gets the same reply whole.
const reply = { content: [{ type: "text" as const, text: PARTIAL }, { type: "tool_use" as const, name: "Bash", input: { command: "echo ran >> side.txt", description: "append a line" } }] };

export default defineScenario({
  name: "mid-stream-error-partial",
  summary:
    "Guard: after a mid-stream overloaded_error that follows partial output, claude keeps that partial once (in the session's transcript, never sent back twice); " +
    "whether it marks the kept reply incomplete or resumes it is reported, not judged.",
  source:
    "Claude Code CHANGELOG 2.1.199: streaming responses were discarded when the API emitted a mid-stream overloaded or server error " +
    "after partial output; the partial is now kept.",
  // What was streamed before the error: the text block and the whole tool_use block, or the text block only.
  params: z.strictObject({ partial: choice(["text-and-tool", "text"], { default: "text-and-tool" }) }),
  findings: ["partial-output-discarded", "partial-output-duplicated", "cut-reply-not-resumed", "incomplete-notice-missing"],
  sessions: [s1],
  mockScript: (p) => conversation({ main: { marker: MARKER, replies: [midStreamError(reply, { afterBlocks: p.partial === "text" ? 1 : 2, times: 1 })], then: text("done") } }),
  steps: () => [print(s1, `${MARKER} append the line`, { timeout: 90_000 })],
  check(rec, p) {
    const main = requestsOf(rec, { stream: "main" });
    const faulted = main.find((r) => r.reply.fault !== null);
    const exit = exitOf(rec, s1);
    if (!faulted) return { reached: notReached("no request was answered with the mid-stream error"), findings: [] };
    if (!exit || exit.exitCode === null) return { reached: notReached("claude -p did not exit by itself"), findings: [] };
    const transcript = transcriptOf(rec, s1);
    if (!transcript) return { reached: notReached("claude wrote no transcript for the session"), findings: [] };
    const partialId = `toolu_mock_${faulted.seq}_1`;
    const where = `request #${faulted.seq} (error after ${p.partial === "text" ? 1 : 2} blocks)`;
    // The partial: its text (partial=text) or its tool call by id (text-and-tool), in an assistant message.
    const holdsPartial = (content: unknown) => (p.partial === "text" ? JSON.stringify(content).includes(PARTIAL) : JSON.stringify(content).includes(`"${partialId}"`));
    const rows = conversationRows(transcript);
    const keptRows = rows.filter((r) => r.type === "assistant" && r.json?.isApiErrorMessage !== true && holdsPartial(r.json?.message?.content));
    const errorRows = rows.filter((r) => r.json?.isApiErrorMessage === true);
    const later = main.filter((r) => r.seq > faulted.seq);
    // Resumed: a later request carries the partial back in an assistant message (the turn goes on from it).
    const carrying = later.filter((r) => r.messages.some((m) => m.role === "assistant" && holdsPartial(m.content)));
    const findings = [];
    if (keptRows.length === 0) {
      findings.push(finding({ id: "partial-output-discarded", title: "the output streamed before the error is not in the session's transcript", where: `${where}; ${transcript.path}` }));
    }
    const twice = later.find((r) => r.toolUses.filter((u) => u.id === partialId).length > 1 || JSON.stringify(r.messages).split(PARTIAL).length > 2);
    if (twice) findings.push(finding({ id: "partial-output-duplicated", title: "the partial output is sent back twice", where: `request #${twice.seq}` }));
    if (carrying.length === 0) {
      findings.push(finding({ id: "cut-reply-not-resumed", red: false, title: "claude did not go on from the cut reply: no later request carries it", where: `${where} → ${later.map((r) => `#${r.seq}`).join(", ") || "no later request"}` }));
    }
    // A turn that ended on the error (not resumed) should say the reply it kept may be incomplete.
    if (carrying.length === 0 && !errorRows.some((r) => /may be incomplete/i.test(r.text))) {
      findings.push(finding({ id: "incomplete-notice-missing", red: false, title: "the transcript does not mark the kept reply as possibly incomplete", where: errorRows.map((r) => `line ${r.line}: ${r.text}`).join("; ") || transcript.path }));
    }
    const side = fileOf(rec, "side.txt");
    const runs = side?.text ? side.text.split("ran").length - 1 : 0;
    const retries = apiRetriesOf(rec, s1);
    return {
      reached: reached(),
      findings,
      notes: [
        `error after partial output on #${faulted.seq}; later: ${later.map((r) => `#${r.seq} step ${r.entry.step}${r.streaming ? "" : " (not streamed)"}`).join(", ") || "none"}`,
        `transcript: partial in ${keptRows.length} assistant row(s); error rows: ${errorRows.map((r) => JSON.stringify(r.text)).join(", ") || "none"}`,
        `api_retry: ${retries.map((r) => `#${r.attempt} ${r.retryDelayMs} ms (${r.errorStatus})`).join(", ") || "none"}; tool ran ${runs}×; result ${resultOf(rec, s1)?.subtype ?? "none"}; exit ${exit.exitCode}`,
      ],
    };
  },
  needs: ["stream-json-output"],
  // Measured 2026-12-06: node bin/ccrepro.mjs run mid-stream-error-partial --claude V --param partial=text --repeat 3
  // (V = 2.1.198, 2.1.199, 2.1.245, 2.1.246), once on 2.1.112, 2.1.197, 2.1.199, 2.1.245, 2.1.246, 2.1.332
  // (docs/scenarios/mid-stream-error-partial.md). partial-output-discarded was RED on no release.
  known: [
    { versions: "0.2.118 - 1.0.5", params: { partial: "text" }, verdict: "RED", finding: "partial-output-duplicated", note: "the atlas, 2026-12-07 (every release sampled in the range; 1.0.5 re-run 3 of 3)" },
    { versions: "1.0.8 - 1.0.9", params: { partial: "text" }, verdict: "RED", finding: "partial-output-discarded", note: "the atlas, 2026-12-07 (1.0.8 and 1.0.9 re-run 3 of 3 each)" },
    { versions: ">=1.0.10 <=2.1.198", params: { partial: "text" }, verdict: "GREEN", finding: "incomplete-notice-missing", note: "1.0.10 (3 of 3, 2026-12-07) and on: the partial text is kept in the transcript; the turn ends on the error (exit 1, no retry) with the error row \"API Error: Overloaded\" and no incomplete-response notice (2.1.112, 2.1.197, 2.1.198 3/3 +1)" },
    { versions: ">=2.1.199 <=2.1.245", params: { partial: "text" }, verdict: "GREEN", finding: "cut-reply-not-resumed", note: "kept, and the error row says \"API Error: Server error mid-response. The response above may be incomplete.\"; the turn still ends on the error, not resumed (2.1.199 3/3 +1, 2.1.245 3/3 +1)" },
    { versions: ">=2.1.246", params: { partial: "text" }, verdict: "GREEN", note: "kept, and claude goes on from the cut reply by itself: the next request (step 1) carries the partial text, exit 0 (2.1.246 3/3 +1, 2.1.332)" },
    { versions: "2.0.36 - 2.0.49 || 2.1.97 - 2.1.101", verdict: "RED", finding: "partial-output-discarded", note: "the atlas, 2026-12-07; each end re-run 3 of 3 (2.0.36, 2.0.49, 2.1.97, 2.1.101; GREEN 2.0.35, 2.0.50, 2.1.96, 2.1.104)" },
    { versions: "1.0.10 - 1.0.64", verdict: "RED", finding: "partial-output-duplicated", note: "the atlas, 2026-12-07; 1.0.10 and 1.0.64 re-run 3 of 3, 1.0.65 GREEN 3 of 3" },
    { versions: ">=2.1.112", verdict: "GREEN", note: "text and a whole tool_use before the error: both kept, the tool runs once and the turn goes on (2.1.112, 2.1.332)" },
  ],
  publicRecord: {
    role: "guard",
    guard:
      "the record (CHANGELOG 2.1.199; no public report names a release) says output streamed before a mid-stream overloaded or server error was discarded, and is kept from 2.1.199 " +
      "with an incomplete-response notice. In `claude -p` with whole blocks streamed before the error, every release measured (2.1.112 to 2.1.332) keeps the partial in its " +
      "transcript, so the discard is not reproduced; what 2.1.199 changes here is the notice (informational `incomplete-notice-missing` up to 2.1.198), and from 2.1.246 claude " +
      "resumes the cut reply itself (informational `cut-reply-not-resumed` up to 2.1.245). Not tried: the interactive UI, and an error inside a block (the mock ends a stream between blocks).",
    releases: [
      { version: "2.1.199", says: "fixed", source: "CHANGELOG 2.1.199", params: { partial: "text" } },
    ],
  },
});
