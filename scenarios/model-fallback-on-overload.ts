// With `--fallback-model`, a model the API keeps answering 529 for is replaced by the fallback, and only by it.
import { choice, conversation, defineScenario, httpError, send, session, start, stop, text, wait, resultPrinted, z } from "../kit/index.ts";
import { finding, notReached, reached, requestsOf, resultsOf } from "../kit/checkers.ts";

const MARKER = "CCREPRO_FALLBACK_3W";
const MAIN = "claude-opus-4-5";
const FALLBACK = "claude-haiku-4-5";
const s1 = session("s1");

export default defineScenario({
  name: "model-fallback-on-overload",
  summary:
    "Guard: with `--fallback-model B`, a turn whose model A fails (529 overloaded on every try, or 404 not found) is answered by B, and by no other model.",
  source:
    "anthropics/claude-code#8413 (2025-09-30): --fallback-model is used on overload only, not when the main model is invalid or " +
    "unavailable (CHANGELOG 2.1.152: claude now switches to the fallback when the primary model is not found); #83272 (as first " +
    "cited here, 2.1.166): on overload the fallback chains on to models nobody asked for.",
  link: "https://github.com/anthropics/claude-code/issues/8413",
  params: z.strictObject({
    // How the API answers every request for the main model: 529 overloaded_error, or 404 not_found_error (the model
    // does not exist: #8413's trigger, an invalid --model with a valid --fallback-model).
    fault: choice(["529", "404"], { default: "529" }),
  }),
  findings: ["fallback-not-used", "model-not-asked-for"],
  sessions: [s1],
  // Every request for the main model is overloaded; any other model gets an answer.
  // A 404 carries the API's own text for a model it does not know ("model: <name>").
  mockScript: (p) =>
    conversation({
      main: { marker: MARKER, replies: [], then: httpError(Number(p.fault), { model: "opus", ...(p.fault === "404" ? { message: `model: ${MAIN}` } : {}), then: text("ok") }) },
    }),
  steps: () => [
    start(s1, { prompt: `${MARKER} first turn: say ok`, args: ["--model", MAIN, "--fallback-model", FALLBACK] }),
    wait("the first turn's result", resultPrinted(s1), { timeout: 90_000 }),
    send(s1, "second turn: say ok"),
    wait("the second turn's result", resultPrinted(s1, { count: 2 }), { timeout: 90_000 }),
    stop(s1),
  ],
  check(rec, p) {
    const main = requestsOf(rec, { stream: "main" });
    const overloaded = main.filter((r) => r.reply.fault !== null);
    if (overloaded.length === 0) return { reached: notReached(`no request was answered ${p.fault}`), findings: [] };
    if (resultsOf(rec, s1).length < 2) return { reached: notReached("the session did not print both turns' results"), findings: [] };
    const models = main.map((r) => `#${r.seq} step ${r.entry.step} ${r.model}${r.reply.fault ? ` (${p.fault})` : ""}`);
    const findings = [];
    const other = main.find((r) => r.model !== MAIN && r.model !== FALLBACK);
    if (other) findings.push(finding({ id: "model-not-asked-for", title: `a request went to ${other.model}, neither --model nor --fallback-model`, where: `request #${other.seq}` }));
    if (!main.some((r) => r.model === FALLBACK)) findings.push(finding({ id: "fallback-not-used", title: `the main model was answered ${p.fault} on every try and ${FALLBACK} was never asked`, where: `requests ${overloaded.map((r) => `#${r.seq}`).join(", ")}` }));
    const firstFallback = main.findIndex((r) => r.model === FALLBACK);
    const back = firstFallback === -1 ? false : main.slice(firstFallback).some((r) => r.model === MAIN);
    return {
      reached: reached(),
      findings,
      notes: [`models: ${models.join(", ")}`, firstFallback === -1 ? "no fallback" : back ? "after the fallback, a later request tried the main model again" : "once on the fallback, every later request stayed on it"],
    };
  },
  needs: ["stream-json-output", "flag:--fallback-model"],
  // Measured 2026-12-01 and 2026-12-06: node bin/ccrepro.mjs run model-fallback-on-overload --claude V [--param fault=404]
  // (docs/scenarios/model-fallback-on-overload.md).
  known: [
    { versions: ">=2.1.94", verdict: "GREEN", note: "three 529s for the main model, then the fallback; the next turn tries the main model first again (2.1.94 3/3, 2.1.112, 2.1.166 3/3, 2.1.220, 2.1.281, 2.1.332; the atlas, 2026-12-07, on every release between)" },
    { versions: "1.0.30 - 2.1.92", verdict: "INCONCLUSIVE", note: "never falls back: tries of the main model with backoff (1.0.128: nine, 0.1 s … 33 s), no result within the 90 s wait (the atlas; 2.1.92 3 of 3; before 1.0.30 no --fallback-model: UNSUPPORTED)" },
    { versions: "1.0.30 - 2.1.150", params: { fault: "404" }, verdict: "RED", finding: "fallback-not-used", note: "the main model's 404 \"model: …\" ends each turn; the fallback is never asked (2.0.0, 2.1.150 3/3; #8413; the atlas, 2026-12-07, on every release from 1.0.30, the first with --fallback-model)" },
    { versions: ">=2.1.152", params: { fault: "404" }, verdict: "GREEN", note: "one 404, then the fallback (CHANGELOG 2.1.152): 2.1.152 3/3 stays on it for the next turn; 2.1.332 tries the main model first on each turn (there is no 2.1.151)" },
  ],
  publicRecord: {
    role: "guard",
    guard:
      "#8413 names no release (opened 2025-09-30), and #83272's chain to other models could not be read here; the check guards both " +
      "with a main model answered 529 on every try (default) or 404 \"model: …\" (fault=404, #8413's invalid model), and fault=404 is RED " +
      "up to 2.1.150 and GREEN from 2.1.152, the release whose changelog names the fix.",
    releases: [
      { version: "2.1.152", says: "fixed", source: "CHANGELOG 2.1.152", params: { fault: "404" } },
      { version: "2.1.166", says: "reported", source: "#83272 (as first cited)" },
    ],
  },
});
