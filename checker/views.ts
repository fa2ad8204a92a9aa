// Typed views of what a run recorded: a session's result and init lines, the requests of a stream or a session, a
// request's messages and tool results, hook calls by event, and the working directory's files. Pure reads of
// Recordings, validated with zod where the recordings hold claude's own JSON.
import { z } from "zod";
import type { HookAnswerRecord, HookRecord, McpServerEvent, Recordings, ScreenCapture, SessionRecording, WorkdirFile, WorkdirSnapshot } from "../harness/recordings.ts";
import type { RequestEntry } from "../mock-api/log-entry.ts";
import { resultEventSchema } from "../harness/stream-events.ts";

/** The `result` line a headless session prints at the end of each turn: the stream-json edge's schema, with the fields
 * later releases add (`terminal_reason`, `errors`, `duration_ms`). */
export const resultLineSchema = resultEventSchema.extend({
  /** Why the loop ended, on releases that say (e.g. "max_turns"). */
  terminal_reason: z.string().optional(),
  /** Error texts, on releases that list them. */
  errors: z.array(z.unknown()).optional(),
  /** The turn's wall time in ms, as claude measured it. */
  duration_ms: z.number().optional(),
});
/** A session's `result` line, typed; `line` is its index in the session's stdout, `t` when it was printed. */
export type ResultLine = z.infer<typeof resultLineSchema> & { line: number; t: number };

const mcpServerSchema = z.looseObject({ name: z.string(), status: z.string() });

/** The `system/init` line a session prints first: its session id, tools, MCP servers and working directory. */
export const initLineSchema = z.looseObject({
  type: z.literal("system"),
  subtype: z.literal("init"),
  session_id: z.string(),
  tools: z.array(z.string()).default([]),
  mcp_servers: z.array(mcpServerSchema).default([]),
  cwd: z.string().optional(),
  model: z.string().optional(),
  permissionMode: z.string().optional(),
  claude_code_version: z.string().optional(),
});
/** A session's `system/init` line, typed. */
export type InitLine = z.infer<typeof initLineSchema> & { line: number; t: number };

/** The session a handle or a label names. */
export type SessionName = string | { readonly name: string };
const labelOf = (s: SessionName) => (typeof s === "string" ? s : s.name);

/** The recording of session `s`, or undefined when the run never started it. */
export function sessionOf(rec: Recordings, s: SessionName): SessionRecording | undefined {
  return rec.sessions.find((session) => session.label === labelOf(s));
}

function linesOf<T>(rec: Recordings, s: SessionName, schema: z.ZodType<T>): (T & { line: number; t: number })[] {
  return (sessionOf(rec, s)?.stdout ?? []).flatMap((record) => {
    if (!record.event) return [];
    const parsed = schema.safeParse(record.event);
    return parsed.success ? [{ ...parsed.data, line: record.line, t: record.t }] : [];
  });
}

/** Every `result` line session `s` printed, in order. */
export const resultsOf = (rec: Recordings, s: SessionName): ResultLine[] => linesOf(rec, s, resultLineSchema);

/**
 * Everything session `s` printed on stdout, as text: the answer of a `print(…, { output: "text" })` turn, or the
 * stream-json lines of any other session, one per line. Empty for a session that printed nothing.
 *
 * @example stdoutOf(rec, s1).includes("done")
 */
export const stdoutOf = (rec: Recordings, s: SessionName): string => (sessionOf(rec, s)?.stdout ?? []).map((line) => line.raw).join("\n");

/** The last `result` line session `s` printed, or null when it printed none. */
export const resultOf = (rec: Recordings, s: SessionName): ResultLine | null => resultsOf(rec, s).at(-1) ?? null;

/** The `system/init` line of session `s`, or null when it printed none. */
export const initOf = (rec: Recordings, s: SessionName): InitLine | null => linesOf(rec, s, initLineSchema)[0] ?? null;

