// A recorded API session (`ccrepro record`): the versioned, zod-validated JSON format, its secret redaction, and the
// fail-closed scan that runs after every write.
import fs from "node:fs";
import { z } from "zod";
import { UserError } from "../core/errors.ts";

export const RECORDING_FORMAT = "ccrepro-recording";
export const RECORDING_VERSION = 1;
// The file `ccrepro record` writes into its --out folder, and `ccrepro import` reads from a folder it is given.
export const RECORDING_FILE = "recording.json";

// A body as received: UTF-8 text when the bytes round-trip through it (they diff well), else base64.
const bodySchema = z.union([z.strictObject({ text: z.string() }), z.strictObject({ base64: z.string() })]);
export type RecordedBody = z.infer<typeof bodySchema>;

// One SSE event as the upstream framed it: its `event:` name (null when absent), its `data:` text, and when its last
// byte arrived, in ms from the request's arrival at the proxy.
const sseEventSchema = z.strictObject({ atMs: z.number().min(0), event: z.string().nullable(), data: z.string() });
export type RecordedSseEvent = z.infer<typeof sseEventSchema>;

// What a request was, for a reader of the recording: the conversation itself, or one of the side calls.
export const EXCHANGE_LABELS = ["messages", "title", "quota", "count-tokens", "probe", "other"] as const;

const exchangeSchema = z.strictObject({
  seq: z.number().int().min(1),
  label: z.enum(EXCHANGE_LABELS),
  // When the request arrived, in ms from the start of the recording.
  startMs: z.number().min(0),
  // The local process that sent it (index into `processes`), null when /proc could not tell.
  process: z.number().int().min(0).nullable(),
  request: z.strictObject({
    method: z.string(),
    path: z.string(),
    query: z.string(),
    headers: z.record(z.string(), z.string()),
    body: bodySchema,
  }),
  // null: the upstream was never reached (see `error`).
  response: z
    .strictObject({
      status: z.number().int(),
      headers: z.record(z.string(), z.string()),
      firstByteMs: z.number().min(0).nullable(),
      endMs: z.number().min(0),
      outcome: z.enum(["complete", "aborted", "error"]),
      // A text/event-stream response as its events; any other as its body.
      sse: z.array(sseEventSchema).nullable(),
      body: bodySchema.nullable(),
    })
    .nullable(),
  error: z.string().nullable(),
});
export type RecordedExchange = z.infer<typeof exchangeSchema>;

const processSchema = z.strictObject({
  pid: z.number().int(),
  argv: z.array(z.string()),
  firstSeq: z.number().int().min(1),
  // The variables of claude's own it was started with (claudeVariables), a secret's value as "[redacted]"; absent in
  // recordings made before ccrepro read them.
  env: z.record(z.string(), z.string()).optional(),
  // The kind of each `sk-ant-` credential it was started with, by variable: the three letters after `sk-ant-` that
  // claude reads to tell a Console API key ("api") from an OAuth token ("oat"), and that change which models its side
  // requests ask for. A format marker, not key material; absent in recordings made before ccrepro read it.
  keyKinds: z.record(z.string(), z.string().regex(/^[a-z0-9]{3}$/, "a key kind is the three letters after sk-ant-, such as api")).optional(),
});
export type RecordedProcess = z.infer<typeof processSchema>;

export const recordingSchema = z.strictObject({
  format: z.literal(RECORDING_FORMAT),
  version: z.literal(RECORDING_VERSION),
  // An ISO 8601 date-time, as the recorder writes it: a recording is data from someone else (issue 41).
  recordedAt: z.iso.datetime({ offset: true, error: "recordedAt must be an ISO 8601 date-time such as 2026-12-04T21:14:55.000Z, as ccrepro record writes it: fix the field, or record the session again" }),
  upstream: z.string(),
  // The command `ccrepro record` ran, null for `record --serve` and harness recordings.
  command: z.array(z.string()).nullable(),
  processes: z.array(processSchema),
  exchanges: z.array(exchangeSchema),
});
export type Recording = z.infer<typeof recordingSchema>;

export class RecordingError extends UserError {}

const encoder = new TextEncoder();
const utf8 = new TextDecoder("utf-8", { fatal: true });

export function encodeBody(bytes: Uint8Array): RecordedBody {
  try {
    const text = utf8.decode(bytes);
    if (Buffer.from(encoder.encode(text)).equals(Buffer.from(bytes))) return { text };
  } catch {
    // not UTF-8: kept as base64
  }
  return { base64: Buffer.from(bytes).toString("base64") };
}

