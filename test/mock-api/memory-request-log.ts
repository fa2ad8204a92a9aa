// The request log kept in memory, for tests that drive the mock's app without a run directory (app.request()).
import type { LogLine, RequestEntry, ResponseEndEntry } from "../../mock-api/log-entry.ts";
import { bodyFileName, RequestLogBase } from "../../mock-api/request-log.ts";

export class MemoryRequestLog extends RequestLogBase {
  readonly lines: LogLine[] = [];
  private readonly bodies = new Map<string, Buffer>();

  constructor() {
    super(0);
  }

  get requests(): RequestEntry[] {
    return this.lines.filter((line): line is RequestEntry => line.kind === "request");
  }

  responseEnd(seq: number): ResponseEndEntry | undefined {
    return this.lines.find((line): line is ResponseEndEntry => line.kind === "response-end" && line.seq === seq);
  }

  body(seq: number): Buffer {
    const body = this.bodies.get(bodyFileName(seq));
    if (!body) throw new Error(`no request ${seq} in the memory log`);
    return body;
  }

  protected storeBody(bodyFile: string, body: Uint8Array): void {
    this.bodies.set(bodyFile, Buffer.from(body));
  }

  protected storeLine(line: LogLine): void {
    this.lines.push(line);
  }
}
