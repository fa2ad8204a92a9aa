// With `--fallback-model`, a model the API keeps answering 529 for is replaced by the fallback, and only by it.
import { conversation, defineScenario, httpError, send, session, start, stop, text, wait, resultPrinted, z } from "../kit/index.ts";
import { finding, notReached, reached, requestsOf, resultsOf } from "../kit/checkers.ts";

const MARKER = "CCREPRO_FALLBACK_3W";
const MAIN = "claude-opus-4-5";
const FALLBACK = "claude-haiku-4-5";
const s1 = session("s1");

export default defineScenario({
  name: "model-fallback-on-overload",
  summary: "With `--fallback-model B`, a turn whose model A is overloaded (529 on every try) is answered by B, and by no other model.",
  source:
    "anthropics/claude-code#83272, #8413: on overload the fallback model chains on to models nobody asked for (2.1.166), or " +
    "once switched never switches back to the main model (2.1.220).",
  link: "https://github.com/anthropics/claude-code/issues/83272",
  params: z.strictObject({}),
  findings: ["fallback-not-used", "model-not-asked-for"],
  sessions: [s1],
  // Every request for the main model is overloaded; any other model gets an answer.
  mockScript: () => conversation({ main: { marker: MARKER, replies: [], then: httpError(529, { model: "opus", then: text("ok") }) } }),
  steps: () => [
    start(s1, { prompt: `${MARKER} first turn: say ok`, args: ["--model", MAIN, "--fallback-model", FALLBACK] }),
    wait("the first turn's result", resultPrinted(s1), { timeout: 90_000 }),
    send(s1, "second turn: say ok"),
    wait("the second turn's result", resultPrinted(s1, { count: 2 }), { timeout: 90_000 }),
    stop(s1),
  ],
  check(rec) {
    const main = requestsOf(rec, { stream: "main" });
    const overloaded = main.filter((r) => r.reply.fault !== null);
    if (overloaded.length === 0) return { reached: notReached("no request was answered 529 overloaded"), findings: [] };
    if (resultsOf(rec, s1).length < 2) return { reached: notReached("the session did not print both turns' results"), findings: [] };
    const models = main.map((r) => `#${r.seq} step ${r.entry.step} ${r.model}${r.reply.fault ? " (529)" : ""}`);
    const findings = [];
    const other = main.find((r) => r.model !== MAIN && r.model !== FALLBACK);
    if (other) findings.push(finding({ id: "model-not-asked-for", title: `a request went to ${other.model}, neither --model nor --fallback-model`, where: `request #${other.seq}` }));
    if (!main.some((r) => r.model === FALLBACK)) findings.push(finding({ id: "fallback-not-used", title: `the main model was overloaded on every try and ${FALLBACK} was never asked`, where: `requests ${overloaded.map((r) => `#${r.seq}`).join(", ")}` }));
    const firstFallback = main.findIndex((r) => r.model === FALLBACK);
    const back = firstFallback === -1 ? false : main.slice(firstFallback).some((r) => r.model === MAIN);
    return {
      reached: reached(),
      findings,
      notes: [`models: ${models.join(", ")}`, firstFallback === -1 ? "no fallback" : back ? "after the fallback, a later request tried the main model again" : "once on the fallback, every later request stayed on it"],
    };
  },
  needs: ["stream-json-output"],
  // Measured 2026-12-01: node bin/ccrepro.mjs run model-fallback-on-overload --claude V (docs/scenarios/model-fallback-on-overload.md).
  known: [
    { versions: ">=2.1.112", verdict: "GREEN", note: "three 529s for the main model, then the fallback; the next turn tries the main model first again (2.1.112, 2.1.166, 2.1.220, 2.1.281, 2.1.332)" },
    { versions: "1.0.128", verdict: "INCONCLUSIVE", note: "never falls back: nine tries of the main model with backoff (0.1 s … 33 s), no result within the 90 s wait" },
  ],
});