/** How session `s`'s process ended: its exit code and signal, or null while it runs (or was never started). */
export function exitOf(rec: Recordings, s: SessionName): { exitCode: number | null; signal: string | null } | null {
  const process = sessionOf(rec, s)?.process;
  if (!process || process.endedAt === null) return null;
  return { exitCode: process.exitCode, signal: process.signal };
}

const blockSchema = z.looseObject({ type: z.string() });
const messageSchema = z.looseObject({
  /** "user" or "assistant" (claude puts system text into user messages). */
  role: z.string(),
  /** A string, or content blocks (text, tool_use, tool_result, image, thinking, …) with their `type`. */
  content: z.union([z.string(), z.array(blockSchema)]),
});
const requestBodySchema = z.looseObject({
  model: z.string().optional(),
  messages: z.array(messageSchema).default([]),
  tools: z.array(z.looseObject({ name: z.string().optional() })).default([]),
  stream: z.boolean().optional(),
  metadata: z.looseObject({ user_id: z.string().optional() }).optional(),
});
/** One message of a request, as sent: a role and its content (a string, or blocks). */
export type RequestMessage = z.infer<typeof messageSchema>;
/** A content block of a request's message: `type` and whatever else claude sent with it. */
export type ContentBlock = z.infer<typeof blockSchema>;

/** A `tool_result` block of a request, with the text of its content joined. */
export interface ToolResultBlock {
  /** The index of the message that carries it. */
  message: number;
  /** The id of the tool_use it answers. */
  tool_use_id: string;
  /** Whether claude marked the result an error (`is_error: true`). */
  is_error: boolean;
  /** The text of its content, joined (a string content as it is). */
  text: string;
  /** The block exactly as sent. */
  block: ContentBlock;
}

/** A `tool_use` block of a request's assistant messages. */
export interface ToolUseBlock {
  /** The index of the message that carries it. */
  message: number;
  /** The tool_use id, which a later tool_result names. */
  id: string;
  /** The tool's name ("Bash", "mcp__server__tool", …). */
  name: string;
  /** The tool's input, as sent. */
  input: unknown;
}

/** One Messages request the mock received, with its body parsed and linked to the session that sent it. */
export interface RequestView {
  /** Its number in the run's request log, from 1. */
  seq: number;
  /** The script's stream that claimed it ("side" for title, summary and other side requests). */
  stream: string | null;
  /** When the mock received it (ms, the run's one clock). */
  receivedAt: number;
  /** The model it asked for, or null when its body named none. */
  model: string | null;
  /** Whether it asked for a streamed reply. */
  streaming: boolean | null;
  /** The label of the session whose process sent it, or null when no session matches. */
  session: string | null;
  /** Its `messages`, as sent. */
  messages: RequestMessage[];
  /** The names of the tools it offered. */
  tools: string[];
  /** Every tool_result block of its messages, in order. */
  toolResults: ToolResultBlock[];
  /** Every tool_use block of its assistant messages, in order. */
  toolUses: ToolUseBlock[];
  /** The status the mock answered with, and the fault it played (null for none). */
  reply: { status: number; fault: string | null };
  /** The log entry as the mock wrote it (headers, conformance, client). */
  entry: RequestEntry;
  /** The body's bytes exactly as received. */
  raw(): Buffer;
}

// A message's text: a string content as it is, else its text blocks joined (other blocks give nothing).
export const textOfContent = (content: unknown): string => {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block) => (block && typeof block === "object" && typeof (block as { text?: unknown }).text === "string" ? (block as { text: string }).text : "")).join("");
};

// A session id as claude puts it in a request: the `metadata.user_id` "…_session_<uuid>", or the session header.
function sessionIdOf(entry: RequestEntry, body: z.infer<typeof requestBodySchema>): string | null {
  const header = entry.headers["x-claude-code-session-id"];
  if (header) return header;
  return /session_([0-9a-f-]{36})/.exec(body.metadata?.user_id ?? "")?.[1] ?? null;
}