export const bodyBytes = (body: RecordedBody): Buffer => ("text" in body ? Buffer.from(body.text, "utf8") : Buffer.from(body.base64, "base64"));

// Headers whose whole value is a credential; never written, whatever they hold.
export const SECRET_HEADERS = new Set(["x-api-key", "authorization", "proxy-authorization", "cookie", "set-cookie", "anthropic-admin-api-key"]);
// An environment variable whose name says it holds a credential.
const SECRET_VAR = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION)/i;
// The variables that change what claude sends (its own settings, switches and shell), by name: what a replay can set
// again. Everything else in a user's environment (paths, names, other tools' keys) is never recorded.
const CLAUDE_VARIABLE = /^(CLAUDE_|ANTHROPIC_|DISABLE_|ENABLE_|MCP_|BASH_|MAX_THINKING_TOKENS$|MAX_MCP_OUTPUT_TOKENS$|IS_SANDBOX$|USE_BUILTIN_RIPGREP$|SHELL$)/;
// Where the process sent its requests: the recorder's own address, never the user's setting.
const NOT_RECORDED_VARIABLES = new Set(["ANTHROPIC_BASE_URL"]);
export const REDACTED_VALUE = "[redacted]";

// A recorded process's claude variables, a secret-named one's value replaced whole (a number is a limit such as
// CLAUDE_CODE_MAX_OUTPUT_TOKENS, not a credential), the rest through the redactor.
export function claudeVariables(environ: Record<string, string>, redactor: Redactor): Record<string, string> {
  const kept = Object.entries(environ).filter(([name]) => CLAUDE_VARIABLE.test(name) && !NOT_RECORDED_VARIABLES.has(name));
  return Object.fromEntries(kept.sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, value]) => [name, SECRET_VAR.test(name) && !/^\d+$/.test(value) ? REDACTED_VALUE : redactor.text(value)]));
}

// The kinds of the `sk-ant-` credentials among claude's variables (see processSchema's keyKinds).
export function keyKinds(environ: Record<string, string>): Record<string, string> {
  const kinds = Object.entries(environ).flatMap(([name, value]) => {
    const kind = /^sk-ant-([a-z0-9]{3})/.exec(value)?.[1];
    return CLAUDE_VARIABLE.test(name) && SECRET_VAR.test(name) && kind ? [[name, kind] as const] : [];
  });
  return Object.fromEntries(kinds.sort(([a], [b]) => (a < b ? -1 : 1)));
}

// Token-bearing fields of a JSON body (OAuth exchanges, key fields).
const SECRET_FIELDS = /"(access_token|refresh_token|id_token|api_key|apiKey|client_secret|password|oauth_token)"(\s*:\s*)"(?:[^"\\]|\\.)*"/g;
// Shorter values are too likely to be ordinary words to be replaced everywhere.
const MIN_SECRET_CHARS = 8;

// Replaces every known secret value in text. Learns the values it meets in secret headers, so a key the caller's
// environment did not name (a key file, a helper) is still removed from bodies and events.
export class Redactor {
  private readonly secrets = new Map<string, string>();

  constructor(env: NodeJS.ProcessEnv = {}) {
    for (const [name, value] of Object.entries(env)) if (SECRET_VAR.test(name) && value) this.learn(value, name);
  }

  learn(value: string, name: string): void {
    for (const part of [value, value.replace(/^(Bearer|Basic)\s+/i, "")]) {
      if (part.length >= MIN_SECRET_CHARS && !this.secrets.has(part)) this.secrets.set(part, `[redacted:${name}]`);
    }
  }

  text(text: string): string {
    // Longest first, so a value that contains another is replaced whole.
    let out = text;
    for (const [secret, placeholder] of [...this.secrets].sort((a, b) => b[0].length - a[0].length)) out = out.split(secret).join(placeholder);
    return out.replace(SECRET_FIELDS, '"$1"$2"[redacted]"');
  }

  headers(headers: Headers | Record<string, string>): Record<string, string> {
    const entries = headers instanceof Headers ? [...headers] : Object.entries(headers);
    for (const [name, value] of entries) if (SECRET_HEADERS.has(name.toLowerCase())) this.learn(value, name.toLowerCase());
    return Object.fromEntries(entries.map(([name, value]) => [name, SECRET_HEADERS.has(name.toLowerCase()) ? "[redacted]" : this.text(value)]));
  }

  body(body: RecordedBody): RecordedBody {
    return "text" in body ? { text: this.text(body.text) } : body;
  }

  // Known values, for the scan after a write.
  values(): string[] {
    return [...this.secrets.keys()];
  }
}

