// Where the mock records what it received: a directory in the log-entry.ts format (tests keep one in memory: test/mock-api/memory-request-log.ts).
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.ts";
import { clockNow } from "../core/time.ts";
import {
  logLineSchema,
  REQUEST_BODY_DIR,
  requestIndexOf,
  type LogLine,
  type RequestEntry,
  type ResponseEndEntry,
} from "./log-entry.ts";
import { paddedSeq } from "./log-entry.ts";
import { sha256Hex } from "../core/hash.ts";

// A request entry before the sink stored its body. Without conformance findings, the entry records none.
export type ReceivedRequest = Omit<RequestEntry, "kind" | "bodyFile" | "bodyBytes" | "bodySha256" | "conformance"> &
  Partial<Pick<RequestEntry, "conformance">>;

export type LogListener = (line: LogLine) => void;

export interface RequestLogSink {
  // Arrival order: called once per request as it arrives.
  nextSeq(): number;
  // Stores the body and the entry synchronously, so an entry exists before its reply is sent.
  recordRequest(request: ReceivedRequest, body: Uint8Array): RequestEntry;
  recordResponseEnd(seq: number, outcome: ResponseEndEntry["outcome"]): void;
  // Calls the listener with every line from now on; returns the unsubscribe function.
  onEntry(listener: LogListener): () => void;
}

export function bodyFileName(seq: number): string {
  return `${REQUEST_BODY_DIR}/${paddedSeq(seq)}.body`;
}

export abstract class RequestLogBase implements RequestLogSink {
  private readonly listeners = new Set<LogListener>();
  // Requests whose response has not ended yet, and who waits for there to be none.
  private readonly unfinished = new Set<number>();
  private settledWaiters: Array<() => void> = [];

  constructor(private lastSeq: number) {}

  protected abstract storeBody(bodyFile: string, body: Uint8Array): void;
  protected abstract storeLine(line: LogLine): void;

  nextSeq(): number {
    this.lastSeq += 1;
    return this.lastSeq;
  }

  recordRequest(request: ReceivedRequest, body: Uint8Array): RequestEntry {
    const entry: RequestEntry = {
      kind: "request",
      ...request,
      conformance: request.conformance ?? [],
      bodyFile: bodyFileName(request.seq),
      bodyBytes: body.byteLength,
      bodySha256: sha256Hex(body),
    };
    this.storeBody(entry.bodyFile, body);
    // Pending only once its line is written: a request whose log write failed (a full disk) gets no response-end,
    // and the log's settling must not wait for one.
    this.emit(entry);
    this.unfinished.add(entry.seq);
    return entry;
  }

  recordResponseEnd(seq: number, outcome: ResponseEndEntry["outcome"]): void {
    this.emit({ kind: "response-end", seq, endedAt: clockNow(), outcome });
    this.unfinished.delete(seq);
    if (this.unfinished.size > 0) return;
    for (const resolve of this.settledWaiters) resolve();
    this.settledWaiters = [];
  }

  // Resolves once every recorded request has its response-end line.
  settled(): Promise<void> {
    if (this.unfinished.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  onEntry(listener: LogListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(line: LogLine): void {
    this.storeLine(line);
    for (const listener of this.listeners) {
      try {
        listener(line);
      } catch (error) {
        // A listener's bug is its owner's to see; it must not change what the mock answers.
        process.nextTick(() => {
          throw error;
        });
      }
    }
  }
}

export class FileRequestLog extends RequestLogBase {
  private readonly indexFile: string;

  // Continues after the highest seq already in `dir`, so a restarted mock never overwrites a body.
  constructor(readonly dir: string) {
    const indexFile = requestIndexOf(dir);
    fs.mkdirSync(path.join(dir, REQUEST_BODY_DIR), { recursive: true });
    super(FileRequestLog.highestSeq(indexFile));
    this.indexFile = indexFile;
  }

  // A last line without its newline is a write cut short (a killed mock, a full disk): it is dropped, as readers already
  // ignore it, so the next line starts on a line of its own. A whole line that is not a log line is the user's to fix.
  private static highestSeq(indexFile: string): number {
    if (!fs.existsSync(indexFile)) return 0;
    const text = fs.readFileSync(indexFile, "utf8");
    const whole = text.endsWith("\n") || text === "" ? text : text.slice(0, text.lastIndexOf("\n") + 1);
    if (whole.length !== text.length) fs.truncateSync(indexFile, Buffer.byteLength(whole));
    return whole
      .split("\n")
      .map((line, i) => [line, i + 1] as const)
      .filter(([line]) => line.trim() !== "")
      .reduce((highest, [line, number]) => {
        let entry;
        try {
          entry = logLineSchema.parse(JSON.parse(line));
        } catch (error) {
          throw new UserError(`${indexFile}:${number} is not a request-log line (${(error as Error).message.split("\n")[0]}); pass another --log-dir, or remove that line`, "BAD_LOG_DIR");
        }
        return Math.max(highest, entry.seq);
      }, 0);
  }

  protected storeBody(bodyFile: string, body: Uint8Array): void {
    fs.writeFileSync(path.join(this.dir, bodyFile), body);
  }

  protected storeLine(line: LogLine): void {
    fs.appendFileSync(this.indexFile, `${JSON.stringify(line)}\n`);
  }
}
