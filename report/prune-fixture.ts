// Copies a run directory into a small test fixture: the logs the checker reads and only the chosen request bodies,
// every machine path replaced (report/anonymise.ts).
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.ts";
import { runLayout, sessionLayout, terminalFiles } from "../harness/run-layout.ts";
import { rewriteRunRecordText } from "../harness/run-record.ts";
import { logLineSchema } from "../mock-api/log-entry.ts";
import { sha256Hex } from "../core/hash.ts";
import { anonymiseText, discover, leftovers, readJson, realpath, record, replacementsFor, thisMachine, walk, type Pruned } from "./anonymise.ts";

export interface CopyOptions {
  bodies: Set<number> | "all";
  stream: string | null;
  bodyKeys: string[] | null;
  trimText: number | null;
  dropHeaders: boolean;
  mockOnly: boolean;
  foreground: string | null;
  // The transcripts claude wrote (transcripts/), for checks that read them; their folder names are anonymised too.
  transcripts?: boolean;
  // With transcripts: a row that is not a message (an attachment such as a prompt snapshot, a request's shape) keeps
  // only what places it (type, uuid, parent, time, its attachment's kind), so line numbers and uuids stay as written.
  bareSideRows?: boolean;
}

const MESSAGE_ROWS = new Set(["user", "assistant", "system"]);
const PLACING_KEYS = ["type", "subtype", "uuid", "parentUuid", "isSidechain", "sessionId", "timestamp"];

function bareIfSide(row: unknown): unknown {
  if (!row || typeof row !== "object" || Array.isArray(row)) return row;
  const fields = row as Record<string, unknown>;
  if (typeof fields["type"] === "string" && MESSAGE_ROWS.has(fields["type"])) return row;
  const bare = Object.fromEntries(PLACING_KEYS.filter((key) => key in fields).map((key) => [key, fields[key]]));
  const attachment = fields["attachment"] as { type?: unknown } | undefined;
  return attachment && typeof attachment === "object" ? { ...bare, attachment: { type: attachment.type } } : bare;
}

function trim(value: unknown, chars: number): unknown {
  if (typeof value === "string") return value.length > chars ? `${value.slice(0, chars)}…[pruned]` : value;
  if (Array.isArray(value)) return value.map((v) => trim(v, chars));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trim(v, chars)]));
  return value;
}

