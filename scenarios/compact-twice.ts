// A second `/compact` in one process must not bring back what the first one summarised.
import { conversation, count, defineScenario, milliseconds, pause, resultPrinted, send, session, sessionEnded, start, stop, text, wait, z } from "../kit/index.ts";
import { finding, notReached, reached, requestsOf, transcriptOf } from "../kit/checkers.ts";

const s1 = session("s1");
const MARKER = "CCREPRO_TWICE_FIRST_6K";
const SUMMARY = "CCREPRO_TWICE_SUMMARY_6K";
// The instruction every release's summary request ends with; it routes that request, whatever its history holds.
const ASKS_SUMMARY = "create a detailed summary of the conversation";
// Releases from about 2.1.237 keep recent turns through a compaction and refuse one with too few ("Not enough messages").
// Paced as a person or an orchestrator is, not as fast as the pipe allows: with each prompt sent the moment the last
// answer is out, the nine prompts take ~0.3 s and race claude's own transcript writer. 2.1.153 then re-appends the
// summarised rows in some runs and instead rewrites the stretch after the first boundary in others: RED in 5 of 10
// unpaced runs inside the test runner's worker, 10 of 10 at this default (docs/scenarios/compact-twice.md).
const params = z.strictObject({ turns: count({ default: 3, min: 1, max: 10 }), gapMs: milliseconds({ default: 500, max: 5_000 }) });
const turn = (label: string, n: number) => `say ${label} ${n}`;

