// Interactive sessions as first-class parts of the kit (issue 43, item 5), on both release eras, 2.1.112 (cli.js) and
// 2.1.332 (native): a `-p` turn whose output format is text (read with stdoutOf), the UI resuming that session
// (terminal(ui, { resume: s1 })) and sending the earlier turn with its own, the UI stopped with SIGTERM, and its screens
// read as text by the check (screensOf: the one a screen wait took, and the last one, taken once it ended).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ccreproCli, E2E_TIMEOUT_MS } from "../e2e-run.ts";

const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-interactive-"));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

fs.writeFileSync(
  path.join(folder, "ui-resume.ts"),
  `import { conversation, defineScenario, press, print, requestsMade, screenWait, session, stop, terminal, text, type, wait } from "ccrepro";
import { finding, notReached, reached, requestsOf, screensOf, sessionOf, stdoutOf } from "ccrepro/checkers";
const s1 = session("s1");
const ui = session("ui");
export default defineScenario({
  name: "ui-resume",
  summary: "the UI resumes a -p session and is stopped with SIGTERM; the check reads the text answer and the screens",
  source: "issue 43",
  findings: ["not-resumed"],
  sessions: [s1, ui],
  mockScript: () => conversation({ main: { marker: "UI_RESUME_9", replies: [text("FIRST-ANSWER-9"), text("SECOND-ANSWER-9")] } }),
  steps: () => [
    print(s1, "UI_RESUME_9 first", { output: "text" }),
    terminal(ui, { resume: s1 }),
    type(ui, "UI_RESUME_9 second"),
    press(ui, "enter"),
    wait("the UI's turn was sent", requestsMade(2, { stream: "main" })),
    screenWait(ui, "the answer shows", ({ screen }) => screen.includes("SECOND-ANSWER-9")),
    stop(ui, { how: "sigterm" }),
  ],
  check: (rec) => {
    const [, second] = requestsOf(rec, { stream: "main" });
    const end = screensOf(rec, ui).at(-1);
    if (!second || !end) return { reached: notReached("no second request or no end screen"), findings: [] };
    const carried = JSON.stringify(second.messages).includes("FIRST-ANSWER-9");
    const notes = [\`printed: \${stdoutOf(rec, s1)}\`, \`stopped by: \${sessionOf(rec, ui)?.process?.stoppedBy.join(",")}\`, \`screens: \${screensOf(rec, ui).map((s) => s.what).join(",")}\`, \`a screen shows the answer: \${screensOf(rec, ui).some((s) => s.what !== "end" && s.text.includes("SECOND-ANSWER-9"))}\`, \`end screen: \${end.text.trim().length > 0 ? "captured" : "empty"}\`];
    return { reached: reached(), findings: carried ? [] : [finding({ id: "not-resumed", title: "the UI's request lacks the resumed turn", where: \`request #\${second.seq}\` })], notes };
  },
  needs: [],
});
`,
);

describe.each(["2.1.112", "2.1.332"])("claude %s", (version) => {
  it("resumes a text -p session in the UI, stops the UI with SIGTERM, and shows the check its text and screens", async () => {
    const result = await ccreproCli(["run", path.join(folder, "ui-resume.ts"), "--claude", version, "--runs-dir", path.join(folder, "runs"), "--json"], folder);
    const json = JSON.parse(result.stdout) as { verdict: string; notes: string[] };
    expect(json.verdict, JSON.stringify(json)).toBe("GREEN");
    const notes = json.notes.join("\n");
    expect(notes).toContain("printed: FIRST-ANSWER-9");
    expect(notes).toMatch(/stopped by: SIGTERM/);
    expect(notes).toMatch(/screens: start,.*,end/);
    expect(notes).toContain("a screen shows the answer: true");
    expect(notes).toContain("end screen: captured");
  }, E2E_TIMEOUT_MS);
});
