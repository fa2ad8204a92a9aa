// What `ccrepro new` writes: a commented starting scenario, or a built-in's file re-pointed at the public entry.
import fs from "node:fs";
import { fileURLToPath } from "node:url";

// As written it runs on any recent release and gives GREEN (or RED, if the CLI stops answering a plain tool call):
// a real verdict from the first run, which the user then bends towards their own bug.
export function scenarioTemplate(name: string): string {
  return `// ${name}: what goes wrong, in one line. Run it: ccrepro run ./${name}.ts --claude latest
// Everything comes from the public entry; an editor's completion on "ccrepro" shows the rest of it.
import { bash, conversation, defineScenario, finding, judge, resultSeen, sessionNamed, startWith, text, waitFor, z } from "ccrepro";

// A word in the first prompt that tells this conversation's requests apart from the CLI's side requests.
const MARKER = "${name.toUpperCase().replace(/-/g, "_")}_1";
const ANSWER = "all done";

export default defineScenario({
  name: "${name}",
  summary: "The CLI runs a scripted Bash call and then reports the model's final answer.",
  // Where the bug was reported (an issue link) and what you saw.
  source: "Describe the bug here.",
  // Parameters a run can change with --param key=value; each needs a default (see choice, flag, milliseconds, count).
  params: z.strictObject({}),
  // The finding ids your check can report as RED.
  findings: ["answer-missing"],
  // What the fake Messages API answers, by step (the number of assistant messages so far): a tool call, then text.
  // Other builders: toolCall, nodeWait, subagent, thinking; faults: httpError, midStreamError, stall, drop.
  mockScript: () =>
    conversation({
      main: { marker: MARKER, replies: [bash("echo hello", "say hello"), text(ANSWER)], then: text("noted") },
    }),
  // What the driver does: start a headless session with a prompt, then wait for its result.
  // Other steps: stop, resume, command, and for the interactive UI terminal, type, press, screenWait.
  steps: () => [...startWith("s1", \`\${MARKER} run the command\`), waitFor("the session printed a result", (rec) => resultSeen(sessionNamed(rec, "s1")), 60_000)],
  // Pure: the recordings in, the verdict out. Unreached → INCONCLUSIVE, a red finding → RED, else GREEN.
  check(rec) {
    const s1 = sessionNamed(rec, "s1");
    const result = s1?.stdout.find((line) => line.event?.type === "result")?.event;
    if (!s1 || !result) return judge({ reached: { ok: false, reason: "session s1 printed no result" }, findings: [], notes: [] });
    const got = String((result as { result?: unknown }).result ?? "");
    const findings = got.includes(ANSWER)
      ? []
      : [finding({ id: "answer-missing", red: true, title: "the result does not carry the model's final answer", where: "session s1, its result line", detail: [\`result: \${JSON.stringify(got)}\`] })];
    return judge({ reached: { ok: true }, findings, notes: [\`result: \${JSON.stringify(got)}\`] });
  },
  // What you measured per release, e.g. { versions: "2.1.281", verdict: "RED", finding: "answer-missing", note: "…" }.
  known: [],
  timeoutMs: 120_000,
});
`;
}

// A built-in's own file, importing "ccrepro" instead of the checkout's kit, under the new name.
export function copyOfBuiltin(builtin: string, name: string): string {
  const file = fileURLToPath(new URL(`../scenarios/${builtin}.ts`, import.meta.url));
  return fs
    .readFileSync(file, "utf8")
    .replace(/from "\.\.\/kit\/index\.ts"/g, 'from "ccrepro"')
    .replace(`name: "${builtin}"`, `name: "${name}"`);
}
