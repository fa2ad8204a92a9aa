// Wait conditions several scenarios share.
import type { Recordings } from "../harness/recordings.ts";

// Request `seq` was answered, nothing else is in flight, and the session printed a result after the answer:
// the session has settled on what that request started.
export function answeredAndSettled(rec: Recordings, seq: number, session = rec.sessions[0]): boolean {
  const answered = rec.responseEnds.get(seq);
  if (!answered || !session) return false;
  if (rec.requests.some((r) => !rec.responseEnds.has(r.seq))) return false;
  return session.stdout.some((line) => line.event?.type === "result" && line.t >= answered.endedAt);
}
