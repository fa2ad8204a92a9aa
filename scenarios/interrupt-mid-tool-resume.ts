// A session stopped while a foreground tool runs, then resumed: does the resumed request still pass the real API,
// and is the interrupted call kept (with a synthetic result) or erased from the history?
import { anyOf, bash, choice, conversation, defineScenario, foregroundWait, pause, promptAnswered, resultPrinted, resume, send, session, start, stop, text, wait, z, type ReplyInput } from "../kit/index.ts";
import { checkInterruptedCall, firstToolUse, INTERRUPTED_CALL_FINDINGS, sessionOf } from "../kit/checkers.ts";

const params = z.strictObject({
  // sigkill / sigterm: a signal to the CLI; interrupt: stream-json's interrupt control request, then the session ends.
  how: choice(["sigkill", "sigterm", "interrupt"], { default: "sigkill" }),
  // A fault on the reply that carries the tool call (once; claude's retry gets the reply whole).
  fault: choice(["none", "cut-mid-tool-use", "overloaded-then-ok", "error-event"], { default: "none" }),
});
type Params = z.output<typeof params>;

const MARKER = "CCREPRO_INTERRUPT_4K";
const FIRST_PROMPT = `${MARKER} run the wait command, then reply with exactly the word: waited`;
const SECOND_PROMPT = "RESUMED_MSG: reply with exactly the word: resumed";
// The tool runs this long on its own; the stop comes STOP_AFTER_MS after claude printed the call.
const TOOL_MS = 30_000;
const STOP_AFTER_MS = 2500;

// The faults, placed in the tool-call reply (a lone tool_use streamed in 4 JSON pieces, no text before it, so the
// history has nothing but the call to lose).
const FAULTS: Record<Exclude<Params["fault"], "none">, NonNullable<ReplyInput["fault"]>> = {
  // message_start, ping, the tool_use's start and its first input piece: then the socket goes.
  "cut-mid-tool-use": { kind: "drop", afterEvents: 4 },
  "overloaded-then-ok": { kind: "http-error", status: 529, errorType: "overloaded_error", message: "Overloaded" },
  // Right after message_start, before the tool_use block.
  "error-event": { kind: "mid-stream-error", afterBlocks: 0, errorType: "overloaded_error", message: "Overloaded" },
};

function toolCallReply(fault: Params["fault"]): ReplyInput {
  const call = bash(foregroundWait(TOOL_MS), "Wait 30 seconds in the foreground");
  const content = [{ ...call.content![0]!, jsonChunks: 4 }] as ReplyInput["content"];
  return fault === "none" ? { content } : { content, fault: FAULTS[fault], faultTimes: 1 };
}

// The SDK's interrupt (claude-agent-sdk-python, _internal/query.py: Query.interrupt → _send_control_request).
const interruptLine = { type: "control_request", request_id: "req_1_ccrepro", request: { subtype: "interrupt" } };

const [s1, s2] = [session("s1"), session("s2")];

const steps = (p: Params) => [
  start(s1, { prompt: FIRST_PROMPT }),
  // Also ends on a result, so a fault that ends the turn before the call leads to the check saying so.
  wait("the tool call is running", anyOf((rec) => !!firstToolUse(sessionOf(rec, s1)), resultPrinted(s1)), { timeout: 120_000 }),
  pause("let the tool run", STOP_AFTER_MS),
  p.how === "interrupt"
    ? [send(s1, { json: interruptLine }), wait("the interrupted turn settled", resultPrinted(s1), { timeout: 30_000 }), stop(s1, { how: "sigkill", grace: 5000 })]
    : stop(s1, { how: p.how, grace: 200 }),
  resume(s2, { from: s1, prompt: SECOND_PROMPT }),
  wait("session 2 answered the pushed prompt", promptAnswered(s2), { timeout: 90_000 }),
];

