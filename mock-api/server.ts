// Serves the mock app on 127.0.0.1, logging into a directory; close() ends every connection, stalled ones too.
import type { Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { createAdaptorServer } from "@hono/node-server";
import { createMockApp } from "./app.ts";
import { findClientProcess, type ClientProcess } from "./client-process.ts";
import { MockApiError } from "./errors.ts";
import { FileRequestLog } from "./request-log.ts";
import type { MockScript } from "./script.ts";

const HOST = "127.0.0.1";
// Closed sockets end their responses within a tick or two; this only bounds a response that never notices.
const SETTLE_TIMEOUT_MS = 2000;

export interface MockServerOptions {
  script: MockScript;
  // 0 (the default) picks a free port.
  port?: number;
  logDir: string;
  // Record each request's sending process (pid, command line). Costs a /proc scan per connection, so it is opt-in.
  identifyClients?: boolean;
  // A request the mock could not record (a full disk): see MockAppOptions.onLogFault.
  onLogFault?: (error: Error) => void;
}

export interface MockServer {
  url: string;
  port: number;
  logDir: string;
  // The live log: subscribe with log.onEntry() to see requests as they arrive.
  log: FileRequestLog;
  close(): Promise<void>;
}

export function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      if (error.code !== "EADDRINUSE") return reject(error);
      reject(
        new MockApiError("PORT_IN_USE", `port ${port} on ${HOST} is already in use: pick another port or omit --port`, {
          cause: error,
        }),
      );
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, HOST);
  });
}

async function closeServer(server: Server, log: FileRequestLog): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
  // Responses cut by the close write their response-end lines just after their sockets go.
  await Promise.race([log.settled(), sleep(SETTLE_TIMEOUT_MS, undefined, { ref: false })]);
}

export async function startMockServer({ script, port = 0, logDir, identifyClients = false, onLogFault }: MockServerOptions): Promise<MockServer> {
  const log = new FileRequestLog(logDir);
  // Looked up as each connection opens, while its process surely still holds it (a client may exit mid-request).
  const clients = new WeakMap<Socket, ClientProcess | null>();
  const clientProcess = (socket: Socket) => clients.get(socket) ?? null;
  const app = createMockApp(script, log, { ...(identifyClients ? { clientProcess } : {}), ...(onLogFault ? { onLogFault } : {}) });
  // Only plain HTTP/1.1 is served, so the adaptor's server is a node:http Server.
  // overrideGlobalObjects: false keeps the host process's own Request and Response untouched (the harness shares it).
  const server = createAdaptorServer({ fetch: app.fetch, hostname: HOST, overrideGlobalObjects: false }) as Server;
  if (identifyClients) {
    server.on("connection", (socket: Socket) => {
      clients.set(socket, socket.remotePort && socket.localPort ? findClientProcess(socket.remotePort, socket.localPort) : null);
    });
  }
  await listen(server, port);
  const actualPort = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${HOST}:${actualPort}`,
    port: actualPort,
    logDir,
    log,
    close() {
      closing ??= closeServer(server, log);
      return closing;
    },
  };
}
