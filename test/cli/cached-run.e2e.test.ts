// A run of a cached exact release asks the registry nothing and exits as soon as it has printed its verdict.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installRelease } from "../../releases/release-cache.ts";
import { E2E_RUNS_DIR, E2E_TIMEOUT_MS } from "../e2e-run.ts";

const CLI = new URL("../../bin/ccrepro.mjs", import.meta.url).pathname;
// A built-in: a run that loads no scenario file.
const EXAMPLE = "max-turns-count";
const VERSION = "2.1.332";

describe("ccrepro run on a cached exact release", { timeout: E2E_TIMEOUT_MS }, () => {
  const requests: string[] = [];
  const registry = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(500).end();
  });
  let url = "";

  beforeAll(async () => {
    // Cached before the run (downloaded here if CI's cache is empty), so the run itself has nothing to fetch.
    await installRelease(VERSION);
    await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => registry.close(() => resolve())));

  it("makes no registry request and starts no npm", async () => {
    // npm_config_registry is the highest layer of npm's configuration; an `npm` first on PATH records being started.
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), "ccrepro-no-npm-"));
    const started = path.join(bin, "npm-started");
    fs.writeFileSync(path.join(bin, "npm"), `#!/bin/sh\necho "$@" >> ${started}\nexit 1\n`, { mode: 0o755 });
    const env = { npm_config_registry: url, PATH: `${bin}${path.delimiter}${process.env["PATH"]}` };
    const result = await execa("node", [CLI, "run", EXAMPLE, "--claude", VERSION, "--json", "--runs-dir", E2E_RUNS_DIR], {
      env,
      reject: false,
      // Far below the two minutes a leftover keep-alive socket used to hold the process open.
      timeout: 90_000,
    });
    expect(result.timedOut, result.stderr).toBe(false);
    expect(JSON.parse(result.stdout.trim().split("\n").at(-1)!)).toMatchObject({ verdict: "GREEN" });
    expect(requests).toEqual([]);
    expect(fs.existsSync(started)).toBe(false);
    fs.rmSync(bin, { recursive: true, force: true });
  });

  it("does ask the registry when the word needs its release list", async () => {
    const result = await execa("node", [CLI, "run", EXAMPLE, "--claude", "latest"], { env: { npm_config_registry: url }, reject: false, timeout: 60_000 });
    expect(result.exitCode).toBe(3);
    expect(requests.some((r) => r.includes("claude-code"))).toBe(true);
  });
});
