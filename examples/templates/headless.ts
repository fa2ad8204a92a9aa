// template-headless: what goes wrong, in one line. Run it: ccrepro run ./template-headless.ts --claude latest
// One headless session (`claude -p` over stream-json): a prompt, a scripted Bash call, the model's answer.
import { bash, conversation, defineScenario, resultPrinted, session, start, text, wait } from "ccrepro";
import { finding, notReached, reached, resultOf } from "ccrepro/checkers";

// A word in the first prompt that tells this conversation's requests apart from the CLI's side requests.
const MARKER = "TEMPLATE_HEADLESS_1";
const ANSWER = "all done";
const s1 = session("s1");

export default defineScenario({
  name: "template-headless",
  summary: "The CLI runs a scripted Bash call and then reports the model's final answer.",
  source: "Describe the bug here, with the upstream issue it was reported in.",
  // The finding ids your check reports as RED.
  findings: ["answer-missing"],
  sessions: [s1],
  // What the fake API answers, by step (assistant messages so far): a tool call, then text. Put your bug's replies here.
  mockScript: () => conversation({ main: { marker: MARKER, replies: [bash("echo hello", "say hello"), text(ANSWER)], then: text("noted") } }),
  // What the driver does. Add `args: ["--max-turns", "2"]` for flags; resume, continueLatest, print, stop, send for more.
  steps: () => [start(s1, { prompt: `${MARKER} run the command` }), wait("the session printed a result", resultPrinted(s1))],
  // Pure: the recordings in; what was reached and found out. A red finding → RED; not reached → INCONCLUSIVE; else GREEN.
  check(rec) {
    const result = resultOf(rec, s1);
    if (!result) return { reached: notReached("session s1 printed no result"), findings: [] };
    const findings = result.result?.includes(ANSWER) ? [] : [finding({ id: "answer-missing", title: "the result does not carry the model's final answer", where: `s1 stdout line ${result.line}` })];
    return { reached: reached(), findings, notes: [`result: ${JSON.stringify(result.result)}`] };
  },
});
