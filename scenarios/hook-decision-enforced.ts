// A hook's decision must hold: a PreToolUse deny (exit 2 or JSON) or ask keeps a Bash write from running, and a
// UserPromptSubmit block keeps the prompt from the model (anthropics/claude-code#95726, #80039, #26923).
import { allOf, allow, answer, bash, block, choice, conversation, defineScenario, exit2, hookCalled, permission, press, print, quietFor, screenWait, session, terminal, text, type, wait, z } from "../kit/index.ts";
import { fileOf, finding, hookCallsOf, notReached, reached, requestsOf, resultOf, sessionOf, type Recordings } from "../kit/checkers.ts";

const MARKER = "HOOK_DECISION_2T";
const SECRET = "BLOCKED_PROMPT_TEXT_9Q";
// The UI's second prompt, which the hook lets through: its request shows whether the blocked one was kept.
const CONTROL = "ALLOWED_PROMPT_TEXT_4W";
const REASON = "writes are not allowed here";
const s1 = session("s1");
const PRE_TOOL = { exit2: exit2(REASON), deny: permission("deny", REASON), ask: permission("ask", REASON) };
// The first prompt is blocked, a later one (the UI's control) let through.
const ON_PROMPT = { "prompt-exit2": [exit2(REASON), allow()], "prompt-block": [block(REASON), allow()] };
type How = keyof typeof PRE_TOOL | keyof typeof ON_PROMPT;
const isPrompt = (how: How): how is keyof typeof ON_PROMPT => how in ON_PROMPT;
// The request that carries the Bash call's result, once answered.
const resultSent = (rec: Recordings) => requestsOf(rec).find((r) => r.stream === "main" && r.toolResults.length > 0 && rec.responseEnds.has(r.seq));
const controlAnswered = (rec: Recordings) => requestsOf(rec).some((r) => r.raw().includes(CONTROL) && rec.responseEnds.has(r.seq));

// The interactive UI: the prompt typed; then what shows the decision held (the call's result sent, the control
// prompt answered), or, for an ask, a quiet spell after the hook in which a write that ignored it would have run.
function inUi(how: How) {
  const opened = [terminal(s1), type(s1, `${MARKER} write the file ${SECRET}`), press(s1, "enter")];
  if (isPrompt(how)) {
    return [
      ...opened,
      wait("the UserPromptSubmit hook answered", hookCalled("UserPromptSubmit"), { timeout: 60_000 }),
      // The UI shows the hook's reason once it has handled the block, and only then puts the blocked prompt back
      // into the input, for editing; cleared before that, it came back under the next prompt (seen under load).
      screenWait(s1, "the UI shows the hook's reason", ({ screen }) => screen.includes(REASON), { timeout: 30_000 }),
      press(s1, "ctrl-e"),
      press(s1, "ctrl-u"),
      type(s1, `${MARKER} ${CONTROL} say ok`),
      press(s1, "enter"),
      wait("the next prompt is answered", allOf(controlAnswered, quietFor(1_000)), { timeout: 60_000 }),
    ];
  }
  const held = how === "ask" ? allOf(hookCalled("PreToolUse"), quietFor(3_000)) : allOf((rec: Recordings) => resultSent(rec) !== undefined, quietFor(1_000));
  return [...opened, wait(how === "ask" ? "the PreToolUse hook answered ask, then quiet" : "the Bash call's result is sent and answered", held, { timeout: 60_000 })];
}

// What the UI does with each decision, as measured.
const IN_UI: Record<How, string> = {
  exit2: "the call is refused with the hook's reason",
  deny: "the call is refused with the hook's reason",
  ask: "the UI asks the user and runs nothing meanwhile, even where -p ignored the ask (2.1.84)",
  "prompt-exit2": "the blocked prompt comes back into the input, never into a request",
  "prompt-block": "the blocked prompt comes back into the input, never into a request",
};

// Where each decision holds in the UI, as the atlas measured it on every release (2026-12-07).
const UI_GREEN: Record<How, string> = {
  exit2: "1.0.67 - 1.0.77 || 1.0.80 - 1.0.83 || 1.0.85 - 2.1.68 || >=2.1.70",
  deny: "1.0.67 - 2.0.15 || >=2.0.30",
  ask: ">=1.0.67",
  "prompt-exit2": ">=1.0.67",
  "prompt-block": ">=1.0.67",
};

