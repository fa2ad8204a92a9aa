// Every request body claude sends is JSON the API can parse: after `/compact` with a URL in context, and with a tool
// output whose cut splits a surrogate pair.
import { bash, choice, conversation, defineScenario, resultPrinted, send, session, start, stop, text, wait, z } from "../kit/index.ts";
import { finding, notReached, reached, requestsOf, resultsOf, type RequestView } from "../kit/checkers.ts";

const MARKER = "CCREPRO_UNPARSEABLE_8D";
const s1 = session("s1");
// One line of 'a' and 20000 emoji (40001 UTF-16 units): a cut at an even length splits a pair.
const EMOJI_OUTPUT = `node -e "process.stdout.write('a'+String.fromCodePoint(0x1F600).repeat(20000))"`;
const params = z.strictObject({
  // compact-url: a prompt with a URL, `/compact`, a follow-up (anthropics/claude-code#77330). split-surrogate: a Bash
  // call prints more than claude keeps of a tool output, all emoji, then a follow-up (#8514, #6376, #3318).
  how: choice(["compact-url", "split-surrogate"], { default: "compact-url" }),
});
type Params = z.output<typeof params>;

// The body's text just before the position the API's message names ("… (char N)"), where the bad escape sits.
const around = (r: RequestView) => {
  const char = Number(/\(char (\d+)\)/.exec(r.entry.reply.summary)?.[1] ?? 0);
  return JSON.stringify(r.raw().toString("utf8").slice(Math.max(0, char - 24), char + 8));
};
const unparseable = (r: RequestView) => r.reply.status === 400 && r.entry.reply.summary.includes("The request body is not valid JSON");

export default defineScenario({
  name: "unparseable-request-body",
  summary: "Every request body claude sends is JSON the API can parse: after `/compact` with a URL in context, and after a long emoji tool output.",
  source:
    "anthropics/claude-code#77330: after /compact with a URL in context, every request is answered 400 \"The request body is not valid " +
    "JSON: unexpected character: line 1 column 1 (char 0)\"; #8514, #6376, #3318: \"no low surrogate in string\", a body with half an emoji.",
  link: "https://github.com/anthropics/claude-code/issues/77330",
  params,
  findings: ["request-body-unparseable"],
  sessions: [s1],
  mockScript: (p: Params) =>
    p.how === "compact-url"
      ? conversation({ main: { marker: MARKER, replies: [text("I cannot open links here, but go on.")], then: text("ok") } }, { fallback: text("<summary>The user shared https://www.anthropic.com/news and asked about it.</summary>") })
      : conversation({ main: { marker: MARKER, replies: [bash(EMOJI_OUTPUT, "print emoji"), text("printed")], then: text("ok") } }),
  steps: (p: Params) => [
    p.how === "compact-url"
      ? [
          start(s1, { prompt: `${MARKER} can you read this document https://www.anthropic.com/news ?` }),
          wait("turn one", resultPrinted(s1)),
          // Recent releases refuse to compact a single exchange ("Not enough messages to compact.").
          send(s1, "and this one https://www.anthropic.com/engineering ?"),
          wait("turn two", resultPrinted(s1, { count: 2 })),
          send(s1, "/compact"),
          wait("the compaction ended", resultPrinted(s1, { count: 3 })),
        ]
      : [start(s1, { prompt: `${MARKER} print the emoji` }), wait("turn one", resultPrinted(s1), { timeout: 90_000 })],
    send(s1, "what did it say?"),
    wait("the follow-up's result", resultPrinted(s1, { count: p.how === "compact-url" ? 4 : 2 }), { timeout: 90_000 }),
    stop(s1),
  ],
  check(rec, p) {
    const all = requestsOf(rec);
    const follow = all.filter((r) => JSON.stringify(r.messages).includes("what did it say?"));
    // A body the mock could not parse has no stream: it counts among all requests, not the main stream's.
    if (p.how === "split-surrogate" && !all.some((r) => r.toolResults.length > 0 || unparseable(r))) {
      return { reached: notReached("no request after the Bash call"), findings: [] };
    }
    if (resultsOf(rec, s1).length < (p.how === "compact-url" ? 4 : 2)) return { reached: notReached("the session did not print the follow-up's result"), findings: [] };
    const bad = all.filter(unparseable);
    if (follow.length === 0 && bad.length === 0) return { reached: notReached("no request of the follow-up was made"), findings: [] };
    // The compaction took: the follow-up no longer carries the first prompt (the summary replaced it).
    if (p.how === "compact-url" && bad.length === 0 && follow.every((r) => JSON.stringify(r.messages).includes(MARKER))) {
      return { reached: notReached("the follow-up still carries the first prompt: /compact did not replace the history"), findings: [] };
    }
    const findings = bad.length
      ? [
          finding({
            id: "request-body-unparseable",
            title: `claude sent a body the API cannot parse: ${bad[0]!.entry.reply.summary.replace("invalid_request_error: ", "")}`,
            where: `request #${bad[0]!.seq} (${bad[0]!.stream ?? "?"} stream)`,
            detail: bad.map((r) => `#${r.seq}: ${r.raw().length} bytes, at the error: ${around(r)}`),
          }),
        ]
      : [];
    return { reached: reached(), findings, notes: [`${all.length} requests; follow-up: ${follow.map((r) => `#${r.seq} ${r.stream} → ${r.reply.status}`).join(", ") || "none"}`] };
  },
  needs: ["stream-json-output"],
  // Measured 2026-12-02: node bin/ccrepro.mjs bisect unparseable-request-body --param how=split-surrogate --old 2.1.112
  // --new 2.1.220, then run … --claude 2.1.190|2.1.191 --repeat 5 (docs/scenarios/unparseable-request-body.md).
  known: [
    { versions: "1.0.21 - 1.0.63", verdict: "GREEN", note: "after /compact the follow-up starts from the summary and parses (the atlas, 2026-12-07; 1.0.21 and 1.0.63 3 of 3)" },
    { versions: "1.0.64 - 1.0.127", verdict: "INCONCLUSIVE", note: "the follow-up still carries the first prompt: /compact in a stream-json session does not replace the history, as compact-resume finds (the atlas; 1.0.64 and 1.0.127 3 of 3)" },
    { versions: ">=1.0.128", verdict: "GREEN", note: "after /compact the follow-up starts from the summary and parses (1.0.128, 2.1.112, 2.1.190, 2.1.205, 2.1.210, 2.1.220, 2.1.260, 2.1.332): #77330 not reproduced" },
    { versions: "1.0.21 - 2.1.190", params: { how: "split-surrogate" }, verdict: "RED", finding: "request-body-unparseable", note: "the cut tool output ends in half an emoji (\\ud83d), every later request is refused \"no low surrogate in string\", the follow-up too (the atlas, 2026-12-07, from 1.0.21, UNSUPPORTED before; 1.0.48 3/3 on 2026-12-06, 1.0.128, 2.0.72, 2.1.112, 2.1.113, 2.1.167, 2.1.179, 2.1.187, 2.1.190 5/5)" },
    { versions: ">=2.1.191", params: { how: "split-surrogate" }, verdict: "GREEN", note: "the cut keeps whole characters (2.1.191 5/5, 2.1.193, 2.1.197, 2.1.220, 2.1.332)" },
  ],
  publicRecord: {
    role: "reproduction",
    releases: [{ version: "1.0.48", says: "reported", source: "#3318", params: { how: "split-surrogate" } }],
  },
});
