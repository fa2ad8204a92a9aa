// A loopback proxy that refuses every connection the binary tries to make through it, and records each attempt.
import fs from "node:fs";
import net from "node:net";
import { clockNow } from "../core/time.ts";

export interface OutboundAttempt {
  t: number;
  // What the client asked for: "CONNECT host:443" or "GET http://host/path".
  request: string;
}

export interface OutboundTrap {
  url: string;
  attempts: OutboundAttempt[];
  close(): Promise<void>;
}

const REFUSAL = "HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\ncontent-length: 38\r\n\r\nccrepro: outbound network is disabled\n";

export async function startOutboundTrap(logFile: string): Promise<OutboundTrap> {
  const attempts: OutboundAttempt[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let head = "";
    // One connection is one attempt, however its bytes arrive (a header-less stream would otherwise count per 8 KiB).
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      const attempt = { t: clockNow(), request: head.split("\r\n")[0]?.slice(0, 500) ?? "" };
      attempts.push(attempt);
      fs.appendFileSync(logFile, `${JSON.stringify(attempt)}\n`);
      socket.end(REFUSAL);
    };
    socket.on("data", (chunk) => {
      if (recorded) return;
      head += chunk.toString("latin1");
      if (head.includes("\r\n") || head.length > 8192) record();
    });
    // A client that connects and says nothing still counts as an attempt.
    socket.setTimeout(2000, record);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  fs.writeFileSync(logFile, "");
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    attempts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