// The sender of a request: the session whose process holds the connection (pid), else the one whose id it carries,
// else, when no process was seen on the connection at all (releases before 1.0.93 reach the mock through the
// harness's proxy), the one session running when it came that could have sent it: any, for a request with no session
// id (before 1.0.53); one whose id is unknown (an interactive UI prints none), for an id no session reported. A
// connection held by a process that is no session's (a daemon) stays unattributed.
function senderOf(rec: Recordings, entry: RequestEntry, sessionId: string | null): string | null {
  const pid = entry.client.pid;
  const byPid = pid == null ? undefined : rec.sessions.find((s) => s.process?.pid === pid);
  if (byPid) return byPid.label;
  const byId = sessionId === null ? undefined : rec.sessions.find((s) => s.process?.sessionId === sessionId);
  if (byId || pid != null) return byId?.label ?? null;
  const running = rec.sessions.filter(
    (s) => s.process && s.process.startedAt <= entry.receivedAt && (s.process.endedAt === null || entry.receivedAt <= s.process.endedAt) && (sessionId === null || s.process.sessionId === null),
  );
  return running.length === 1 ? running[0]!.label : null;
}

/** Parses request `entry`'s body into a RequestView; a body that is not a Messages request gives empty messages. */
export function viewRequest(rec: Recordings, entry: RequestEntry): RequestView {
  const raw = () => rec.body(entry.seq);
  let json: unknown = null;
  try {
    json = JSON.parse(raw().toString("utf8"));
  } catch {
    // A body that is not JSON is the finding of the conformance rules, not a reason to fail a view.
  }
  const parsed = requestBodySchema.safeParse(json);
  const body = parsed.success ? parsed.data : requestBodySchema.parse({});
  const toolResults: ToolResultBlock[] = [];
  const toolUses: ToolUseBlock[] = [];
  body.messages.forEach((message, index) => {
    if (typeof message.content === "string") return;
    for (const block of message.content) {
      if (block.type === "tool_result") {
        toolResults.push({ message: index, tool_use_id: String(block.tool_use_id ?? ""), is_error: block.is_error === true, text: textOfContent(block.content), block });
      } else if (block.type === "tool_use") {
        toolUses.push({ message: index, id: String(block.id ?? ""), name: String(block.name ?? ""), input: block.input });
      }
    }
  });
  return {
    seq: entry.seq,
    stream: entry.stream,
    receivedAt: entry.receivedAt,
    model: body.model ?? null,
    streaming: entry.streaming,
    session: senderOf(rec, entry, sessionIdOf(entry, body)),
    messages: body.messages,
    tools: body.tools.flatMap((tool) => (tool.name === undefined ? [] : [tool.name])),
    toolResults,
    toolUses,
    reply: { status: entry.reply.status, fault: entry.reply.fault },
    entry,
    raw,
  };
}

/** Which requests to view: those of one script stream, or sent by one session; both when both are given. */
export interface RequestFilter {
  stream?: string;
  session?: SessionName;
}

/** The Messages requests (POST /v1/messages) of the run, in the order received, filtered by stream and session. */
export function requestsOf(rec: Recordings, filter: RequestFilter = {}): RequestView[] {
  return rec.requests
    .filter((entry) => entry.path.startsWith("/v1/messages") && !entry.path.includes("count_tokens") && (filter.stream === undefined || entry.stream === filter.stream))
    .map((entry) => viewRequest(rec, entry))
    .filter((request) => filter.session === undefined || request.session === labelOf(filter.session));
}

/** One hook call: its event, payload (typed loosely: every event has `session_id` and `hook_event_name`), and answer. */
export interface HookCall {
  t: number;
  event: string;
  payload: HookPayload;
  /** The payload's bytes as claude sent them. */
  raw: string;
  /** What the scenario's answering hook replied, or null for a hook that only recorded. */
  answer: HookAnswerRecord | null;
}

