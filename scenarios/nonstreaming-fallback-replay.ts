// A stream cut after its tool_use block and retried (streamed, or by the non-streaming fallback) runs the tool once.
import { choice, conversation, defineScenario, drop, midStreamError, print, session, text, z } from "../kit/index.ts";
import { exitOf, fileOf, finding, notReached, reached, requestsOf } from "../kit/checkers.ts";

const MARKER = "CCREPRO_NONSTREAM_6P";
const s1 = session("s1");
const reply = { content: [{ type: "tool_use" as const, name: "Bash", input: { command: "echo ran >> side.txt", description: "append a line" } }] };

export default defineScenario({
  name: "nonstreaming-fallback-replay",
  summary: "When a stream that sent a tool_use is cut (an error event, or a dropped connection) and retried, the tool runs once and its id is sent once.",
  source:
    "anthropics/claude-code#21083, #21071, #20901, #38569: from 2.1.19 (2.1.17 fine) a stream that failed after its tool_use was replayed " +
    "by the non-streaming fallback, so the tool ran twice and the next request carried duplicate tool_use ids (400). Control: " +
    "CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK=1 in the caller's environment (passed through).",
  link: "https://github.com/anthropics/claude-code/issues/21083",
  params: z.strictObject({ cut: choice(["error-event", "drop"], { default: "drop" }) }),
  findings: ["tool-run-twice", "duplicate-tool-use-ids"],
  sessions: [s1],
  passEnv: ["CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK"],
  // The first try of the turn's first call is cut right after the tool_use block; its retry gets the reply whole.
  mockScript: (p) =>
    conversation({ main: { marker: MARKER, replies: [p.cut === "drop" ? drop(reply, { afterBlocks: 1, times: 1 }) : midStreamError(reply, { afterBlocks: 1, times: 1 })], then: text("done") } }),
  steps: () => [print(s1, `${MARKER} append the line`, { timeout: 90_000 })],
  check(rec) {
    const main = requestsOf(rec, { stream: "main" });
    const cut = main.find((r) => r.reply.fault !== null);
    const exit = exitOf(rec, s1);
    if (!cut) return { reached: notReached("no request was cut after its tool_use"), findings: [] };
    if (!exit || exit.exitCode === null) return { reached: notReached("claude -p did not exit by itself"), findings: [] };
    const runs = (fileOf(rec, "side.txt")?.text ?? "").split("ran").length - 1;
    const findings = [];
    if (runs > 1) findings.push(finding({ id: "tool-run-twice", title: `the tool of the cut turn ran ${runs} times`, where: "side.txt" }));
    const dup = main.find((r) => new Set(r.toolUses.map((u) => u.id)).size < r.toolUses.length);
    if (dup) findings.push(finding({ id: "duplicate-tool-use-ids", title: "a request carries the same tool_use id twice (the API answers 400)", where: `request #${dup.seq}` }));
    const later = main.filter((r) => r.seq > cut.seq).map((r) => `#${r.seq} step ${r.entry.step}${r.streaming ? "" : " NOT streamed"}`);
    return { reached: reached(), findings, notes: [`cut #${cut.seq} (${cut.reply.fault}); later: ${later.join(", ") || "none"}; tool ran ${runs}×; exit ${exit.exitCode}`] };
  },
  needs: ["stream-json-output"],
  // Measured 2026-12-01: node bin/ccrepro.mjs run nonstreaming-fallback-replay --claude V --param cut=C (docs/scenarios/nonstreaming-fallback-replay.md).
  known: [
    { versions: ">=2.1.17", verdict: "GREEN", note: "not reproduced: 2.1.17, 2.1.19, 2.1.90 retry the cut call non-streamed, 2.1.332 streamed; the tool runs once, no duplicate ids (drop and error-event)" },
  ],
});
