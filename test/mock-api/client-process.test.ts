// Which process sent a request: the mock finds the client's pid through /proc when asked to, per connection.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, describe, expect, it } from "vitest";
import type { RequestEntry } from "../../mock-api/log-entry.ts";
import { startMockServer, type MockServer } from "../../mock-api/server.ts";
import { mockScriptSchema } from "../../mock-api/script.ts";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-client-pid-"));
const servers: MockServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

async function serve(identifyClients: boolean): Promise<{ mock: MockServer; requests: RequestEntry[] }> {
  const mock = await startMockServer({ script: mockScriptSchema.parse({}), logDir: path.join(root, String(servers.length)), identifyClients });
  servers.push(mock);
  const requests: RequestEntry[] = [];
  mock.log.onEntry((line) => {
    if (line.kind === "request") requests.push(line);
  });
  return { mock, requests };
}

// Another process sends two requests on one keep-alive connection, then one on a new connection.
const CLIENT = `
const http = require("node:http");
const agent = new http.Agent({ keepAlive: true });
const get = (a) => new Promise((done) => http.get(process.argv[1], { agent: a }, (res) => { res.resume(); res.on("end", done); }));
(async () => { await get(agent); await get(agent); await get(new http.Agent()); agent.destroy(); })();
`;

describe("identifyClients", () => {
  it("records the sending process's pid and command line on every request", async () => {
    const { mock, requests } = await serve(true);
    const client = execa(process.execPath, ["-e", CLIENT, `${mock.url}/api/hello`]);
    await client;
    expect(requests).toHaveLength(3);
    for (const entry of requests) {
      expect(entry.client.pid).toBe(client.pid);
      expect(entry.client.command?.startsWith(`${process.execPath} -e`)).toBe(true);
    }
    expect(new Set(requests.map((e) => e.client.remotePort)).size).toBe(2);
  });

  it("leaves pid and command out unless asked", async () => {
    const { mock, requests } = await serve(false);
    await fetch(`${mock.url}/api/hello`);
    expect(requests[0]!.client).toEqual({ remoteAddress: "127.0.0.1", remotePort: expect.any(Number) });
  });
});