// Key-shaped strings: Anthropic keys and OAuth tokens, other providers' keys, bearer tokens, JWTs.
const KEY_SHAPES: Array<[string, RegExp]> = [
  ["an Anthropic key or token", /sk-ant-[A-Za-z0-9_-]{8,}/],
  ["an API key", /\bsk-[A-Za-z0-9]{32,}/],
  ["a bearer token", /\bBearer\s+[A-Za-z0-9._~+/-]{16,}/],
  ["a JWT", /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+/],
];

export interface SecretHit {
  field: string;
  what: string;
}

// Every string in a JSON value that holds a key-shaped string or a known secret, by its path ("exchanges[2].request.body.text").
export function findSecrets(value: unknown, known: readonly string[] = [], at = "$"): SecretHit[] {
  if (typeof value === "string") {
    const shape = KEY_SHAPES.find(([, pattern]) => pattern.test(value));
    if (shape) return [{ field: at, what: shape[0] }];
    return known.some((secret) => value.includes(secret)) ? [{ field: at, what: "a secret from the environment" }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => findSecrets(item, known, `${at}[${i}]`));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([key, item]) => findSecrets(item, known, `${at}.${key}`));
  return [];
}

// Fails closed: a file that still holds a secret is deleted, and the error names it and the field.
export function scanWrittenFile(file: string, known: readonly string[] = []): void {
  const text = fs.readFileSync(file, "utf8");
  let value: unknown = text;
  try {
    value = JSON.parse(text);
  } catch {
    // not JSON (a scenario file): scanned as one string
  }
  const hits = findSecrets(value, known);
  if (hits.length === 0) return;
  fs.rmSync(file, { force: true });
  const first = hits[0]!;
  throw new RecordingError(
    `${file}: ${first.field} holds ${first.what}${hits.length > 1 ? ` (and ${hits.length - 1} more)` : ""}; the file was deleted so no secret stays on disk. ` +
      "Report this as a ccrepro bug: the redaction missed it",
    "RECORDING_HOLDS_SECRET",
  );
}

// Writes the recording (redacted again at the write, so a rewrite of an edited recording is redacted too), then scans it.
export function writeRecording(file: string, recording: Recording, redactor: Redactor = new Redactor(process.env)): void {
  const redacted = JSON.parse(redactor.text(JSON.stringify(recording))) as Recording;
  fs.writeFileSync(file, `${JSON.stringify(recordingSchema.parse(redacted), null, 2)}\n`);
  scanWrittenFile(file, redactor.values());
}

// Reads and validates a recording; every way it can be wrong names the file, the place and what to do.
export function readRecording(file: string): Recording {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new RecordingError(`${file}: cannot read the recording (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): check the path`, "RECORDING_NOT_FOUND");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RecordingError(`${file}: the recording is not JSON (${(error as Error).message}): it is corrupted; record it again`, "RECORDING_CORRUPT");
  }
  const head = z.looseObject({ format: z.string(), version: z.unknown() }).safeParse(value);
  if (!head.success || head.data.format !== RECORDING_FORMAT) {
    throw new RecordingError(`${file}: not a ccrepro recording (no "format": "${RECORDING_FORMAT}"): pass a file \`ccrepro record\` wrote, or a transcript .jsonl`, "RECORDING_CORRUPT");
  }
  if (head.data.version !== RECORDING_VERSION) {
    throw new RecordingError(
      `${file}: recording format version ${JSON.stringify(head.data.version)} is not one this ccrepro reads (it reads ${RECORDING_VERSION}): use the ccrepro that recorded it, or record again`,
      "RECORDING_VERSION",
    );
  }
  const parsed = recordingSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RecordingError(`${file}: the recording is corrupted at ${issue.path.join(".") || "(top level)"}: ${issue.message}; record it again`, "RECORDING_CORRUPT");
  }
  return parsed.data;
}

// What a request was: the conversation, or a side call the CLI makes on its own.
export function labelExchange(path: string, body: RecordedBody): RecordedExchange["label"] {
  if (path.endsWith("/count_tokens")) return "count-tokens";
  if (!path.endsWith("/v1/messages")) return path === "/" || path === "/api/hello" ? "probe" : "other";
  if (!("text" in body)) return "other";
  try {
    const request = JSON.parse(body.text) as { max_tokens?: number; tools?: unknown[]; system?: unknown; messages?: unknown[] };
    if (request.max_tokens === 1) return "quota";
    const system = JSON.stringify(request.system ?? "");
    if (!request.tools?.length && /\btitle\b/i.test(system)) return "title";
  } catch {
    return "other";
  }
  return "messages";
}
