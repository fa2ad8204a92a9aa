// A loopback proxy that refuses every connection the binary tries to make through it, and records each attempt;
// the exceptions are a CONNECT to the mock itself, which it tunnels (and records as such), and the UI's connectivity
// probes, which it answers itself as the mock answers /api/hello. Releases up to 1.0.92 send every API request through
// HTTPS_PROXY, ignoring NO_PROXY, so without the tunnel they could not reach the mock; the UI of 0.2.114–1.0.4 asks
// those two hosts through it before its prompt and exits 1 ("Unable to connect to Anthropic services") on a refusal.
import fs from "node:fs";
import net from "node:net";
import { clockNow } from "../core/time.ts";

export interface OutboundAttempt {
  t: number;
  // What the client asked for: "CONNECT host:443" or "GET http://host/path".
  request: string;
  // True for a CONNECT to the mock's own address, tunnelled to it rather than refused.
  forwardedToMock?: boolean;
  // True for a connectivity probe the trap answered 200 itself (CONNECTIVITY_PROBES).
  answeredProbe?: boolean;
}

export interface OutboundTrap {
  url: string;
  // Refused attempts: anything but the mock.
  attempts: OutboundAttempt[];
  // CONNECTs to the mock, tunnelled.
  forwarded: OutboundAttempt[];
  // Connectivity probes, answered by the trap.
  answered: OutboundAttempt[];
  close(): Promise<void>;
}

// What the UI's preflight asks, as the proxy receives it (an absolute URI): answered 200 with `{}`, never forwarded.
const CONNECTIVITY_PROBES = new Set(["GET https://api.anthropic.com/api/hello HTTP/1.1", "GET https://console.anthropic.com/v1/oauth/hello HTTP/1.1"]);
const PROBE_ANSWER = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: 2\r\n\r\n{}";

const REFUSAL = "HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\ncontent-length: 38\r\n\r\nccrepro: outbound network is disabled\n";

// The one target the trap tunnels: the mock's `127.0.0.1:<port>` (a plain-HTTP server, so a raw TCP pipe suffices).
export interface MockTarget {
  host: string;
  port: number;
}

const CONNECT_LINE = /^CONNECT (\S+):(\d+) HTTP\/1\.[01]$/;

export async function startOutboundTrap(logFile: string, mock?: MockTarget): Promise<OutboundTrap> {
  const attempts: OutboundAttempt[] = [];
  const forwarded: OutboundAttempt[] = [];
  const answered: OutboundAttempt[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let head = "";
    // One connection is one attempt, however its bytes arrive (a header-less stream would otherwise count per 8 KiB).
    let recorded = false;
    const firstLine = () => head.split("\r\n")[0]?.slice(0, 500) ?? "";
    // The connection's one attempt, kept in its list and the log.
    const log = (list: OutboundAttempt[], how: Pick<OutboundAttempt, "forwardedToMock" | "answeredProbe"> = {}) => {
      recorded = true;
      const attempt = { t: clockNow(), request: firstLine(), ...how };
      list.push(attempt);
      fs.appendFileSync(logFile, `${JSON.stringify(attempt)}\n`);
    };
    const record = () => {
      if (recorded) return;
      log(attempts);
      socket.end(REFUSAL);
    };
    const tunnel = () => {
      log(forwarded, { forwardedToMock: true });
      socket.setTimeout(0);
      const rest = Buffer.from(head.slice(head.indexOf("\r\n\r\n") + 4), "latin1");
      const upstream = net.connect(mock!.port, mock!.host, () => {
        socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (rest.length > 0) upstream.write(rest);
        socket.pipe(upstream).pipe(socket);
      });
      sockets.add(upstream);
      upstream.on("close", () => {
        sockets.delete(upstream);
        socket.destroy();
      });
      upstream.on("error", () => socket.destroy());
      socket.on("close", () => upstream.destroy());
    };
    const isMock = (line: string) => {
      const target = CONNECT_LINE.exec(line);
      return mock !== undefined && target !== null && target[1] === mock.host && Number(target[2]) === mock.port;
    };
    socket.on("data", (chunk) => {
      if (recorded) return;
      head += chunk.toString("latin1");
      if (!head.includes("\r\n") && head.length <= 8192) return;
      if (CONNECTIVITY_PROBES.has(firstLine())) {
        log(answered, { answeredProbe: true });
        socket.end(PROBE_ANSWER);
        return;
      }
      // A CONNECT's headers end with an empty line before the tunnel may start; wait for it.
      if (isMock(firstLine())) {
        if (head.includes("\r\n\r\n")) tunnel();
        else if (head.length > 8192) record();
        return;
      }
      record();
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
    forwarded,
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
