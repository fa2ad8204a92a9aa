// template-terminal: what goes wrong, in one line. Run it: ccrepro run ./template-terminal.ts --claude latest
// The interactive UI in a pseudo-terminal: type a prompt, press Enter, and judge from the request log, not the screen.
import { bash, conversation, defineScenario, press, requestsMade, session, terminal, text, type, wait } from "ccrepro";
import { finding, notReached, reached, requestsOf } from "ccrepro/checkers";

const MARKER = "TEMPLATE_UI_1";
const ui = session("ui");

export default defineScenario({
  name: "template-terminal",
  summary: "A prompt typed into the interactive UI runs its scripted Bash call and sends the result back to the model.",
  source: "Describe the bug here, with the upstream issue it was reported in.",
  findings: ["tool-result-missing"],
  sessions: [ui],
  mockScript: () => conversation({ main: { marker: MARKER, replies: [bash("echo from-the-ui", "say it")], then: text("done") } }),
  // screenWait(ui, label, ({ screen }) => …) waits on what the screen alone shows; the request log comes first.
  steps: () => [terminal(ui), type(ui, `${MARKER} run the command`), press(ui, "enter"), wait("the model got the tool's result", requestsMade(2, { stream: "main" }))],
  check(rec) {
    const [, second] = requestsOf(rec, { stream: "main" });
    if (!second) return { reached: notReached("the UI sent no second request"), findings: [] };
    const carried = second.toolResults.some((r) => r.text.includes("from-the-ui"));
    return { reached: reached(), findings: carried ? [] : [finding({ id: "tool-result-missing", title: "the second request lacks the tool's output", where: `request #${second.seq}` })] };
  },
  needs: [],
});