export function copyRun(runDir: string, outDir: string, options: CopyOptions): Pruned {
  const from = runLayout(path.resolve(runDir));
  const to = runLayout(path.resolve(outDir));
  const paths = thisMachine();
  // Only what is copied is searched: iso/ and transcripts/ can be large.
  const sources = [from.runJson, from.outboundLog, from.hooksLog, from.workdirAtEnd, from.mockIndex];
  if (options.transcripts && fs.existsSync(from.transcripts)) sources.push(...walk(from.transcripts));
  if (fs.existsSync(from.hooksDir)) sources.push(...walk(from.hooksDir));
  if (fs.existsSync(from.mcpLogDir)) sources.push(...walk(from.mcpLogDir));
  for (const label of fs.existsSync(from.sessionsDir) ? fs.readdirSync(from.sessionsDir) : []) {
    const session = sessionLayout(from, label);
    sources.push(session.sessionJson, session.stdout, session.stdin, session.workdir, terminalFiles(from, label).output);
  }
  const discovered = discover(from.root, sources.filter((f) => fs.existsSync(f)), []);
  paths.merge(discovered.paths, false);
  for (const root of new Set([from.root, realpath(from.root)])) paths.add("run", root);
  const replacements = replacementsFor(paths);
  const anonymise = (bytes: Buffer) => Buffer.from(anonymiseText(bytes.toString("utf8"), replacements), "utf8");
  const written: string[] = [];
  const write = (target: string, bytes: Buffer | string) => {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, bytes);
    written.push(target);
  };
  // `renamed`: names below `source` carry machine paths too (claude's project folders are the dashed working directory).
  const copy = (source: string, target: string, renamed = false) => {
    if (!fs.existsSync(source)) return;
    if (fs.statSync(source).isDirectory()) {
      for (const name of fs.readdirSync(source)) copy(path.join(source, name), path.join(target, renamed ? anonymiseText(name, replacements) : name), renamed);
      return;
    }
    const bytes = anonymise(fs.readFileSync(source));
    // A transcript's rows are JSON lines: with --trim-text, their long texts are cut like a request body's.
    if (renamed && (options.trimText !== null || options.bareSideRows) && source.endsWith(".jsonl")) {
      const pruneRow = (row: unknown) => {
        const kept = options.bareSideRows ? bareIfSide(row) : row;
        return options.trimText === null ? kept : trim(kept, options.trimText);
      };
      // A line that is not JSON (a cut or corrupt row, what resume-history-lost is about) is kept as written.
      const rows = bytes.toString("utf8").split("\n").map((line) => {
        if (!line.trim()) return line;
        try {
          return JSON.stringify(pruneRow(JSON.parse(line)));
        } catch {
          return line;
        }
      });
      write(target, rows.join("\n"));
      return;
    }
    write(target, bytes);
  };

  if (!options.mockOnly) {
    // run.json through its owner, which keeps it a run record.
    if (fs.existsSync(from.runJson)) {
      fs.mkdirSync(to.root, { recursive: true });
      rewriteRunRecordText(from.runJson, (text) => anonymiseText(text, replacements), to.runJson);
      written.push(to.runJson);
    }
    copy(from.hooksLog, to.hooksLog);
    copy(from.hooksDir, to.hooksDir);
    copy(from.outboundLog, to.outboundLog);
    // What the MCP fixture servers logged (mcpEventsOf); not the --mcp-config file, which names this machine's node.
    copy(from.mcpLogDir, to.mcpLogDir);
    // The working directory's snapshots: what fileOf reads (a sentinel file a hook should have kept from being written).
    copy(from.workdirAtEnd, to.workdirAtEnd);
    if (options.transcripts) copy(from.transcripts, to.transcripts, true);
    for (const label of fs.existsSync(from.sessionsDir) ? fs.readdirSync(from.sessionsDir) : []) {
      const source = sessionLayout(from, label);
      const target = sessionLayout(to, label);
      for (const key of ["stdout", "stdin", "sessionJson", "workdir"] as const) copy(source[key], target[key]);
      // A terminal session's output chunks (harness/terminal-session.ts), for replaying its screen or its .cast.
      copy(terminalFiles(from, label).output, terminalFiles(to, label).output);
    }
  }
  const index: string[] = [];
  let kept = 0;
  let requests = 0;
  const indexFile = from.mockIndex;
  for (const line of fs.existsSync(indexFile) ? fs.readFileSync(indexFile, "utf8").split("\n").filter(Boolean) : []) {
    const entry = logLineSchema.parse(JSON.parse(anonymise(Buffer.from(line)).toString("utf8")));
    if (entry.kind === "request") {
      requests += 1;
      if (options.dropHeaders) entry.headers = {};
      const bodyPath = path.join(from.mockLog, entry.bodyFile);
      // "all" is every body the run holds: a run pruned before keeps only some, and a body asked for by number must be there.
      const wanted = (options.bodies === "all" ? fs.existsSync(bodyPath) : options.bodies.has(entry.seq)) && (options.stream === null || entry.stream === options.stream);
      if (wanted) {
        let body = anonymise(fs.readFileSync(bodyPath));
        if (options.bodyKeys || options.trimText !== null) {
          let value = JSON.parse(body.toString("utf8")) as unknown;
          if (options.bodyKeys) value = Object.fromEntries(options.bodyKeys.filter((k) => k in record(value)).map((k) => [k, record(value)[k]]));
          if (options.trimText !== null) value = trim(value, options.trimText);
          body = Buffer.from(JSON.stringify(value, null, 1), "utf8");
        }
        write(path.join(to.mockLog, entry.bodyFile), body);
        entry.bodyBytes = body.length;
        entry.bodySha256 = sha256Hex(body);
        kept += 1;
      }
    }
    index.push(JSON.stringify(entry));
  }
  write(to.mockIndex, index.length ? `${index.join("\n")}\n` : "");
  if (options.foreground) {
    const session = readJson(sessionLayout(from, options.foreground).sessionJson);
    if (session === null) throw new UserError(`no session ${options.foreground} in ${runDir}`, "BAD_ARGUMENT", { hint: "name one of the run's sessions (its sessions/ folder lists them)" });
    write(path.join(to.root, "foreground.json"), `${JSON.stringify({ pid: record(session)["pid"] ?? null })}\n`);
  }
  return { lines: [`pruned ${runDir} → ${outDir} (${kept} of ${requests} request bodies)`], leftovers: written.flatMap(leftovers) };
}