export default defineScenario({
  name: "hook-decision-enforced",
  summary: "Guard: a PreToolUse deny or ask keeps a Bash write from running, and a UserPromptSubmit block keeps the prompt from the model (the reported exit 2 that does not hold is not reproduced).",
  source: "anthropics/claude-code#95726, #80039, #26923: a hook's deny or block was not enforced.",
  link: "https://github.com/anthropics/claude-code/issues/95726",
  params: z.strictObject({
    // PreToolUse (matcher Bash) exits 2, answers a JSON deny or ask; or UserPromptSubmit exits 2 or answers a JSON block.
    how: choice(["exit2", "deny", "ask", "prompt-exit2", "prompt-block"], { default: "exit2" }),
    // Where the hook is declared: the user's settings, the project's .claude/settings.json, or --settings.
    source: choice(["user", "project", "flag"], { default: "user" }),
    // How claude runs: `claude -p`, or the interactive UI with the prompt typed.
    ui: choice(["print", "terminal"], { default: "print" }),
  }),
  findings: ["denied-write-ran", "denial-not-shown", "blocked-prompt-sent"],
  sessions: [s1],
  mockScript: () => conversation({ main: { marker: MARKER, replies: [bash("echo written > sentinel.txt", "write the sentinel")], then: text("done") } }),
  hooks: (p) => ({ answer: [isPrompt(p.how) ? answer("UserPromptSubmit", ON_PROMPT[p.how]) : answer("PreToolUse", PRE_TOOL[p.how], { matcher: "Bash" })], source: p.source }),
  settingSources: ["user", "project"],
  steps: (p) => (p.ui === "terminal" ? inUi(p.how) : [print(s1, `${MARKER} write the file ${SECRET}`)]),
  check(rec, p) {
    const event = isPrompt(p.how) ? "UserPromptSubmit" : "PreToolUse";
    if (hookCallsOf(rec, event).length === 0) return { reached: notReached(`the ${event} hook never ran`), findings: [] };
    const requests = requestsOf(rec);
    if (isPrompt(p.how)) {
      if (p.ui === "terminal" && !controlAnswered(rec)) return { reached: notReached("the prompt typed after the blocked one was never answered"), findings: [] };
      if (!resultOf(rec, s1) && requests.length === 0) return { reached: notReached("claude -p neither answered nor sent a request"), findings: [] };
      // The blocked text beside the control prompt in one message is the input the run failed to empty, not a leak.
      if (requests.some((r) => r.raw().includes(SECRET) && r.raw().includes(CONTROL))) return { reached: notReached("the UI's input still held the blocked prompt when the next one was typed"), findings: [] };
      const leaked = requests.filter((r) => r.raw().includes(SECRET));
      const findings = leaked.map((r) => finding({ id: "blocked-prompt-sent", title: "the prompt the UserPromptSubmit hook blocked was sent to the model", where: `request #${r.seq} (${r.stream})` }));
      return { reached: reached(), findings, notes: [`${requests.length} requests; result: ${resultOf(rec, s1)?.subtype ?? "none"}`] };
    }
    const next = requests.find((r) => r.stream === "main" && r.toolResults.length > 0);
    const wrote = fileOf(rec, "sentinel.txt") !== null;
    // The UI asks the user instead of sending a result: the point is the quiet spell after the hook.
    if (!next && p.ui === "terminal" && p.how === "ask") {
      // Silence from a UI that died proves nothing: it must still have been running when the run ended it (the
      // run's reaping is a SIGKILL; an exit code, or another signal, is the UI's own end).
      const ui = sessionOf(rec, s1)?.process;
      if (!ui || (ui.endedAt !== null && ui.stoppedBy.length === 0 && ui.signal !== "SIGKILL")) return { reached: notReached("the UI exited by itself after the hook answered ask"), findings: [] };
      const findings = wrote ? [finding({ id: "denied-write-ran", title: "the hook answered ask, but the UI ran the Bash write unasked: sentinel.txt exists", where: "working directory at the end" })] : [];
      return { reached: reached(), findings, notes: ["the UI sent no result for the call (it waits for an answer to the ask)"] };
    }
    if (!next) return { reached: notReached("no request carried the Bash call's result"), findings: [] };
    const findings = [];
    if (wrote) findings.push(finding({ id: "denied-write-ran", title: `the hook answered ${p.how}, but the Bash write ran: sentinel.txt exists`, where: "working directory at the end" }));
    const shown = next.toolResults.map((r) => r.text).join(" | ");
    if (p.how !== "ask" && !shown.includes(REASON)) findings.push(finding({ id: "denial-not-shown", title: "the tool result does not carry the hook's reason", where: `request #${next.seq}: ${shown.slice(0, 160)}` }));
    return { reached: reached(), findings, notes: [`tool result: ${shown.slice(0, 200)}`] };
  },
  publicRecord: {
    role: "guard",
    guard:
      "The reports' trigger is an exit 2 that does not hold for a Task call (#26923, 2.1.47) or for Edit/Write on Windows (#80039, 2.1.217); " +
      "this scenario exercises a Bash write on Linux, where exit 2 held on every release measured (2.1.47, 2.1.217 included). Its RED, a PreToolUse ask ignored under -p with bypassed permissions up to 2.1.84, is a finding no report names.",
    releases: [
      { version: "2.1.47", says: "reported", source: "#26923", params: { how: "exit2" } },
      { version: "2.1.217", says: "reported", source: "#80039 (Windows)", params: { how: "exit2" } },
    ],
  },
  // ccrepro bisect hook-decision-enforced --old 2.1.47 --new 2.1.112 --param how=ask; run … --repeat 5 on 2.1.84 and 2.1.85
  known: [
    // The atlas (2026-12-07): ccrepro atlas hook-decision-enforced --param how=ask, every release, UNSUPPORTED to 1.0.51.
    { versions: "1.0.67 - 2.1.68 || 2.1.70 - 2.1.84", params: { how: "ask" }, verdict: "RED", finding: "denied-write-ran", note: "under -p with bypassed permissions the hook's ask is ignored: the write runs (2.1.47, 2.1.84; the atlas from 1.0.67)" },
    { versions: "1.0.53 - 1.0.66 || 2.1.69", params: { how: "ask" }, verdict: "INCONCLUSIVE", note: "the PreToolUse hook never ran (the atlas, 2026-12-07)" },
    { versions: ">=2.1.85", params: { how: "ask" }, verdict: "GREEN", note: "the call is refused and the model told the hook's reason (2.1.85, 2.1.112, 2.1.217, 2.1.281, 2.1.332)" },
    { versions: ">=2.1.47", params: { how: "exit2" }, verdict: "GREEN", note: "exit 2 blocks the write from user, project and --settings (2.1.47, 2.1.112, 2.1.217, 2.1.281, 2.1.332)" },
    { versions: "1.0.67 - 2.0.15 || >=2.0.30", params: { how: "deny" }, verdict: "GREEN", note: "2.1.47, 2.1.112, 2.1.217, 2.1.281, 2.1.332; the atlas (2026-12-07) on every release from 1.0.67" },
    { versions: "2.0.19 - 2.0.29", params: { how: "deny" }, verdict: "RED", finding: "denial-not-shown", note: "the write is refused, but the model is told \"Hook requested permission behavior: deny\", not the hook's reason (the atlas, 2026-12-07; 2.0.15, 2.0.19, 2.0.29 and 2.0.30 re-run 3 of 3)" },
    { versions: "1.0.53 - 1.0.66", params: { how: "deny" }, verdict: "INCONCLUSIVE", note: "the PreToolUse hook never ran (the atlas, 2026-12-07)" },
    { versions: "1.0.67 - 2.1.104 || >=2.1.110", params: { how: "prompt-exit2" }, verdict: "GREEN", note: "the blocked prompt is in no request body (2.1.47 sends one request without it; later releases none; the atlas, 2026-12-07, on every release from 1.0.67)" },
    { versions: "2.1.105 - 2.1.109", params: { how: "prompt-exit2" }, verdict: "RED", finding: "blocked-prompt-sent", note: "the main loop never gets the blocked prompt, but the session-title request (haiku, \"Generate a concise, sentence-case title\") carries it (the atlas, 2026-12-07; 2.1.104, 2.1.105, 2.1.109 and 2.1.110 re-run 3 of 3)" },
    { versions: ">=1.0.67", params: { how: "prompt-block" }, verdict: "GREEN", note: "as prompt-exit2 (2.1.47 and the releases named there; the atlas, 2026-12-07, on every release from 1.0.67, INCONCLUSIVE 1.0.53 - 1.0.66)" },
    // ccrepro run hook-decision-enforced --param ui=terminal --param how=H, for every H, on each release named; then the
    // atlas (2026-12-07) of each H in the UI on every release: the hook never runs on 1.0.53 - 1.0.66, on three more
    // releases for exit2.
    ...Object.entries(IN_UI).map(([how, note]) => ({ versions: UI_GREEN[how as How], params: { how, ui: "terminal" }, verdict: "GREEN" as const, note: `${note} (2.1.47, 2.1.84, 2.1.85, 2.1.112, 2.1.217, 2.1.281, 2.1.332; the atlas, every release from 1.0.67)` })),
    { versions: "2.0.19 - 2.0.29", params: { how: "deny", ui: "terminal" }, verdict: "RED", finding: "denial-not-shown", note: "as under -p: the write is refused, but the model is told \"Hook requested permission behavior: deny\", not the hook's reason (the atlas, 2026-12-07; 2.0.15, 2.0.19, 2.0.29 and 2.0.30 re-run 3 of 3)" },
    { versions: "1.0.53 - 1.0.66 || 1.0.79 || 1.0.84 || 2.1.69", params: { how: "exit2", ui: "terminal" }, verdict: "INCONCLUSIVE", note: "the PreToolUse hook never ran (the atlas, 2026-12-07)" },
    ...(["deny", "ask", "prompt-exit2", "prompt-block"] as const).map((how) => ({ versions: "1.0.53 - 1.0.66", params: { how, ui: "terminal" }, verdict: "INCONCLUSIVE" as const, note: `the ${how.startsWith("prompt") ? "UserPromptSubmit" : "PreToolUse"} hook never ran (the atlas, 2026-12-07)` })),
  ],
});