/** What claude sends a hook, with the fields of the common events; others stay as sent. */
export const hookPayloadSchema = z.looseObject({
  session_id: z.string().optional(),
  hook_event_name: z.string().optional(),
  transcript_path: z.string().optional(),
  cwd: z.string().optional(),
  /** PreToolUse / PostToolUse / PermissionRequest. */
  tool_name: z.string().optional(),
  tool_input: z.unknown().optional(),
  tool_response: z.unknown().optional(),
  /** UserPromptSubmit. */
  prompt: z.string().optional(),
  /** Stop / SubagentStop: true when claude is already continuing because a Stop hook blocked. */
  stop_hook_active: z.boolean().optional(),
  /** SubagentStart / SubagentStop. */
  agent_id: z.string().optional(),
  agent_type: z.string().optional(),
});
/** A hook's payload, typed by the fields of the common events. */
export type HookPayload = z.infer<typeof hookPayloadSchema>;

const viewHook = (hook: HookRecord): HookCall => {
  const parsed = hookPayloadSchema.safeParse(hook.payload);
  return { t: hook.t, event: hook.event, payload: parsed.success ? parsed.data : {}, raw: hook.raw, answer: hook.answer };
};

/** The hook calls of the run, in order: all of them, or those of one event. */
export function hookCallsOf(rec: Recordings, event?: string): HookCall[] {
  return rec.hooks.filter((hook) => event === undefined || hook.event === event).map(viewHook);
}

/**
 * The screens of interactive session `s` as text, in the order they were captured: one per terminal step (`what`:
 * "start", "typed", "pressed", a screen wait's label, …) and its last screen once it exited (`what` "end"). Empty for a
 * session that is no terminal, or a run recorded before screens were indexed.
 *
 * @example screensOf(rec, ui).at(-1)?.text.includes("Resume this session")
 */
export function screensOf(rec: Recordings, s: SessionName): ScreenCapture[] {
  return (rec.screens ?? []).filter((screen) => screen.session === labelOf(s));
}

/**
 * What the run's MCP fixture servers logged, in time order: all of them, or one server's. Each event has `t`, `event`
 * (started, ready, request, tool-call, stdin-closed, signal), `pid` (one server process per session), `server`, and
 * `method` on a request (initialize, tools/list, tools/call, …); empty for a run without MCP servers.
 */
export function mcpEventsOf(rec: Recordings, server?: string): McpServerEvent[] {
  return (rec.mcp ?? []).filter((e) => server === undefined || e.server === server);
}

/** Which snapshot of the working directory to read: after session `after` ended, or (default) at the run's end. */
export interface FilesAt {
  after?: SessionName;
}

function snapshotAt(rec: Recordings, at: FilesAt): WorkdirSnapshot | null {
  return at.after === undefined ? rec.workdir.atEnd : (rec.workdir.afterSession[labelOf(at.after)] ?? null);
}

/** The files of the working directory at a snapshot; null when that snapshot was not taken. */
export function filesOf(rec: Recordings, at: FilesAt = {}): WorkdirFile[] | null {
  return snapshotAt(rec, at)?.files ?? null;
}

/**
 * File `relative` of the working directory at a snapshot (path relative to it, with "/"): the file, or null when the
 * snapshot holds no such file. Throws when the snapshot itself is missing, since "no file" would then be a guess.
 */
export function fileOf(rec: Recordings, relative: string, at: FilesAt = {}): WorkdirFile | null {
  const files = filesOf(rec, at);
  if (files === null) {
    throw new Error(
      `the run has no working-directory snapshot ${at.after === undefined ? "at its end" : `after session ${labelOf(at.after)}`}: ` +
        "run directories recorded before snapshots were kept have none; record the run again, or check `filesOf(rec) === null` first",
    );
  }
  return files.find((file) => file.path === relative) ?? null;
}

/**
 * Request `seq` was answered, nothing else is in flight, and session `session` (the first one when absent) printed a
 * result after the answer: the session has settled on what that request started.
 */
export function answeredAndSettled(rec: Recordings, seq: number, options: { session?: SessionName } = {}): boolean {
  const answered = rec.responseEnds.get(seq);
  const session = options.session === undefined ? rec.sessions[0] : sessionOf(rec, options.session);
  if (!answered || !session) return false;
  if (rec.requests.some((r) => !rec.responseEnds.has(r.seq))) return false;
  return session.stdout.some((line) => line.event?.type === "result" && line.t >= answered.endedAt);
}
