// What a failed run's recordings show, in words: so an ERROR says why the binary stalled (it could not reach the
// mock, it exited, it sent nothing), not only which wait timed out. Reads the run directory; never changes it.
import fs from "node:fs";
import { loadRequestLog, readJsonLines } from "../harness/recordings.ts";
import { runLayout, sessionLayout } from "../harness/run-layout.ts";
import type { RunRecord } from "../harness/run-record.ts";

const times = (n: number) => (n === 1 ? "once" : `${n} times`);

function lastStderrLine(file: string): string {
  if (!fs.existsSync(file)) return "";
  return fs.readFileSync(file, "utf8").trim().split("\n").at(-1)?.slice(0, 300) ?? "";
}

// The sentences, each a fact from one file; empty when nothing stands out.
export function diagnoseRun(runDir: string, record: RunRecord): string[] {
  const layout = runLayout(runDir);
  const facts: string[] = [];
  const mockPort = record.mock.url ? new URL(record.mock.url).port : null;
  const outbound = fs.existsSync(layout.outboundLog)
    ? readJsonLines(layout.outboundLog)
        .map((line) => line as { request?: string; forwardedToMock?: boolean; answeredProbe?: boolean })
        // A connectivity probe the trap answered itself was neither refused nor a way to the mock.
        .filter((line) => !line.answeredProbe)
    : [];
  const refused = outbound.filter((a) => !a.forwardedToMock);
  const toMock = refused.filter((a) => mockPort !== null && (a.request ?? "").includes(`127.0.0.1:${mockPort}`));
  if (toMock.length > 0) facts.push(`the binary tried to reach the mock through the proxy ${times(toMock.length)} and was refused (it ignores NO_PROXY)`);
  const forwarded = outbound.length - refused.length;
  if (forwarded > 0) facts.push(`the binary reached the mock through the proxy ${times(forwarded)} (tunnelled)`);
  const others = refused.length - toMock.length;
  if (others > 0) facts.push(`the egress trap refused ${others} other connection${others === 1 ? "" : "s"} (first: ${refused.find((a) => !toMock.includes(a))?.request ?? "?"})`);
  let requests: number | null = null;
  try {
    requests = loadRequestLog(layout.mockLog).requests.length;
  } catch {
    // No request log: the mock never started, which the harness error already says.
  }
  if (requests === 0) facts.push("the mock received no request");
  for (const session of record.sessions) {
    // A process the harness stopped ended as asked; one that ended on its own, with a failure, is the news.
    const processFile = sessionLayout(layout, session.label).sessionJson;
    const stoppedBy = fs.existsSync(processFile) ? ((JSON.parse(fs.readFileSync(processFile, "utf8")) as { stoppedBy?: string[] }).stoppedBy ?? []) : [];
    if (stoppedBy.length > 0 || (session.exitCode === 0 && session.signal === null) || (session.exitCode === null && session.signal === null)) continue;
    const how = session.signal ? `was killed by ${session.signal}` : `exited with code ${session.exitCode}`;
    const stderr = lastStderrLine(sessionLayout(layout, session.label).stderr);
    facts.push(`claude (session ${session.label}) ${how}${stderr ? `: ${stderr}` : ""}`);
  }
  return facts;
}

// The harness's message, with what the recordings show appended when it adds something.
export function explainFailure(message: string, runDir: string, record: RunRecord): string {
  let facts: string[];
  try {
    facts = diagnoseRun(runDir, record).filter((fact) => !message.includes(fact));
  } catch {
    facts = [];
  }
  return facts.length > 0 ? `${message}; the recordings show: ${facts.join("; ")}` : message;
}
