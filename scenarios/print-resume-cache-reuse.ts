// A `claude -p --resume` turn must be able to read from the prompt cache all of the conversation the previous turn cached.
import { bash, choice, conversation, defineScenario, flag, print, session, text, z } from "../kit/index.ts";
import { auditCache, describeBoundary, finding, notReached, reached, resultOf, resumeCacheFindings } from "../kit/checkers.ts";

const params = z.strictObject({
  // The first turn runs a Bash tool call before its answer (two requests), or answers at once.
  tool: flag({ default: true }),
  // How each prompt reaches `claude -p`: as its argument, or on stdin.
  prompt: choice(["arg", "stdin"], { default: "arg" }),
});
type Params = z.output<typeof params>;

const MARKER = "CCREPRO_CACHE_7Q";
const PROMPTS = [`${MARKER} first turn: reply with exactly the word: one`, "second turn: reply with exactly the word: two", "third turn: reply with exactly the word: three"];
const SESSIONS = [session("p1"), session("p2"), session("p3")];
const FINDING = "resume-reads-less-than-readable";

// The rule (checker/cache-audit.ts, resumeCacheFindings): at each `--resume` boundary, the last request of the previous
// process wrote a cache entry for its prompt up to its last cache_control breakpoint (when long enough, and still alive
// when the resumed request arrives). That prefix is history a correct client re-sends unchanged, with a breakpoint
// within the API's lookback of its end, so the resumed request can read all of it. RED when the resumed request, as
// the prompt-cache model reads it, reads fewer tokens than that prefix. Not "identical prefix": a request that differs
// only after the cached prefix is fine, and an identical one whose breakpoints leave the prefix out of reach is not.
const steps = (p: Params) => SESSIONS.map((s, i) => print(s, PROMPTS[i]!, { via: p.prompt, resume: SESSIONS[i - 1], timeout: 90_000 }));

export default defineScenario({
  name: "print-resume-cache-reuse",
  summary: "Each `claude -p --resume` turn reads from the prompt cache all of the conversation that the previous turn cached.",
  source:
    "anthropics/claude-code#34629: from 2.1.69, `claude --print --resume` stopped reusing the prompt cache; cache reads no longer grow " +
    "beyond the system prompt, so every resumed turn pays to write the whole conversation again.",
  link: "https://github.com/anthropics/claude-code/issues/34629",
  params,
  findings: [FINDING],
  mockScript: ({ tool }) =>
    conversation(
      { main: { marker: MARKER, replies: tool ? [bash("echo CACHE_TOOL_DONE", "print a word"), text("one")] : [text("one")], then: text("ok") } },
      // Any user message, not the first: from 2.1.69 the first is a list of deferred tools, and Bash is one of them (not
      // in `tools`). claude's own result usage then shows what the modelled cache read and wrote.
      { streams: [{ stream: "main", anyUserContains: MARKER }], usage: "cache-model" },
    ),
  sessions: SESSIONS,
  steps,
  check(rec) {
    const missing = SESSIONS.find((s) => resultOf(rec, s) === null);
    const audit = auditCache(rec);
    const main = audit.streams.find((s) => s.stream === "main");
    const stops = main?.boundaries.filter((b) => b.boundary.kind === "stop") ?? [];
    const findings = resumeCacheFindings({ ...audit, streams: main ? [main] : [] })
      .filter((f) => f.boundary.kind === "stop")
      .map((f) =>
        finding({
          id: FINDING,
          title: "a resumed request reads less of the previous conversation from the cache than a correct client makes readable",
          where: describeBoundary(f.boundary),
          detail: [f.message],
          data: { cost: f.cost },
        }),
      );
    const point =
      missing !== undefined
        ? notReached(`session ${missing.name} printed no result`)
        : stops.length < 2
          ? notReached(`the mock saw ${stops.length} of 2 resumed turns of the conversation`)
          : reached();
    return { reached: point, findings, notes: audit.notes };
  },
  known: [
    {
      versions: "2.1.68",
      verdict: "RED",
      finding: FINDING,
      note:
        "small: on resume the skills reminder leaves the first user message, so the 1st resume reads tools + system only (~290 tokens lost); " +
        "a breakpoint on the message before the last lets the 2nd resume read up to the previous reply (~95 lost)",
    },
    {
      versions: "2.1.69",
      verdict: "RED",
      finding: FINDING,
      note: "#34629: the same rewritten history and only one message breakpoint, so every resume reads tools + system only (measured on 2.1.69)",
    },
    // `ccrepro bisect print-resume-cache-reuse --old 2.1.69 --new 2.1.150 --repeat 2` (2026-11-30): first GREEN 2.1.94.
    { versions: "2.1.87 || 2.1.91 || 2.1.92", verdict: "RED", finding: FINDING, note: "bisected, 2 of 2 runs each: every resume still reads tools + system only, as on 2.1.69" },
    { versions: "2.1.94 || 2.1.97 || 2.1.110", verdict: "GREEN", note: "bisected, 2 of 2 runs each: 2.1.94 is the first release whose resumes read all the previous turn wrote" },
    { versions: ">=2.1.150", verdict: "GREEN", note: "history re-sent byte for byte; each resume reads all the previous turn wrote (measured on 2.1.150, 2.1.281, 2.1.332)" },
  ],
  // Plain `claude -p` turns: no stream-json input, only --resume and stream-json output.
  needs: ["stream-json-output", "resume"],
  timeoutMs: 360_000,
});
