// What a run recorded, as one typed view: built live by the driver for wait predicates, loaded from files by the checker.
import fs from "node:fs";
import { existsInside, readInside, refuseLink, resolveInside } from "./run-files.ts";
import path from "node:path";
import { z } from "zod";
import { logLineSchema, requestIndexOf, type RequestEntry, type ResponseEndEntry } from "../mock-api/log-entry.ts";
import { readRunRecord } from "./run-record.ts";
import { hookAnswerLayout, runLayout, sessionLayout } from "./run-layout.ts";
import { parseStreamLine, type StreamEvent } from "./stream-events.ts";
import { copiedTranscripts, type TranscriptFile } from "./transcripts.ts";
import { clockNow } from "../core/time.ts";

export interface StdoutRecord {
  // Index of the line in the session's stdout (0-based), so findings can cite it.
  line: number;
  t: number;
  raw: string;
  // null when the line did not parse; parseError says why.
  event: StreamEvent | null;
  parseError?: string;
}

export interface StdinRecord {
  t: number;
  raw: string;
}

export const sessionProcessSchema = z.object({
  label: z.string(),
  argv: z.array(z.string()),
  resumeOf: z.string().nullable(),
  pid: z.number().int().nullable(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  // How the harness ended it, if it did: closed stdin, then the signals it sent, in order.
  stoppedBy: z.array(z.string()),
  sessionId: z.string().nullable(),
});
export type SessionProcess = z.infer<typeof sessionProcessSchema>;

// The record of a process about to start; the session fills in its pid, exit and session id as they happen.
export function startingProcess(label: string, argv: string[], resumeOf: string | null): SessionProcess {
  return { label, argv, resumeOf, pid: null, startedAt: clockNow(), endedAt: null, exitCode: null, signal: null, stoppedBy: [], sessionId: null };
}

export interface SessionRecording {
  label: string;
  stdout: StdoutRecord[];
  stdin: StdinRecord[];
  process: SessionProcess | null;
}

// One line of hooks.jsonl, as the hook recorder writes it.
export const hookIndexSchema = z.object({
  t: z.number(),
  event: z.string(),
  // The hook command's own run time (ms), measured inside the command.
  durationMs: z.number().nullable(),
  payloadFile: z.string(),
  // Only on an answering hook's lines (absent on record-only lines and in runs recorded before hooks answered):
  // the rule (index in the plan's answers), the call index it claimed, the reply it gave (calls past the list get
  // the last one), its exit code, and the reply's files, relative to the run directory, that it printed byte-exact.
  answer: z
    .object({
      rule: z.number().int().min(0),
      call: z.number().int().min(0),
      reply: z.number().int().min(0),
      exitCode: z.number().int(),
      // A shell reply: the author's command ran, and its output files are per call; `signal` when claude ended it.
      shell: z.boolean().optional(),
      signal: z.string().optional(),
      stdoutFile: z.string(),
      stderrFile: z.string(),
    })
    .optional(),
  // An answering hook that could not answer (no call index, no replies): it exited 1 with a message on stderr.
  answerError: z.string().optional(),
});

export interface HookRecord {
  t: number;
  event: string;
  durationMs: number | null;
  // The payload's raw text and, when it parses, its JSON value (null otherwise).
  raw: string;
  payload: unknown;
  // What the hook answered on this call, when it was one of the scenario's answering hooks; null for a hook that
  // only recorded.
  answer: HookAnswerRecord | null;
}

// One answering hook's call: which rule (index in the plan's `answers`), its call index within that rule, and what it
// printed and exited with, byte-exact.
export interface HookAnswerRecord {
  rule: number;
  call: number;
  // Null when the hook was ended before it could record its exit: claude killed the author's command and its recorder
  // at once (the call is known from the index it claimed and its payload; see loadHooks).
  exitCode: number | null;
  stdout: string;
  stderr: string;
  // The author's own command answered (a shell reply), not a fixed reply.
  shell: boolean;
  // The signal that ended the hook before its command exited (claude's timeout), or null.
  signal: string | null;
}

// One file of the working directory: its path relative to it (with "/"), size, sha256, and its text when it is a
// small UTF-8 file (up to WORKDIR_TEXT_LIMIT bytes, while the snapshot's WORKDIR_TEXT_BUDGET lasts, both in
// workdir.ts; null otherwise).
export interface WorkdirFile {
  path: string;
  size: number;
  sha256: string;
  text: string | null;
}

// A symbolic link in the working directory: recorded as a link with its target as written, never followed (a link
// pointing outside the working directory must not pull that file into the run).
export interface WorkdirLink {
  path: string;
  target: string;
}

// What the working directory held at one moment (the `.git` the harness made is left out). `links` is absent only in
// snapshots built in memory; the harness always writes it.
export interface WorkdirSnapshot {
  t: number;
  files: WorkdirFile[];
  links?: WorkdirLink[];
}

// Snapshots of the working directory: after each session's process ended, by session label, and at the run's end.
export interface WorkdirRecord {
  afterSession: Record<string, WorkdirSnapshot>;
  atEnd: WorkdirSnapshot | null;
}

export interface Recordings {
  // The run directory these came from; absent for recordings built in memory (tests).
  runDir?: string;
  sessions: SessionRecording[];
  requests: RequestEntry[];
  responseEnds: Map<number, ResponseEndEntry>;
  hooks: HookRecord[];
  // The working directory's snapshots; empty for runs recorded before they were kept.
  workdir: WorkdirRecord;
  // Until when the run was watching (the end of its last step): an absence is judged over this whole span, not only
  // up to the last thing recorded. Absent live (the run is still watching) and for directories without run.json.
  observedUntil?: number;
  // The transcripts claude wrote (the run directory's `transcripts/` copy, taken once every process was reaped); absent
  // live and for recordings built in memory.
  transcripts?: TranscriptFile[];
  // What the run's MCP fixture servers logged, in time order; absent live and for runs without MCP servers.
  mcp?: McpServerEvent[];
  // The interactive UIs' screens as text, in the order they were captured (each terminal step, and each UI at the end
  // of the run); absent live and for runs without a terminal (or recorded before the screens were indexed).
  screens?: ScreenCapture[];
  // The raw request body bytes of request `seq`.
  body(seq: number): Buffer;
}

// One captured screen of a UI: when, which session, what step took it ("start", "typed", …, "end"), and its text.
export interface ScreenCapture {
  t: number;
  session: string;
  what: string;
  text: string;
}

const screenIndexSchema = z.object({ t: z.number(), session: z.string(), what: z.string(), file: z.string() });

// The screens the run captured, from screens/index.jsonl (the text files it names, relative to the run directory).
export function loadScreens(runDir: string): ScreenCapture[] {
  const index = runLayout(runDir).screensIndex;
  if (!existsInside(runDir, index)) return [];
  return readJsonLines(index, runDir).map((value) => {
    const line = screenIndexSchema.parse(value);
    const file = path.join(runDir, line.file);
    const text = existsInside(runDir, file) ? readInside(runDir, file, "utf8").replace(/\n$/, "") : "";
    return { t: line.t, session: line.session, what: line.what, text };
  });
}

// One line an MCP fixture server logged (harness/mcp-fixture-server.mjs): started (with its delay and tools), ready
// (reading stdin from then on), request (a message claude sent, by JSON-RPC method), tool-call, stdin-closed, signal.
// `pid`: each session starts its own server process. `server`: the server's name, from its log file's.
const mcpEventSchema = z.looseObject({
  t: z.number(),
  event: z.string(),
  pid: z.number().int(),
  method: z.string().nullable().optional(),
  tool: z.string().optional(),
  delayMs: z.number().optional(),
});
export type McpServerEvent = z.infer<typeof mcpEventSchema> & { server: string };

// What every fixture server of the run logged (`mcp/<name>.jsonl`), in time order; none for runs without MCP servers.
export function loadMcpEvents(runDir: string): McpServerEvent[] {
  const dir = runLayout(runDir).mcpLogDir;
  if (!existsInside(runDir, dir)) return [];
  return fs
    .readdirSync(resolveInside(runDir, dir))
    .filter((name) => name.endsWith(".jsonl"))
    .flatMap((name) => readJsonLines(path.join(dir, name), runDir).map((value) => ({ ...mcpEventSchema.parse(value), server: name.slice(0, -".jsonl".length) })))
    .sort((a, b) => a.t - b.t);
}

const timedLineSchema = z.object({ t: z.number(), raw: z.string() });

// `root`: the directory the file must really be inside (its run directory; by default its own folder).
export function readJsonLines(file: string, root = path.dirname(file)): unknown[] {
  if (!existsInside(root, file)) return [];
  const lines = readInside(root, file, "utf8").split("\n");
  // The last piece is "" for a complete file, or a line still being written by a live writer: not ours yet.
  lines.pop();
  return lines.filter((line) => line.trim() !== "").map((line) => JSON.parse(line) as unknown);
}

export function toStdoutRecord(line: number, t: number, raw: string): StdoutRecord {
  const parsed = parseStreamLine(raw);
  return parsed.ok ? { line, t, raw, event: parsed.event } : { line, t, raw, event: null, parseError: parsed.error };
}

// `root`: the directory every file of the log must really be inside (the run directory; by default the log's own).
// `bodies`: the bytes read so far, by body file. A logged body never changes, so each is read once, and the same
// Buffer comes back every time (checker/request-body.ts parses each Buffer once); a live log that is re-read as it
// grows passes the same map each time.
export function loadRequestLog(logDir: string, root = logDir, bodies = new Map<string, Buffer>()): Pick<Recordings, "requests" | "responseEnds" | "body"> {
  const requests: RequestEntry[] = [];
  const responseEnds = new Map<number, ResponseEndEntry>();
  for (const value of readJsonLines(requestIndexOf(logDir), root)) {
    const entry = logLineSchema.parse(value);
    if (entry.kind === "request") requests.push(entry);
    else responseEnds.set(entry.seq, entry);
  }
  requests.sort((a, b) => a.seq - b.seq);
  // Checked as the log is read, not when a check first asks for a body: a check that reads none is still refused.
  for (const entry of requests) if (!bodies.has(entry.bodyFile)) refuseLink(logDir, path.join(logDir, entry.bodyFile));
  const bySeq = new Map(requests.map((r) => [r.seq, r]));
  return {
    requests,
    responseEnds,
    body(seq: number) {
      const entry = bySeq.get(seq);
      if (!entry) throw new Error(`no request ${seq} in ${logDir}`);
      const known = bodies.get(entry.bodyFile);
      if (known) return known;
      // Inside the log itself: an index line's "../" or a linked body names no file of the machine's.
      const bytes = readInside(logDir, path.join(logDir, entry.bodyFile));
      bodies.set(entry.bodyFile, bytes);
      return bytes;
    },
  };
}

export function loadHooks(runDir: string): HookRecord[] {
  const readIfThere = (file: string): string => (existsInside(runDir, file) ? readInside(runDir, file, "utf8") : "");
  const recorded = readJsonLines(runLayout(runDir).hooksLog, runDir)
    .map((value): HookRecord => {
      const entry = hookIndexSchema.parse(value);
      const file = path.join(runDir, entry.payloadFile);
      const raw = readIfThere(file);
      // An unparseable payload is kept as raw text (payload null); the checker reports what it needs.
      const payload = parseOrNull(raw);
      const answer: HookAnswerRecord | null = entry.answer
        ? {
            rule: entry.answer.rule,
            call: entry.answer.call,
            exitCode: entry.answer.exitCode,
            stdout: readIfThere(path.join(runDir, entry.answer.stdoutFile)),
            stderr: readIfThere(path.join(runDir, entry.answer.stderrFile)),
            shell: entry.answer.shell ?? false,
            signal: entry.answer.signal ?? null,
          }
        : null;
      return { t: entry.t, event: entry.event, durationMs: entry.durationMs, raw, payload, answer };
    });
  return [...recorded, ...unfinishedShellCalls(runDir, recorded)].sort((a, b) => a.t - b.t);
}

// A shell reply's call whose recorder was killed before it wrote its index line (claude ended the hook with a signal
// bash cannot trap): its claimed index names the payload, which says when and with what it was called. Fixed replies
// never wait, so only shell replies (a rule directory with out/) are looked at.
function unfinishedShellCalls(runDir: string, recorded: readonly HookRecord[]): HookRecord[] {
  const answersDir = runLayout(runDir).hookAnswersDir;
  if (!fs.existsSync(answersDir)) return [];
  const done = new Set(recorded.map((hook) => `${hook.answer?.rule}:${hook.answer?.call}`));
  return fs.readdirSync(answersDir).flatMap((ruleName) => {
    const rule = Number(ruleName);
    const files = hookAnswerLayout(runLayout(runDir), rule);
    if (!Number.isInteger(rule) || !fs.existsSync(files.output) || !fs.existsSync(files.calls)) return [];
    return fs.readdirSync(files.calls).flatMap((callName): HookRecord[] => {
      const call = Number(callName);
      if (!Number.isInteger(call) || done.has(`${rule}:${call}`)) return [];
      const payloadName = readInside(runDir, path.join(files.calls, callName), "utf8").trim();
      const started = /^(\d+)-\d+-([A-Za-z]+)\.json$/.exec(payloadName);
      if (!started) return [];
      const payloadFile = path.join(runLayout(runDir).hooksDir, payloadName);
      const raw = existsInside(runDir, payloadFile) ? readInside(runDir, payloadFile, "utf8") : "";
      const output = (name: string) => (existsInside(runDir, path.join(files.output, name)) ? readInside(runDir, path.join(files.output, name), "utf8") : "");
      return [{ t: Number(started[1]) / 1000, event: started[2]!, durationMs: null, raw, payload: parseOrNull(raw), answer: { rule, call, exitCode: null, stdout: output(`${call}.stdout`), stderr: output(`${call}.stderr`), shell: true, signal: null } }];
    });
  });
}

function parseOrNull(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

export const workdirSnapshotSchema = z.object({
  t: z.number(),
  files: z.array(
    z.object({
      path: z.string(),
      size: z.number().int().nonnegative(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      text: z.string().nullable(),
    }),
  ),
  links: z.array(z.object({ path: z.string(), target: z.string() })).optional(),
}) satisfies z.ZodType<WorkdirSnapshot>;

const readSnapshot = (root: string, file: string): WorkdirSnapshot | null =>
  existsInside(root, file) ? workdirSnapshotSchema.parse(JSON.parse(readInside(root, file, "utf8"))) : null;

// The working directory's snapshots a run directory holds: one per session directory that has one, and the run's
// last. Runs recorded before snapshots were kept have none of these files: their record is empty.
export function loadWorkdir(runDir: string, labels: string[]): WorkdirRecord {
  const run = runLayout(runDir);
  const afterSession: Record<string, WorkdirSnapshot> = {};
  for (const label of labels) {
    const snapshot = readSnapshot(runDir, sessionLayout(run, label).workdir);
    if (snapshot) afterSession[label] = snapshot;
  }
  return { afterSession, atEnd: readSnapshot(runDir, run.workdirAtEnd) };
}

// Loads everything a run directory recorded. Throws when a file is malformed: a damaged run is a harness error.
export function loadRecordings(runDir: string): Recordings {
  const run = runLayout(runDir);
  const labels = fs.existsSync(run.sessionsDir)
    ? fs.readdirSync(resolveInside(runDir, run.sessionsDir)).filter((name) => fs.lstatSync(path.join(run.sessionsDir, name)).isDirectory())
    : [];
  const sessions = labels
    .map((label): SessionRecording => {
      const files = sessionLayout(run, label);
      const stdout = readJsonLines(files.stdout, runDir).map((value, i) => {
        const { t, raw } = timedLineSchema.parse(value);
        return toStdoutRecord(i, t, raw);
      });
      const stdin = readJsonLines(files.stdin, runDir).map((value) => timedLineSchema.parse(value));
      const process = existsInside(runDir, files.sessionJson)
        ? sessionProcessSchema.parse(JSON.parse(readInside(runDir, files.sessionJson, "utf8")))
        : null;
      return { label, stdout, stdin, process };
    })
    .sort((a, b) => (a.process?.startedAt ?? 0) - (b.process?.startedAt ?? 0));
  const hooks = loadHooks(runDir);
  const steps = fs.existsSync(run.runJson) ? readRunRecord(run.runJson).steps : [];
  const observedUntil = steps.length > 0 ? Math.max(...steps.map((step) => step.endedAt)) : undefined;
  const workdir = loadWorkdir(runDir, labels);
  const transcripts = copiedTranscripts(run.transcripts);
  const mcp = loadMcpEvents(runDir);
  const screens = loadScreens(runDir);
  return { runDir, sessions, hooks, workdir, transcripts, ...(mcp.length > 0 ? { mcp } : {}), ...(screens.length > 0 ? { screens } : {}), ...(observedUntil === undefined ? {} : { observedUntil }), ...loadRequestLog(run.mockLog, runDir) };
}

// The working directory's record before anything was snapshotted.
export const emptyWorkdir = (): WorkdirRecord => ({ afterSession: {}, atEnd: null });