export default defineScenario({
  name: "interrupt-mid-tool-resume",
  summary:
    "Guard: stopped while a foreground Bash call runs, then resumed: the resumed request must pass the real API (it does not up to 1.0.27); whether the call is kept is recorded.",
  source:
    "anthropics/claude-code#5317 and its duplicates: after an interrupted or resumed session the API answers 400 " +
    "\"tool_use ids were found without tool_result blocks immediately after\". Red only through the global request-rejected-by-api.",
  link: "https://github.com/anthropics/claude-code/issues/5317",
  params,
  // Informational only: keeping or erasing the call is recorded for the ledger, never RED by itself.
  findings: INTERRUPTED_CALL_FINDINGS,
  mockScript: ({ fault }) => conversation({ main: { marker: MARKER, replies: [toolCallReply(fault)], then: text("resumed") } }),
  sessions: [s1, s2],
  steps,
  check: (rec) => checkInterruptedCall(rec, { stopped: s1.name, resumed: s2.name, stream: "main", resumedPrompt: "RESUMED_MSG", toolRunsMs: TOOL_MS, stopAfterMs: STOP_AFTER_MS }),
  // `ccrepro bisect interrupt-mid-tool-resume --old 1.0.24 --new 1.0.77` (2026-12-06): last RED 1.0.27, first GREEN 1.0.30;
  // then `--repeat 3` on each side.
  known: [
    {
      versions: "1.0.24 || 1.0.27",
      params: { how: "sigkill" },
      verdict: "RED",
      finding: "request-rejected-by-api",
      note:
        "#5317's 400: the resumed request keeps the tool_use with no tool_result after it (\"messages.1: `tool_use` ids were found without `tool_result` blocks immediately after\"), " +
        "then the new prompt (1.0.24 2 of 2 runs, 1.0.27 4 of 4)",
    },
    {
      versions: "1.0.30 || 1.0.33 || 1.0.39 || 1.0.54 || 1.0.77",
      params: { how: "sigkill" },
      verdict: "GREEN",
      finding: "interrupted-call-erased",
      note: "from 1.0.30 the call is erased instead: first prompt, a synthetic \"No response requested.\", the new prompt (1.0.30 4 of 4 runs, 1.0.77 2 of 2; 1.0.33, 1.0.39, 1.0.54 bisected)",
    },
    {
      versions: "1.0.128 || 2.0.0 || 2.0.50 || 2.1.0 || 2.1.112 || 2.1.150 || 2.1.234",
      params: { how: "sigkill" },
      verdict: "GREEN",
      finding: "interrupted-call-erased",
      note:
        "the resumed request conforms but has no trace of the call: first prompt, a synthetic assistant \"No response requested.\", the new prompt " +
        "(measured on 1.0.128, 2.0.0, 2.0.50, 2.1.0, 2.1.112, 2.1.150, 2.1.234)",
    },
    {
      versions: "2.1.281 || >=2.1.332",
      params: { how: "sigkill" },
      verdict: "GREEN",
      note: "keeps the tool_use, answered by a synthetic \"[Tool call interrupted: the session ended before this call's result was recorded …]\" tool_result (measured on 2.1.281 and 2.1.332; where in 2.1.235–2.1.280 it changed is not measured)",
    },
    {
      versions: "1.0.30 - 2.1.68 || 2.1.70 - 2.1.233",
      params: { how: "sigterm" },
      verdict: "GREEN",
      note: "the resumed request conforms (the atlas, 2026-12-07: 79 releases measured from 1.0.30, boundary 1.0.27 → 1.0.30)",
    },
    {
      versions: "2.1.69",
      params: { how: "sigterm" },
      verdict: "INCONCLUSIVE",
      note: "session s1 never printed a tool_use: no tool call was running to stop (the atlas, 2026-12-07)",
    },
    {
      versions: ">=2.1.234",
      params: { how: "sigterm" },
      verdict: "GREEN",
      note: "keeps the call: 2.1.234 with \"The user doesn't want to proceed with this tool use…\" and \"[Request interrupted by user for tool use]\", 2.1.332 with the killed command's \"Exit code 137\" (measured on 2.1.234, 2.1.332)",
    },
    {
      versions: "1.0.45 - 2.1.233",
      params: { how: "interrupt" },
      verdict: "GREEN",
      note: "the resumed request conforms (the atlas, 2026-12-07: every release from 1.0.45, 74 measured; 1.0.21 - 1.0.44 end the session on the control request, so UNSUPPORTED)",
    },
    {
      versions: ">=2.1.234",
      params: { how: "interrupt" },
      verdict: "GREEN",
      note: "the CLI answers the control request with control_response success ({\"still_queued\":[]}) and keeps the call with \"The user doesn't want to proceed with this tool use…\" (measured on 2.1.234, 2.1.332)",
    },
    ...([
      ["cut-mid-tool-use", ">=1.0.30", "1.0.128, 2.0.50, 2.1.150, 2.1.234, 2.1.332; the atlas, 2026-12-07, every release from 1.0.30, 78 measured"],
      ["error-event", ">=1.0.30", "1.0.128, 2.0.50, 2.1.150, 2.1.234, 2.1.332; the atlas, 2026-12-07, every release from 1.0.30, 77 measured"],
      ["overloaded-then-ok", ">=1.0.30", "2.1.150, 2.1.234, 2.1.332; the atlas, 2026-12-07, every release from 1.0.30, 76 measured"],
    ] as const).map(([fault, versions, measured]) => ({
      versions,
      params: { how: "sigkill", fault },
      verdict: "GREEN" as const,
      note: `claude retries the faulted step with the same one-message history, which conforms; no release found whose next request the API would reject (measured on ${measured}; the call erased before 2.1.332, kept on it)`,
    })),
    // Every other way to stop, and every fault, gives the default's 400 before 1.0.30.
    ...([{ how: "sigterm" }, ...(["cut-mid-tool-use", "error-event", "overloaded-then-ok"] as const).map((fault) => ({ how: "sigkill", fault }))] as const).map((params) => ({
      versions: "1.0.22 - 1.0.27",
      params,
      verdict: "RED" as const,
      finding: "request-rejected-by-api" as const,
      note: "as the default (SIGKILL, no fault): the resumed request keeps the tool_use with no tool_result after it, and the API refuses it (the atlas, 2026-12-07: 1.0.22, 1.0.25, 1.0.27; boundary 1.0.27 → 1.0.30, each side re-run 3 of 3)",
    })),
  ],
  publicRecord: {
    role: "guard",
    guard:
      "the reports' trigger is Escape pressed in the interactive UI while a tool runs (#2179 on 1.0.24, #5705 on 1.0.77); ccrepro stops the headless process mid-call and resumes it, the form an orchestrator meets, which leaves the same unanswered tool_use and the same 400 on 1.0.24–1.0.27, and conforming requests from 1.0.30 on.",
    releases: [
      { version: "1.0.24", says: "reported", source: "#2179 (a 400 after Escape mid tool call)" },
      { version: "1.0.77", says: "reported", source: "#5705 (double Escape on a running Bash call)" },
    ],
  },
  // Measured from 1.0.24 on; it stops a foreground call, so it needs no background task. how=interrupt writes the
  // control request itself, which 1.0.21–1.0.44 refuse ("Expected message type 'user'"): unsupported there, not ERROR.
  needs: (p) => ["stream-json-input", "resume", ...(p.how === "interrupt" ? (["stream-json-interrupt"] as const) : [])],
  timeoutMs: 300_000,
});
