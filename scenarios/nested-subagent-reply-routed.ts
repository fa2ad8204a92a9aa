// root → parent subagent → background child; the parent sends the child a follow-up with SendMessage and keeps
// working: the child's answer must come back to the parent as a <task-notification>, not to the root or nowhere
// (anthropics/claude-code#90463 (open), #89042, #81438, #83599).
import { allOf, anyOf, bash, conversation, defineScenario, foregroundWait, quietFor, requestsMade, session, start, stop, subagent, text, toolCall, wait } from "../kit/index.ts";
import { finding, notReached, reached, requestsOf, type Recordings } from "../kit/checkers.ts";

const ROOT = "NEST_ROOT_6J";
const PARENT = "NEST_PARENT_6J";
const CHILD = "NEST_CHILD_6J";
const FOLLOW_UP = "NEST_FOLLOW_UP_6J";
const ANSWER = "NEST_ANSWER_TWO_6J";
const s1 = session("s1");

// The child's request that carries the parent's follow-up (the trigger): any request but the root's and the parent's
// own that quotes it. The mock routes a request by its first prompt, so a resumed child that lost its first task is
// answered as a side request (the follow-up also names the child's marker, which does not change that).
const followedUp = (rec: Recordings) => requestsOf(rec).find((r) => r.stream !== "main" && r.stream !== "sub" && r.raw().includes(FOLLOW_UP));
// The first request that quotes the child's answer to the follow-up.
const carrier = (rec: Recordings) => requestsOf(rec).find((r) => r.raw().includes(`<result>${ANSWER}`));

export default defineScenario({
  name: "nested-subagent-reply-routed",
  summary: "Guard: a nested subagent's answer to its parent's SendMessage follow-up comes back to the parent as a task-notification (the reported misrouting is not reproduced; the answer is lost instead).",
  source: "anthropics/claude-code#90463 (open), #89042, #81438, #83599 (2.1.243–2.1.247): a child's reply delivered to the wrong agent.",
  link: "https://github.com/anthropics/claude-code/issues/90463",
  findings: ["nested-reply-misrouted", "nested-reply-lost", "nested-child-task-lost"],
  sessions: [s1],
  mockScript: () =>
    conversation({
      main: { marker: ROOT, replies: [subagent(`${PARENT} start the child and follow up`, "parent")], then: text("root done") },
      // The parent stays busy (an 8 s foreground command) while the child answers the follow-up.
      sub: {
        marker: PARENT,
        replies: [subagent(`${CHILD} first task`, "child", { background: true }), toolCall("SendMessage", { to: "{{toolResult:agentId: ([A-Za-z0-9-]+)}}", summary: "follow up", message: `${CHILD} ${FOLLOW_UP} answer again` }), bash(foregroundWait(8000), "wait for the child")],
        then: text("parent done"),
      },
      child: { marker: CHILD, replies: [text("first answer")], then: text(ANSWER) },
    }),
  steps: () => [
    ...start(s1, { prompt: `${ROOT} delegate` }),
    wait("the root asked", requestsMade(1, { stream: "main" }), { timeout: 30_000 }),
    wait("the answer reached some agent, or the run went quiet after the follow-up", anyOf((rec) => carrier(rec) !== undefined, allOf((rec) => followedUp(rec) !== undefined, quietFor(15_000))), { timeout: 90_000 }),
    stop(s1),
  ],
  check(rec) {
    const trigger = followedUp(rec);
    if (!trigger) return { reached: notReached("no request of the child carried the parent's SendMessage follow-up"), findings: [] };
    const got = carrier(rec);
    const kept = trigger.raw().includes(`${CHILD} first task`);
    const seen = `follow-up in ${trigger.stream} request #${trigger.seq} (${kept ? "with" : "without"} the child's first task); answer in ${got ? `${got.stream} request #${got.seq}` : "no request"}`;
    // Then the mock never gave the child its scripted answer: where an answer goes cannot be judged.
    if (!kept) return { reached: reached(), findings: [finding({ id: "nested-child-task-lost", title: "the child, resumed by its parent's follow-up, no longer has its first task in its history", where: `request #${trigger.seq}` })], notes: [seen] };
    if (!got) return { reached: reached(), findings: [finding({ id: "nested-reply-lost", title: "the child answered the follow-up, and no agent's request carried the answer", where: `child request #${trigger.seq}` })], notes: [seen] };
    const findings = got.stream === "sub" ? [] : [finding({ id: "nested-reply-misrouted", title: `the child's answer reached the ${got.stream} stream, not its parent`, where: `request #${got.seq}` })];
    return { reached: reached(), findings, notes: [seen] };
  },
  // ccrepro bisect nested-subagent-reply-routed --old 2.1.250 --new 2.1.332 --repeat 2; run … --repeat 10 on 2.1.302, 2.1.303, 2.1.304.
  known: [
    { versions: "2.1.20 - 2.1.185 || 2.1.198 || 2.1.269 - 2.1.278", verdict: "INCONCLUSIVE", note: "no request of the child carries the parent's SendMessage follow-up (the atlas, 2026-12-07, --until-red 9; 2.1.185 3 of 3; 2.1.198 and 2.1.269–2.1.278 too)" },
    { versions: "2.1.186 - 2.1.197 || 2.1.199 - 2.1.268 || 2.1.280 - 2.1.303", verdict: "RED", note: "flaky: nested-child-task-lost or nested-reply-lost in most runs up to 2.1.292, about a third by 2.1.303 (the atlas with --until-red 9: a RED run on every release measured from 2.1.186, 2 of 3 on 2.1.186) — 2.1.240 (1 of 1), 2.1.243 (3 of 4), 2.1.245 (5 of 6), 2.1.247 (5 of 5 on 2026-12-02; 1 of 4, nested-reply-lost, on 2026-12-06), 2.1.250, 2.1.292 (2 of 2), 2.1.302 (5 of 10), 2.1.303 (5 of 15: nested-reply-lost)" },
    { versions: ">=2.1.304", verdict: "GREEN", note: "the answer reaches the busy parent: 2.1.304 (15 of 15), 2.1.305, 2.1.307, 2.1.312 (2 each), 2.1.332 (6 of 6)" },
  ],
  publicRecord: {
    role: "guard",
    guard:
      "The reports (2.1.243–2.1.247) describe a nested child's reply delivered to the wrong agent; with the reports' trigger (a busy parent's SendMessage follow-up to its background child) no run sent the answer to the root: " +
      "these releases lose the child's first task or its answer instead (RED nested-child-task-lost, nested-reply-lost), and nested-reply-misrouted guards the reported symptom.",
    releases: [
      { version: "2.1.243", says: "reported", source: "#90463, #89042, #81438, #83599 (2.1.243–2.1.247)" },
      { version: "2.1.247", says: "reported", source: "#90463, #89042, #81438, #83599 (2.1.243–2.1.247)" },
    ],
  },
  needs: ["stream-json-input", "send-message", "background-subagent", "task-notification"],
  timeoutMs: 150_000,
});
