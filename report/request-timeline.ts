// One stream's model requests as aligned lines, with a marker line where a resume or stop boundary falls.
import { describeBoundary, type Boundary } from "../checker/boundaries.ts";
import { offset } from "../checker/timeline-format.ts";
import type { RequestEntry, ResponseEndEntry } from "../mock-api/log-entry.ts";

export interface TimelineLine {
  text: string;
  // A boundary marker rather than a request: reports highlight these.
  boundary: boolean;
}

// `  +2.148s  req 3  step 2  msgs 5  text:"second"  stop=end_turn  complete` — the seq is the number findings cite.
export function formatRequestTimeline(
  stream: string,
  requests: readonly RequestEntry[],
  responseEnds: ReadonlyMap<number, ResponseEndEntry>,
  boundaries: readonly Boundary[],
  start: number,
): TimelineLine[] {
  const mine = requests.filter((r) => r.stream === stream).sort((a, b) => a.seq - b.seq);
  const seqWidth = String(mine.at(-1)?.seq ?? 0).length;
  const lines: TimelineLine[] = [];
  for (const request of mine) {
    for (const b of boundaries.filter((b) => b.stream === stream && b.after === request.seq)) {
      lines.push({ text: `  ── ${describeBoundary(b)} ──`, boundary: true });
    }
    const reply = request.reply;
    const fields = [
      offset(request.receivedAt, start).padStart(9),
      `req ${String(request.seq).padStart(seqWidth)}`,
      `step ${request.step ?? "?"}`,
      `msgs ${request.messageCount ?? "?"}`,
      reply.kind === "sse" || reply.kind === "json" ? reply.summary : `${reply.kind} ${reply.status} ${reply.summary}`,
      reply.stopReason ? `stop=${reply.stopReason}` : "",
      reply.fault ? `fault=${reply.fault}` : "",
      responseEnds.get(request.seq)?.outcome ?? "no response end",
    ];
    lines.push({ text: `  ${fields.filter(Boolean).join("  ")}`, boundary: false });
  }
  return lines;
}
