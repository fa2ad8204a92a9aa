// The outbound trap: a proxy-honouring client is refused and every attempt is counted, once, in memory and in the log.
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { buildEnvironment } from "../../harness/isolation.ts";
import { startOutboundTrap, type OutboundTrap } from "../../harness/outbound-trap.ts";
import { runLayout } from "../../harness/run-layout.ts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-trap-"));
let trap: OutboundTrap;
let logFile: string;
let n = 0;

async function freshTrap(): Promise<OutboundTrap> {
  logFile = path.join(root, `outbound-${(n += 1)}.jsonl`);
  trap = await startOutboundTrap(logFile);
  return trap;
}

const logged = () =>
  fs
    .readFileSync(logFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { t: number; request: string });

const trapPort = () => Number(new URL(trap.url).port);

// Everything the trap answers a raw client, once either side has closed the connection.
// Half-open, like a client that keeps writing after the refusal; it ends its side after the last chunk unless `silent`.
function rawExchange(chunks: Buffer[], options: { pauseMs?: number; waitMs?: number; silent?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port: trapPort(), host: "127.0.0.1", allowHalfOpen: true });
    let answer = "";
    socket.on("data", (data) => (answer += data.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on("connect", async () => {
      for (const chunk of chunks) {
        socket.write(chunk);
        await new Promise((r) => setTimeout(r, options.pauseMs ?? 0));
      }
      if (!options.silent) socket.end();
    });
    const timer = setTimeout(() => socket.destroy(), options.waitMs ?? 4000);
  });
}

