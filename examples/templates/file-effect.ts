// template-file-effect: what goes wrong, in one line. Run it: ccrepro run ./template-file-effect.ts --claude latest
// A bug whose effect is a file: the working directory is recorded after each session and at the end of the run.
import { conversation, defineScenario, print, session, text, toolCall } from "ccrepro";
import { fileOf, finding, notReached, reached, resultOf } from "ccrepro/checkers";

const MARKER = "TEMPLATE_FILE_1";
const s1 = session("s1");

export default defineScenario({
  name: "template-file-effect",
  summary: "A Write tool call leaves exactly the scripted content in the working directory.",
  source: "Describe the bug here, with the upstream issue it was reported in.",
  findings: ["file-missing", "file-changed"],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: MARKER, replies: [toolCall("Write", { file_path: "notes.txt", content: "line one\n" })], then: text("written") } }),
  steps: () => [print(s1, `${MARKER} write the notes`)],
  check(rec) {
    if (!resultOf(rec, s1)) return { reached: notReached("session s1 printed no result"), findings: [] };
    const notes = fileOf(rec, "notes.txt", { after: s1 });
    if (!notes) return { reached: reached(), findings: [finding({ id: "file-missing", title: "notes.txt was not written", where: "working directory after s1" })] };
    const findings = notes.text === "line one\n" ? [] : [finding({ id: "file-changed", title: "notes.txt holds other bytes than were written", where: `notes.txt (sha256 ${notes.sha256})`, detail: [JSON.stringify(notes.text)] })];
    return { reached: reached(), findings };
  },
  needs: ["stream-json-output"],
});
