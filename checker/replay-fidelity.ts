// Replay fidelity: each Messages request a replay made against the recorded request the mock served it for,
// normalised by the machine rules (ids, dates, paths, platform, git status, hashes), with the first divergence as a diff.
import { unifiedDiff } from "./text-diff.ts";
import type { Recordings } from "../harness/recordings.ts";
import { normaliseMachine, normaliseMachineJson, ToolUseIds } from "../mock-api/machine-rules.ts";
import { replayKeyOf, servedSeqOf } from "../mock-api/replay-script.ts";
import { finding, type CheckerOutput, type Finding } from "../core/verdict.ts";

export const REPLAY_FINDINGS = ["replay-diverged", "replay-unmatched", "replay-missing"] as const;

// A recorded Messages request: its number in the recording and its body as sent.
export interface RecordedRequest {
  seq: number;
  label: string;
  body: string;
  // The recorded stream it belonged to (main, subagent-N, title, side; mock-api/replay-script.ts recordedStreams).
  stream?: string;
}

// The request as compared: pretty-printed JSON with the machine rules (mock-api/machine-rules.ts) applied to every
// string, metadata.user_id blanked, tool-use ids numbered in order of mention: the same rules the replay matched by.
export function normaliseRequestBody(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return normaliseMachine(text);
  }
  return JSON.stringify(normaliseMachineJson(value, new ToolUseIds()), null, 1);
}

// What changed between a recorded request and the replayed one, by the parts the replay matches on: the answer to
// "what did this release change in what claude sends for my session?".
function divergenceKinds(recorded: string, replayed: string): string[] {
  const [a, b] = [replayKeyOf("/v1/messages", recorded), replayKeyOf("/v1/messages", replayed)];
  const kinds: string[] = [];
  if (a.model !== b.model) kinds.push("the model changed");
  if (a.system !== b.system) kinds.push("the system text changed");
  if (a.tools !== b.tools) kinds.push("the tools changed");
  if (a.last !== b.last) kinds.push(/"type"\s*:\s*"tool_result"/.test(replayed) ? "a tool result changed" : "the prompt changed");
  return kinds.length > 0 ? kinds : ["the request changed outside what it is matched by (its history or options)"];
}

const NEAREST = /nearest #(\d+)/;

export function checkReplayFidelity(rec: Pick<Recordings, "requests" | "body">, recorded: readonly RecordedRequest[]): CheckerOutput {
  const bySeq = new Map(recorded.map((r) => [r.seq, r]));
  const replayed = rec.requests.filter((entry) => entry.path.endsWith("/v1/messages"));
  const served = new Set<number>();
  const findings: Finding[] = [];
  let equal = 0;
  let first: string | null = null;
  for (const entry of replayed) {
    const servedSeq = servedSeqOf(entry.reply.summary) ?? undefined;
    const nearestSeq = NEAREST.exec(entry.reply.fault ?? "")?.[1];
    const against = bySeq.get(Number(servedSeq ?? nearestSeq));
    const body = normaliseRequestBody(rec.body(entry.seq).toString("utf8"));
    if (servedSeq === undefined) {
      first ??= against
        ? `replayed #${entry.seq} against the nearest, recorded #${against.seq}: ${divergenceKinds(against.body, rec.body(entry.seq).toString("utf8")).join(", ")}`
        : `replayed #${entry.seq}: an extra request, like none recorded`;
      findings.push(
        finding({
          id: "replay-unmatched",
          title: "the replay sent a request that matches no recorded one; the mock answered it with an API error",
          where: `request #${entry.seq}`,
          detail: [entry.reply.summary],
          ...(against ? { diff: unifiedDiff(normaliseRequestBody(against.body), body, { beforeName: `recorded #${against.seq}`, afterName: `replayed #${entry.seq}` }) } : {}),
          red: true,
        }),
      );
      continue;
    }
    served.add(against!.seq);
    const expected = normaliseRequestBody(against!.body);
    if (expected === body) equal += 1;
    else if (!findings.some((f) => f.id === "replay-diverged")) {
      first ??= `replayed #${entry.seq} against recorded #${against!.seq}: ${divergenceKinds(against!.body, rec.body(entry.seq).toString("utf8")).join(", ")}`;
      findings.push(
        finding({
          id: "replay-diverged",
          title: "a replayed request differs from the recorded one it was answered for (first divergence shown)",
          where: `request #${entry.seq} (recorded #${against!.seq})`,
          diff: unifiedDiff(expected, body, { beforeName: `recorded #${against!.seq}`, afterName: `replayed #${entry.seq}` }),
          red: true,
        }),
      );
    }
  }
  const missing = recorded.filter((r) => !served.has(r.seq));
  if (missing.length > 0 && findings.length > 0) {
    findings.push(
      finding({
        id: "replay-missing",
        title: "the replay never made some recorded requests",
        where: missing.map((r) => `recorded #${r.seq}`).join(", "),
        red: true,
      }),
    );
  }
  const notes = [`replay fidelity: ${equal} of ${replayed.length} replayed requests equal their recorded ones after normalisation; ${recorded.length - missing.length} of ${recorded.length} recorded requests replayed`];
  if (first !== null) notes.push(`first divergence: ${first}`);
  // Each stream's requests answered as its own: a subagent's or a title's request never served one of another stream.
  const streams = [...new Set(recorded.flatMap((r) => (r.stream === undefined ? [] : [r.stream])))];
  if (streams.length > 0) {
    const count = (stream: string) => `${stream} ${recorded.filter((r) => r.stream === stream && served.has(r.seq)).length} of ${recorded.filter((r) => r.stream === stream).length}`;
    notes.push(`recorded requests replayed by stream: ${streams.map(count).join(", ")}`);
  }
  // Fewer requests and nothing different in those made: the replay stopped short, which says nothing yet.
  const reached: CheckerOutput["reached"] =
    findings.length === 0 && missing.length > 0
      ? { ok: false, reason: `the replay made ${recorded.length - missing.length} of the ${recorded.length} recorded requests` }
      : replayed.length === 0
        ? { ok: false, reason: "the replay made no Messages request" }
        : { ok: true };
  return { reached, findings, notes };
}
