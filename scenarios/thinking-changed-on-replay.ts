// The thinking blocks the API signed must come back byte-identical, in the tool loop and after a kill and `--resume`.
import { bash, conversation, defineScenario, resultPrinted, resume, session, start, stop, text, thinking, wait, z } from "../kit/index.ts";
import { blocksOf, finding, notReached, reached, requestsOf, resultsOf, type RequestView } from "../kit/checkers.ts";

const MARKER = "CCREPRO_THINKSIG_2M";
// Three signed replies: thinking, text and a tool call; thinking and a second tool call; thinking and the answer.
const THOUGHTS = ["I should run the first command.\nThen look at its output.", "The first one ran. Now the second.", "Both ran. I can answer."];
const s1 = session("s1");
const s2 = session("s2");

// What a request sends back of the thinking the mock served, by the served text it was signed for.
const sentBack = (r: RequestView) => blocksOf(r, "thinking").filter((b) => String(b.block.signature ?? "").startsWith("ccrepro-signed."));
const changed = (r: RequestView) => r.entry.conformance.filter((v) => v.rule === "thinking-signature-invalid");

export default defineScenario({
  name: "thinking-changed-on-replay",
  summary: "Signed thinking blocks are sent back exactly as served, in the tool loop and after a kill and `--resume`.",
  source:
    "anthropics/claude-code#63357, #63246, #21289, #19460, #13648: a request sends back a thinking block whose text or signature " +
    "changed (empty thinking with the signature kept, a rebuilt history), so the API answers 400 \"Invalid `signature` in `thinking` " +
    "block\" or \"thinking blocks in the latest assistant message cannot be modified\", and every later turn fails the same way.",
  link: "https://github.com/anthropics/claude-code/issues/63357",
  params: z.strictObject({}),
  findings: ["thinking-changed-on-replay"],
  sessions: [s1, s2],
  mockScript: () =>
    conversation({
      main: {
        marker: MARKER,
        replies: [
          thinking(THOUGHTS[0]!, { content: [{ type: "text", text: "Running it." }, { type: "tool_use", name: "Bash", input: { command: "echo one", description: "first" } }] }, { signed: true }),
          thinking(THOUGHTS[1]!, bash("echo two", "second"), { signed: true }),
          thinking(THOUGHTS[2]!, text("both ran"), { signed: true }),
        ],
        then: text("ok"),
      },
    }),
  steps: () => [
    start(s1, { prompt: `${MARKER} run the two commands` }),
    wait("the first turn's result", resultPrinted(s1), { timeout: 90_000 }),
    stop(s1, { how: "sigkill" }),
    resume(s2, { from: s1, prompt: "and now say ok" }),
    wait("the resumed turn's result", resultPrinted(s2), { timeout: 90_000 }),
    stop(s2),
  ],
  check(rec) {
    const main = requestsOf(rec, { stream: "main" });
    const carrying = main.filter((r) => sentBack(r).length > 0);
    if (carrying.length === 0) return { reached: notReached("no request sent back a thinking block the mock served"), findings: [] };
    if (resultsOf(rec, s2).length === 0) return { reached: notReached("the resumed session printed no result"), findings: [] };
    const resumed = main.filter((r) => r.session === "s2");
    if (resumed.length === 0) return { reached: notReached("the resumed session made no request"), findings: [] };
    const bad = main.filter((r) => changed(r).length > 0);
    const findings = bad.length
      ? [
          finding({
            id: "thinking-changed-on-replay",
            title: `${bad[0]!.session === "s2" ? "after the resume" : "in the tool loop"}, a thinking block came back changed: the API would answer 400 "${changed(bad[0]!)[0]!.message}"`,
            where: `request #${bad[0]!.seq} ${changed(bad[0]!)[0]!.path}`,
            detail: bad.map((r) => `#${r.seq} (${r.session ?? "?"}): ${changed(r).map((v) => `${v.path} "${String(blocksOf(r, "thinking").find((b) => b.path === v.path)?.block.thinking ?? "").slice(0, 60)}"`).join(", ")}`),
          }),
        ]
      : [];
    const line = (r: RequestView) => `#${r.seq} ${r.session ?? "?"} step ${r.entry.step}: ${sentBack(r).length} sent back${changed(r).length ? `, ${changed(r).length} changed` : ""}`;
    return { reached: reached(), findings, notes: [`thinking sent back: ${main.map(line).join("; ")}`] };
  },
  needs: ["stream-json-output"],
  known: [],
});
