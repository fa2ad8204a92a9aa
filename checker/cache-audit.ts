// Cache audit of a run: the prompt-cache model replayed over each conversation stream, with the cost of each stop/resume boundary.
import type { Recordings } from "../harness/recordings.ts";
import { simulateConversation, TTL_MS, type CacheBody, type RequestCache } from "../mock-api/prompt-cache.ts";
import { describeBoundary, findBoundaries, type Boundary } from "./boundaries.ts";
import { isModelRequest, streamRequests } from "./model-request.ts";
import { readMessagesBody } from "./request-body.ts";

export interface AuditedRequest {
  seq: number;
  receivedAt: number;
  cache: RequestCache;
}

export interface BoundaryCost {
  boundary: Boundary;
  // Estimated tokens the `after` request read, and what it could read had it been identical to the `before` request up
  // to that request's last written breakpoint (the entry still alive when `after` arrived): what a correct client makes
  // readable. cost = readable − read, never below 0.
  read: number;
  readable: number;
  cost: number;
  stop: RequestCache["stop"];
  firstDifference: string | null;
}

export interface StreamAudit {
  stream: string;
  requests: AuditedRequest[];
  // Estimated tokens read from the cache over all tokens sent, over the stream's requests (0 when it sent none).
  reusedFraction: number;
  // Each request's breakpoints, message paths counted from the end (messages[-1] is the last message), so placements
  // compare across requests and releases: e.g. "system[1] system[2] messages[-1].content[0]".
  placements: string[];
  boundaries: BoundaryCost[];
  // This stream's lines of CacheAudit.notes: its summary, then one per boundary.
  notes: string[];
}

export interface CacheAudit {
  streams: StreamAudit[];
  // Model requests whose body file is absent (pruned fixtures keep only some): left out of the replay, so the cache
  // state misses their writes; the notes say so.
  missingBodies: number[];
  notes: string[];
}

function hasBody(rec: Pick<Recordings, "body">, seq: number): boolean {
  try {
    rec.body(seq);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

// "messages[6].content[0]" in a request of 7 messages → "messages[-1].content[0]".
function relativePath(path: string, messageCount: number): string {
  return path.replace(/^messages\[(\d+)\]/, (_, m: string) => `messages[${Number(m) - messageCount}]`);
}

export function auditCache(rec: Pick<Recordings, "requests" | "responseEnds" | "sessions" | "body">): CacheAudit {
  const streams = [...new Set(rec.requests.filter(isModelRequest).map((r) => r.stream))];
  const boundaries = findBoundaries(rec);
  const missingBodies = rec.requests.filter((r) => isModelRequest(r) && !hasBody(rec, r.seq)).map((r) => r.seq);
  const audits = streams.map((stream): StreamAudit => {
    const entries = streamRequests(rec.requests, stream).filter((e) => !missingBodies.includes(e.seq));
    const bodies = entries.map((e) => readMessagesBody(rec, e.seq));
    // The checker's MessagesBody is the same JSON shape the model reads; only the fields the cache depends on matter.
    const results = simulateConversation(entries.map((e, i) => ({ body: bodies[i] as unknown as CacheBody, receivedAt: e.receivedAt })));
    const requests = entries.map((e, i) => ({ seq: e.seq, receivedAt: e.receivedAt, cache: results[i]! }));
    const sent = results.reduce((sum, r) => sum + r.total.tokens, 0);
    const read = results.reduce((sum, r) => sum + r.read.tokens, 0);
    const placements = results.map((r, i) => r.breakpoints.map((b) => relativePath(b.path, bodies[i]!.messages.length)).join(" "));
    const audited = new Set(entries.map((e) => e.seq));
    const costs = boundaries.filter((b) => b.stream === stream && audited.has(b.before) && audited.has(b.after)).map((b) => boundaryCost(b, requests));
    const audit = { stream, requests, reusedFraction: sent === 0 ? 0 : read / sent, placements, boundaries: costs };
    return { ...audit, notes: streamNotes(audit) };
  });
  const kept = audits.filter((a) => a.requests.length > 0);
  const notes = kept.flatMap((a) => a.notes);
  if (missingBodies.length > 0) notes.push(`cache: ${missingBodies.length} request bodies not recorded (req ${missingBodies.join(", ")}); the replay leaves them out`);
  return { streams: kept, missingBodies, notes };
}

function boundaryCost(boundary: Boundary, requests: readonly AuditedRequest[]): BoundaryCost {
  const before = requests.find((r) => r.seq === boundary.before)!.cache;
  const after = requests.find((r) => r.seq === boundary.after)!;
  // The before request's written prefix is readable only while its entry lives; the model refreshed it at before's time.
  // A request without a breakpoint wrote nothing, so then only what the after request read was readable.
  const last = before.breakpoints.at(-1);
  const beforeAt = requests.find((r) => r.seq === boundary.before)!.receivedAt;
  const readable = last && after.receivedAt - beforeAt < TTL_MS[last.ttl] ? Math.max(before.written.tokens, after.cache.read.tokens) : after.cache.read.tokens;
  return {
    boundary,
    read: after.cache.read.tokens,
    readable,
    cost: readable - after.cache.read.tokens,
    stop: after.cache.stop,
    firstDifference: after.cache.firstDifference?.path ?? null,
  };
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

function streamNotes(audit: Omit<StreamAudit, "notes">): string[] {
  const distinct = [...new Set(audit.placements)];
  const notes = [
    `cache (${audit.stream}): ${audit.requests.length} request(s), ${pct(audit.reusedFraction)} of estimated input tokens read from cache; breakpoints: ${distinct.map((p) => p || "none").join(" | ")}`,
  ];
  for (const c of audit.boundaries) {
    notes.push(
      c.cost > 0
        ? `cache: ${describeBoundary(c.boundary)} costs ~${c.cost} tokens: reads ${c.read} of ${c.readable} readable (first difference ${c.firstDifference ?? "none"}, ${c.stop})`
        : `cache: ${describeBoundary(c.boundary)} reads all ${c.readable} readable tokens`,
    );
  }
  return notes;
}

// The rule: at a stop or resume boundary of a stream, the request before it wrote a prefix P (the prompt up to its
// last cache_control breakpoint that met the model's minimum length), and that entry was still alive when the
// request after it arrived. The conversation up to P is history: a correct client re-sends it unchanged and places a
// breakpoint within the lookback of its end, so its resumed request reads all of P. A finding is raised when the
// resumed request, as the cache model reads it, reads fewer estimated tokens than P. This is not "identical prefix":
// a request that differs only after P is fine, and a byte-identical request that moves its breakpoints so that P is
// out of reach is not.
export interface CacheFinding {
  boundary: Boundary;
  cost: number;
  message: string;
}

export function resumeCacheFindings(audit: CacheAudit): CacheFinding[] {
  return audit.streams.flatMap((s) =>
    s.boundaries
      .filter((c) => c.cost > 0)
      .map((c) => ({
        boundary: c.boundary,
        cost: c.cost,
        message: `${describeBoundary(c.boundary)}: the resumed request reads ~${c.read} tokens from cache where ~${c.readable} were readable (${c.stop}${c.firstDifference ? ` at ${c.firstDifference}` : ""})`,
      })),
  );
}