export default defineScenario({
  name: "compact-twice",
  summary: "A second `/compact` in one process summarises what came since the first; the rows the first one replaced are not written to the transcript again.",
  source: "anthropics/claude-code#92089: a second /compact re-appends every row the first one summarised (same uuid, parentUuid, timestamp), so the transcript grows quadratically.",
  link: "https://github.com/anthropics/claude-code/issues/92089",
  params,
  findings: ["rows-reappended", "request-carries-summarised", "turn-rewritten"],
  sessions: [s1],
  // The summary requests get the summary; the turns before the first compaction are `main`, those after `compacted`.
  mockScript: () =>
    conversation(
      { summary: { marker: ASKS_SUMMARY, replies: [], then: text(`<summary>${SUMMARY}: the user asked for words; they were given.</summary>`) }, main: { marker: MARKER, replies: [], then: text("a word") }, compacted: { marker: SUMMARY, replies: [], then: text("a word after a compaction") } },
      { streams: [{ stream: "summary", anyUserContains: ASKS_SUMMARY }, { stream: "compacted", firstUserContains: SUMMARY }, { stream: "main", firstUserContains: MARKER }] },
    ),
  steps: ({ turns, gapMs }) => {
    const prompts = [...Array.from({ length: turns }, (_, i) => (i === 0 ? `${MARKER} ${turn("first", i)}` : turn("first", i))), "/compact", ...Array.from({ length: turns }, (_, i) => turn("second", i)), "/compact", "say last"];
    return [
      start(s1, { prompt: prompts[0] as string }),
      wait("the first prompt answered", resultPrinted(s1)),
      prompts.slice(1).map((prompt, i) => [pause("before the next prompt", gapMs), send(s1, prompt), wait(`${prompt} answered`, resultPrinted(s1, { count: i + 2 }))]),
      stop(s1),
      wait("session 1 exited", sessionEnded(s1)),
    ];
  },
  check(rec, { turns }) {
    // The trigger, from the transcript: two compaction boundaries, each followed by the mock's summary.
    const view = transcriptOf(rec, s1);
    const rows = view?.rows ?? [];
    const boundaries = rows.filter((row) => row.type === "system" && row.json?.subtype === "compact_boundary");
    const summaries = rows.filter((row) => row.type === "user" && row.text.includes(SUMMARY));
    if (boundaries.length < 2 || summaries.length < 2) return { reached: notReached(`session 1's transcript holds ${boundaries.length} compaction boundaries and ${summaries.length} summaries, not 2 of each (did each /compact compact?)`), findings: [] };
    const last = requestsOf(rec, { session: s1 }).filter((r) => r.stream === "compacted").at(-1);
    if (!last || !JSON.stringify(last.messages).includes("say last")) return { reached: notReached("no request after the second compaction carried the last prompt"), findings: [] };
    // A row whose uuid an earlier row of the file already has was written again, not made new. The bug: a copy, after
    // the first boundary, of a row from before it (what the first compaction summarised). A copy of the last turn just
    // before a boundary, from the same stretch of the file, is another duplication, reported apart.
    const first = new Map<string, number>();
    const copies = rows.filter((row) => row.uuid !== null && (first.has(row.uuid) || (first.set(row.uuid, row.line), false)));
    const origin = (r: (typeof rows)[number]) => first.get(r.uuid as string) as number;
    const cut = boundaries[0]!.line;
    // 2.1.152 may write a whole stretch again, its boundary row included: a run of consecutive copies that holds a
    // copy of a boundary is that rewrite, not the bug, however far back the row just before it reaches.
    const copied = new Set(copies.map((r) => r.line));
    const rewrittenBoundaries = copies.filter((r) => r.type === "system" && r.json?.subtype === "compact_boundary").map((r) => r.line);
    const inRewrite = (r: (typeof rows)[number]) => {
      let [lo, hi] = [r.line, r.line];
      while (copied.has(lo - 1)) lo -= 1;
      while (copied.has(hi + 1)) hi += 1;
      return rewrittenBoundaries.some((line) => line >= lo && line <= hi);
    };
    const summarised = copies.filter((r) => r.line > cut && origin(r) < cut && !inRewrite(r));
    const later = copies.filter((r) => !summarised.includes(r));
    const listed = (list: typeof rows) => list.slice(0, 12).map((r) => `line ${r.line} repeats line ${origin(r)}: ${r.type} ${r.uuid}`);
    const findings = [];
    if (summarised.length > 0)
      findings.push(finding({ id: "rows-reappended", title: `the transcript holds again ${summarised.length} row(s) (same uuid) the first compaction summarised`, where: view?.path ?? "the transcript", detail: listed(summarised) }));
    if (later.length > 0)
      findings.push(finding({ id: "turn-rewritten", red: false, title: `${later.length} row(s) written again (same uuid) in the stretch they belong to, just before a boundary`, where: view?.path ?? "the transcript", detail: listed(later) }));
    // What the first compaction replaced must not reach the request after the second.
    const body = JSON.stringify(last.messages);
    const stale = Array.from({ length: turns }, (_, i) => turn("first", i)).filter((t) => body.includes(t));
    if (stale.length > 0) findings.push(finding({ id: "request-carries-summarised", title: `the request after the second compaction carries prompts the first compaction replaced (${stale.join(", ")})`, where: `request #${last.seq}` }));
    return { reached: reached(), findings, notes: [`transcript: ${rows.length} rows, boundaries at lines ${boundaries.map((b) => b.line).join(" and ")}; repeated uuids: ${summarised.length} copied across the first boundary, ${later.length} within a stretch`, `request #${last.seq} after the second compaction: ${last.messages.length} messages`] };
  },
  // Measured 2026-12-02: node bin/ccrepro.mjs run compact-twice --claude V; boundaries by ccrepro bisect, each side run 11
  // times (2.1.152, 2.1.153) and 6 times (2.1.309, 2.1.310), every run the same verdict; re-run paced (gapMs 500) on
  // 1.0.128–2.1.332, 3 each, and 2.1.153 20 more times in the test runner (docs/scenarios/compact-twice.md).
  known: [
    { versions: "1.0.128 || 2.0.28 - 2.1.152", verdict: "GREEN", note: "no row copied across the first boundary (1.0.128, 2.0.72, 2.1.112, 2.1.113, 2.1.146–2.1.152; 1.0.128 again 2 of 2 on 2026-12-07, inside the stretch 1.0.21–2.0.27 the atlas measured INCONCLUSIVE around it and assumed it to share); unpaced (gapMs=0), 2.1.152 rewrites the last turn just before a boundary in 8 of 11 runs (turn-rewritten)" },
    {
      versions: ">=2.1.153 <2.1.310",
      verdict: "RED",
      finding: "rows-reappended",
      note: "the second /compact re-appends the rows from before the first boundary, same uuids (6 on 2.1.153, 10 on 2.1.234–2.1.260, 17–18 on 2.1.281–2.1.309); #92089's releases re-run paced 2026-12-06: 2.1.237 3 of 3, 2.1.238 3 of 3, 2.1.260 3 of 3 RED",
    },
    { versions: ">=2.1.310", verdict: "GREEN", note: "no copies (2.1.310, 2.1.311, 2.1.332)" },
  ],
  publicRecord: {
    role: "reproduction",
    releases: [
      { version: "2.1.237", says: "reported", source: "#92089" },
      { version: "2.1.260", says: "reported", source: "#92089" },
    ],
  },
  needs: ["stream-json-input"],
});
