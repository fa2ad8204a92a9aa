// A `--resume` must bring back every turn its transcript holds, also when a line of the transcript is corrupt or cut off.
import { choice, conversation, defineScenario, editTranscript, resultPrinted, resume, send, session, sessionEnded, start, stop, text, wait, z } from "../kit/index.ts";
import { conversationRows, finding, notReached, reached, requestsOf, resultOf, sessionOf, transcriptOf } from "../kit/checkers.ts";

const [s1, s2] = [session("s1"), session("s2")];
// One marker per prompt: whichever prompt a request's history starts with names its stream.
const TURNS = ["CCREPRO_HIST_ONE_6N", "CCREPRO_HIST_TWO_6N", "CCREPRO_HIST_THREE_6N"];
const STREAMS = ["from-one", "from-two", "from-three"];
// What a disk or a killed writer leaves: a line that is not JSON after the first answer, the first answer's own row
// damaged (the chain of parentUuid links through it breaks), or a row cut off mid-write at the end.
const CUT = '{"type":"user","message":{"role":"user","content":"cut off';
const DAMAGE = {
  "corrupt-line": (text: string) => text.replace(/^(.*"type":"assistant".*)$/m, `$1\n${CUT}`),
  "corrupt-row": (text: string) => text.replace(/^.*"type":"assistant".*$/m, CUT),
  "cut-tail": (text: string) => text + CUT,
  none: (text: string) => text,
};
// CHANGELOG 2.1.121: "Fixed `--resume` failing on large sessions when a transcript line was corrupted". 2.1.112's cli.js
// reads a transcript over 5 MiB (5242880 bytes) through another path; "large" (the default) pads the file past that with
// rows of a type the loader ignores, before the damage; "small" leaves it at a few KB.
const PAD_ROW = JSON.stringify({ type: "ccrepro-padding", text: "x".repeat(64 * 1024) });
const pad = (text: string) => Array.from({ length: 96 }, () => PAD_ROW).join("\n") + "\n" + text;
const params = z.strictObject({ damage: choice(["corrupt-line", "corrupt-row", "cut-tail", "none"], { default: "corrupt-line" }), size: choice(["small", "large"], { default: "large" }) });