afterEach(async () => {
  await trap?.close();
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe("outbound trap", () => {
  it("refuses curl -x with 403 for an HTTPS tunnel and records the CONNECT", async () => {
    await freshTrap();
    const result = await execa("curl", ["-sS", "--max-time", "10", "-x", trap.url, "https://api.anthropic.com/v1/messages"], {
      reject: false,
      extendEnv: false,
      env: { PATH: "/usr/bin:/bin" },
    });
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toMatch(/403/);
    expect(trap.attempts).toHaveLength(1);
    expect(trap.attempts[0]!.request).toBe("CONNECT api.anthropic.com:443 HTTP/1.1");
    expect(logged()).toEqual(trap.attempts);
  });

  it("refuses a client that finds it through HTTPS_PROXY / HTTP_PROXY in its environment", async () => {
    await freshTrap();
    const env = { PATH: "/usr/bin:/bin", HTTPS_PROXY: trap.url, HTTP_PROXY: trap.url, http_proxy: trap.url };
    const https = await execa("curl", ["-sS", "--max-time", "10", "https://statsig.anthropic.com/v1/initialize"], { reject: false, extendEnv: false, env });
    const plain = await execa("curl", ["-sS", "--max-time", "10", "-o", "/dev/null", "-w", "%{http_code}", "http://example.com/x?y=1"], {
      reject: false,
      extendEnv: false,
      env,
    });
    expect(https.exitCode).not.toBe(0);
    expect(plain.stdout).toBe("403");
    expect(trap.attempts.map((a) => a.request)).toEqual([
      "CONNECT statsig.anthropic.com:443 HTTP/1.1",
      "GET http://example.com/x?y=1 HTTP/1.1",
    ]);
  });

  it("refuses an explicit CONNECT sent over a raw socket and closes the connection", async () => {
    await freshTrap();
    const answer = await rawExchange([Buffer.from("CONNECT sentry.io:443 HTTP/1.1\r\nHost: sentry.io:443\r\n\r\n")]);
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(answer.endsWith("\r\n\r\nccrepro: outbound network is disabled\n")).toBe(true);
    expect(trap.attempts.map((a) => a.request)).toEqual(["CONNECT sentry.io:443 HTTP/1.1"]);
  });

  it("answers the UI's connectivity probes itself, 200 as the mock answers /api/hello, and records them apart from refusals", async () => {
    await freshTrap();
    const answer = await rawExchange([Buffer.from("GET https://api.anthropic.com/api/hello HTTP/1.1\r\nHost: api.anthropic.com\r\n\r\n")]);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer.endsWith("\r\n\r\n{}")).toBe(true);
    expect(trap.answered.map((a) => a.request)).toEqual(["GET https://api.anthropic.com/api/hello HTTP/1.1"]);
    expect(trap.attempts).toEqual([]);
    // Any other path of the same host is refused.
    const refused = await rawExchange([Buffer.from("GET https://api.anthropic.com/v1/messages HTTP/1.1\r\nHost: api.anthropic.com\r\n\r\n")]);
    expect(refused).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(logged().map((l) => l.request)).toEqual(["GET https://api.anthropic.com/api/hello HTTP/1.1", "GET https://api.anthropic.com/v1/messages HTTP/1.1"]);
  });

  it("counts a request line split across packets once", async () => {
    await freshTrap();
    await rawExchange([Buffer.from("CONNECT example.org:4"), Buffer.from("43 HTTP/1.1\r\nHost: x\r\n\r\n")], { pauseMs: 50 });
    expect(trap.attempts.map((a) => a.request)).toEqual(["CONNECT example.org:443 HTTP/1.1"]);
  });

  it("counts a client that sends bytes without any line break once, however many it sends", async () => {
    await freshTrap();
    // e.g. a TLS handshake sent straight at the proxy port: 36 KB with no CRLF, in four writes.
    const answer = await rawExchange(Array.from({ length: 4 }, () => Buffer.alloc(9000, 0x16)), { pauseMs: 100 });
    expect(answer).toMatch(/^HTTP\/1\.1 403/);
    expect(trap.attempts).toHaveLength(1);
    expect(logged()).toHaveLength(1);
  });

  it("counts a client that connects and says nothing", async () => {
    await freshTrap();
    const answer = await rawExchange([], { waitMs: 3500, silent: true });
    expect(answer).toMatch(/^HTTP\/1\.1 403/);
    expect(trap.attempts.map((a) => a.request)).toEqual([""]);
  });

  it("is what the isolated environment's proxy variables name, while loopback (the mock) is reached directly", async () => {
    await freshTrap();
    const local = http.createServer((_req, res) => res.end("mock-ok"));
    await new Promise<void>((resolve) => local.listen(0, "127.0.0.1", resolve));
    const mockUrl = `http://127.0.0.1:${(local.address() as net.AddressInfo).port}`;
    try {
      const env = buildEnvironment(runLayout(path.join(root, "run")), { runId: "trap-test", mockUrl, trapUrl: trap.url });
      const outside = await execa("curl", ["-sS", "--max-time", "10", "https://api.anthropic.com/"], { reject: false, extendEnv: false, env });
      const mock = await execa("curl", ["-sS", "--max-time", "10", `${mockUrl}/v1/messages`], { reject: false, extendEnv: false, env });
      expect(outside.exitCode).not.toBe(0);
      expect(mock.stdout).toBe("mock-ok");
      expect(trap.attempts.map((a) => a.request)).toEqual(["CONNECT api.anthropic.com:443 HTTP/1.1"]);
    } finally {
      await new Promise((resolve) => local.close(resolve));
    }
  });

  it("tunnels a CONNECT to the mock's address (a client that ignores NO_PROXY, like 1.0.72) and refuses one to any other port", async () => {
    const local = http.createServer((_req, res) => res.end("mock-ok"));
    await new Promise<void>((resolve) => local.listen(0, "127.0.0.1", resolve));
    const port = (local.address() as net.AddressInfo).port;
    logFile = path.join(root, `outbound-${(n += 1)}.jsonl`);
    trap = await startOutboundTrap(logFile, { host: "127.0.0.1", port });
    try {
      // --proxytunnel makes curl CONNECT even for an http:// URL, as undici's ProxyAgent in those releases does.
      const viaProxy = (target: string) =>
        execa("curl", ["-sS", "--max-time", "10", "--noproxy", "", "--proxytunnel", "-x", trap.url, target], { reject: false, extendEnv: false, env: { PATH: "/usr/bin:/bin" } });
      const toMock = await viaProxy(`http://127.0.0.1:${port}/v1/messages`);
      const elsewhere = await viaProxy(`http://127.0.0.1:${port + 1}/`);
      expect(toMock.stdout).toBe("mock-ok");
      expect(elsewhere.exitCode).not.toBe(0);
      expect(trap.forwarded.map((a) => a.request)).toEqual([`CONNECT 127.0.0.1:${port} HTTP/1.1`]);
      expect(trap.attempts.map((a) => a.request)).toEqual([`CONNECT 127.0.0.1:${port + 1} HTTP/1.1`]);
      expect(logged().map((a) => (a as { forwardedToMock?: boolean }).forwardedToMock ?? false)).toEqual([true, false]);
    } finally {
      await new Promise((resolve) => local.close(resolve));
    }
  });

  it("closes while a client still holds a connection open", async () => {
    await freshTrap();
    const socket = net.connect({ port: trapPort(), host: "127.0.0.1", allowHalfOpen: true });
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write("CONNECT a.b:443 HTTP/1.1\r\n\r\n");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = trap.close();
    await expect(Promise.race([closing.then(() => "closed"), new Promise((r) => setTimeout(() => r("hung"), 2000))])).resolves.toBe("closed");
    socket.destroy();
  });
});
