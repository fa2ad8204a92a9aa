// No network (issue 27, item 7): with the registry unreachable (a loopback port nothing listens on), an exact release
// in the cache works for `install` and `run`, `latest` uses the last list read, saying how old it is, and without one
// the error says how to work offline. A copy of 2.1.112's cached entry (13 MB, the smallest), in a cache of its own.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2E_TIMEOUT_MS } from "../e2e-run.ts";
import { cacheDir } from "../../releases/cache-dir.ts";
import { installRelease } from "../../releases/release-cache.ts";

const CLI = path.resolve(import.meta.dirname, "../../bin/ccrepro.mjs");
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-offline-"));
const cache = path.join(folder, "cache");
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const OFFLINE = { npm_config_registry: "http://127.0.0.1:9/", CCREPRO_CACHE_DIR: cache };
const ccrepro = (args: string[], env: Record<string, string> = OFFLINE) => execa("node", [CLI, ...args], { cwd: folder, env, reject: false, timeout: E2E_TIMEOUT_MS });

beforeAll(async () => {
  // Installed into the shared cache first when CI's cache is empty; the copy is ours.
  await installRelease("2.1.112");
  fs.mkdirSync(cache, { recursive: true });
  fs.cpSync(path.join(cacheDir(), "2.1.112"), path.join(cache, "2.1.112"), { recursive: true, preserveTimestamps: true, filter: (f) => !f.includes(`${path.sep}in-use`) });
}, E2E_TIMEOUT_MS);

describe("with the registry unreachable", () => {
  it("an exact cached release installs and runs; latest, with no list ever read, says how to work offline", async () => {
    const install = await ccrepro(["install", "2.1.112"]);
    expect(install.exitCode, install.stderr).toBe(0);
    expect(install.stdout.trim()).toBe(path.join(cache, "2.1.112", "package", "cli.js"));
    expect(install.stderr).toContain("2.1.112: cached");

    const run = await ccrepro(["run", "max-turns-count", "--claude", "2.1.112", "--json"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ verdict: "GREEN" });

    const latest = await ccrepro(["install", "latest"]);
    expect(latest.exitCode).toBe(3);
    expect(latest.stderr).toContain("Could not reach http://127.0.0.1:9/ for the @anthropic-ai/claude-code release list");
    expect(latest.stderr).toContain("offline, an exact release already in the cache works (--claude <version>, not latest or a range); cached here: 2.1.112");
  }, E2E_TIMEOUT_MS);

  it("latest and ranges resolve from the last list read, which says its age; an uncached release says it cannot be fetched", async () => {
    // Read once online (the live registry), into this cache's saved list.
    const online = await ccrepro(["versions", "--json"], { CCREPRO_CACHE_DIR: cache });
    expect(online.exitCode, online.stderr).toBe(0);
    const saved = path.join(cache, "release-list.json");
    const list = JSON.parse(fs.readFileSync(saved, "utf8")) as { fetchedAt: string; distTags: Record<string, string> };
    // As if read three hours ago, when 2.1.112 was the newest.
    fs.writeFileSync(saved, JSON.stringify({ ...list, fetchedAt: new Date(Date.now() - 3 * 3600_000).toISOString(), distTags: { ...list.distTags, latest: "2.1.112" } }));

    const latest = await ccrepro(["install", "latest"]);
    expect(latest.exitCode, latest.stderr).toBe(0);
    expect(latest.stdout.trim()).toBe(path.join(cache, "2.1.112", "package", "cli.js"));
    expect(latest.stderr).toMatch(/the registry is unreachable, so this uses the release list read 3 h ago \(\d{4}-\d\d-\d\dT/);

    const versions = await ccrepro(["versions"]);
    expect(versions.exitCode, versions.stderr).toBe(0);
    expect(versions.stdout).toContain("* 2.1.112");

    const range = await ccrepro(["install", ">=2.1.112 <2.1.114"]);
    expect(range.exitCode).toBe(3);
    expect(range.stderr).toContain("2.1.112: cached");
    expect(range.stderr).toContain("Could not fetch @anthropic-ai/claude-code-linux-x64@2.1.113");
  }, E2E_TIMEOUT_MS);

  it("a registry that answers 401 is not offline: the saved list is not used, and the error says to fix the credentials", async () => {
    expect(fs.existsSync(path.join(cache, "release-list.json"))).toBe(true);
    const server = http.createServer((_req, res) => res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}'));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const refused = await ccrepro(["install", "latest"], { ...OFFLINE, npm_config_registry: `http://127.0.0.1:${port}/` });
      expect(refused.exitCode).toBe(3);
      expect(refused.stderr).toContain(`http://127.0.0.1:${port}/ refused the @anthropic-ai/claude-code release list`);
      expect(refused.stderr).toContain("credentials in your .npmrc");
      expect(refused.stderr).not.toContain("uses the release list read");
    } finally {
      server.close();
    }
  }, E2E_TIMEOUT_MS);
});