export default defineScenario({
  name: "resume-history-lost",
  summary: "`--resume` of a session whose transcript (over 5 MiB by default) has a corrupt or cut-off line still sends every turn the transcript holds.",
  source: "anthropics/claude-code#35024, #50347, #21617, #58554, #88597: a resumed session comes back with part of its history, or none (CHANGELOG 2.1.121: `--resume` failing on large sessions with a corrupted line fixed).",
  link: "https://github.com/anthropics/claude-code/issues/35024",
  params,
  findings: ["history-lost", "resume-refused"],
  sessions: [s1, s2],
  mockScript: () => conversation(Object.fromEntries(STREAMS.map((stream, i) => [stream, { marker: TURNS[i]!, replies: [], then: text(`answer ${i + 1}`) }]))),
  steps: ({ damage, size }) => [
    start(s1, { prompt: `${TURNS[0]} say one` }),
    wait("turn one answered", resultPrinted(s1)),
    send(s1, `${TURNS[1]} say two`),
    wait("turn two answered", resultPrinted(s1, { count: 2 })),
    stop(s1),
    wait("session 1 exited", sessionEnded(s1)),
    editTranscript(`damage: ${damage}, size: ${size}`, { of: s1, edit: (text) => (size === "large" ? pad(DAMAGE[damage](text)) : DAMAGE[damage](text)) }),
    resume(s2, { from: s1, prompt: `${TURNS[2]} say three` }),
    wait("the resumed turn ended", resultPrinted(s2)),
  ],
  check(rec, { damage }) {
    const transcript = transcriptOf(rec, s1);
    const started = sessionOf(rec, s2)?.process?.startedAt;
    if (!transcript || started === undefined) return { reached: notReached("session 1 left no transcript, or session 2 never started"), findings: [] };
    if (damage !== "none" && !transcript.rows.some((row) => row.json === null)) return { reached: notReached("the transcript holds no damaged line"), findings: [] };
    // The turns the transcript held when session 2 started: its conversation rows written before then.
    const held = conversationRows(transcript).filter((row) => row.at !== null && row.at < started);
    const asked = requestsOf(rec, { session: s2 }).find((r) => STREAMS.includes(r.stream ?? ""));
    if (!asked) {
      const result = resultOf(rec, s2);
      if (!result?.is_error) return { reached: notReached("the resumed session sent no request and reported no error"), findings: [] };
      const title = `the resume was refused (${result.subtype}: ${String(result.result ?? result.errors?.[0] ?? "")})`.slice(0, 200);
      return { reached: reached(), findings: [finding({ id: "resume-refused", title: `${title}, though the transcript holds ${held.length} messages`, where: `session s2 result line ${result.line}` })] };
    }
    // Each held message must come back; consecutive user rows may be merged into one message, so texts are compared.
    const sent = JSON.stringify(asked.messages);
    const lost = held.filter((row) => row.text !== "" && !sent.includes(JSON.stringify(row.text).slice(1, -1)));
    const findings = lost.map((row) =>
      finding({ id: "history-lost", title: `the resumed request lacks the ${row.type} message "${row.text.slice(0, 60)}" (transcript line ${row.line})`, where: `request #${asked.seq}` }),
    );
    return { reached: reached(), findings, notes: [`transcript ${transcript.path}: ${held.length} messages before the resume; the resumed request starts ${asked.stream}`] };
  },
  // `ccrepro run resume-history-lost --claude V [--param damage=D] [--param size=small]`; the large boundaries by `ccrepro
  // bisect resume-history-lost --old 1.0.128 --new 2.1.118` (2.1.89/2.1.90) and the CHANGELOG (2.1.120/2.1.121), each side
  // run 3 times (2026-12-06); small: 2026-12-01 and 2026-12-06.
  known: [
    { versions: "1.0.22 - 1.0.63", params: { size: "large" }, verdict: "INCONCLUSIVE", note: "the resumed request's first message is the context reminder alone, so the mock files it under no conversation and the check sees no resumed request (the atlas, 2026-12-07; 1.0.22 and 1.0.63 3 of 3)" },
    { versions: "2.1.69", params: { size: "large" }, verdict: "INCONCLUSIVE", note: "the resumed session sent no request and printed no error result (3 of 3 on 2026-12-07)" },
    { versions: ">=1.0.64 <2.1.69 || >=2.1.70 <2.1.90", params: { size: "large" }, verdict: "GREEN", note: "the corrupt line is skipped, every held message comes back (1.0.64, 2.0.15, 2.0.19, 2.0.27, 2.0.28 3 of 3; 1.0.128, 2.1.20, 2.1.68, 2.1.79, 2.1.85, 2.1.87, 2.1.88; 2.1.89 3 of 3; the atlas on every release between)" },
    {
      versions: ">=2.1.90 <2.1.115",
      params: { size: "large" },
      verdict: "RED",
      finding: "history-lost",
      note: "the resumed request stops at the corrupt line: the prompt after it is missing (2.1.90 3 of 3, 2.1.111, 2.1.112, 2.1.113, 2.1.114)",
    },
    {
      versions: ">=2.1.115 <2.1.121",
      params: { size: "large" },
      verdict: "RED",
      finding: "resume-refused",
      note: "the resume fails: \"Failed to resume session: JSON Parse error: Unterminated string\", no request sent (2.1.116, 2.1.117; 2.1.118 3 of 3 and with cut-tail; 2.1.120 3 of 3)",
    },
    { versions: ">=2.1.121", params: { size: "large" }, verdict: "GREEN", note: "the corrupt line is skipped (2.1.121 3 of 3, 2.1.332)" },
    { versions: ">=1.0.64", params: { size: "small" }, verdict: "GREEN", note: "corrupt-line and cut-tail in a small transcript: the bad line is skipped, every held message comes back (1.0.128, 2.1.111 - 2.1.121, 2.1.281, 2.1.332; the atlas, 2026-12-07, on every release from 1.0.64)" },
    { versions: "1.0.22 - 1.0.63", params: { size: "small" }, verdict: "INCONCLUSIVE", note: "the resumed session sent no request and reported no error (the atlas, 2026-12-07)" },
    { versions: "1.0.64 - 1.0.85 || >=2.1.91", params: { damage: "corrupt-row", size: "small" }, verdict: "GREEN", note: "only the destroyed row's message is missing; the chain is mended past it (2.1.112, 2.1.332; the atlas, 2026-12-07, on every release from 1.0.64)" },
    { versions: "1.0.86 - 2.1.90", params: { damage: "corrupt-row", size: "small" }, verdict: "RED", finding: "history-lost", note: "the chain stops at the destroyed row: the resumed request starts after it, without the first prompt (the atlas, 2026-12-07; 1.0.85, 1.0.86, 2.1.90 and 2.1.91 re-run 3 of 3)" },
    { versions: "1.0.22 - 1.0.63", params: { damage: "corrupt-row", size: "small" }, verdict: "INCONCLUSIVE", note: "the resumed session sent no request and reported no error (the atlas, 2026-12-07)" },
  ],
  publicRecord: {
    role: "reproduction",
    releases: [
      { version: "2.1.111", says: "reported", source: "#35024 et al. (2.1.111–2.1.118)" },
      { version: "2.1.118", says: "reported", source: "#35024 et al. (2.1.111–2.1.118)" },
      { version: "2.1.121", says: "fixed", source: "CHANGELOG 2.1.121" },
    ],
  },
  needs: ["stream-json-input", "resume"],
});
